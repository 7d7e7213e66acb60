from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Players, matches, rounds and moves, and the API that plays them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
