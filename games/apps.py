from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Players, matches, rounds and moves, and the API that plays them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from games import tasks  # noqa: F401 - registers the tasks services queue (games.jobs)
        from games.accounts import token_cache
        from games.accounts.username_keys import username_key_keep
        from games.models import DeviceToken, Player
        from games.scoring_port import GamesForScoring
        from scoring.ports import register_games

        register_games(GamesForScoring())
        post_save.connect(
            username_key_keep, sender=get_user_model(), dispatch_uid="games.username_key"
        )
        # A revoked token, or a changed user or player, stops the token rows kept in this process.
        post_delete.connect(
            token_cache.on_token_deleted, sender=DeviceToken, dispatch_uid="games.token_cache"
        )
        receivers = (
            (get_user_model(), token_cache.on_user_changed),
            (Player, token_cache.on_player_changed),
        )
        for model, receiver in receivers:
            for signal in (post_save, post_delete):
                signal.connect(receiver, sender=model, dispatch_uid="games.token_cache")
