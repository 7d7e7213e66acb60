"""Writes of a player's profile settings."""

from __future__ import annotations

from games.accounts import token_cache
from games.models import Player


def player_visibility_set(*, player: Player, visibility: str) -> None:
    """Save who sees ``player``'s profile (a ``Player.Visibility`` value): it holds from the
    next request on, everywhere (``games.profiles.visibility``)."""
    Player.objects.filter(pk=player.pk).update(profile_visibility=visibility)
    player.profile_visibility = visibility
    if player.user_id is not None:
        token_cache.evict_user(player.user_id)  # the cached lookups carry the player's row
