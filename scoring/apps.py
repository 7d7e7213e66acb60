from __future__ import annotations

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """Round scores, match results, tournaments, leagues and standings."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
