from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Players, matches, rounds and moves, and the API that plays them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games.scoring_port import GamesForScoring
        from scoring.ports import register_games

        register_games(GamesForScoring())
