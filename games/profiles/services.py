"""Writes of a player's profile settings."""

from __future__ import annotations

from typing import Any

from games.accounts import token_cache
from games.models import Player


def player_visibility_set(*, player: Player, visibility: str) -> None:
    """Save who sees ``player``'s profile (a ``Player.Visibility`` value): it holds from the
    next request on, everywhere (``games.profiles.visibility``)."""
    Player.objects.filter(pk=player.pk).update(profile_visibility=visibility)
    player.profile_visibility = visibility
    if player.user_id is not None:
        token_cache.evict_user(player.user_id)  # the cached lookups carry the player's row


def player_quiet_hours_set(*, player: Player, **fields: Any) -> None:
    """Save ``player``'s ``time_zone``, ``quiet_hours_start`` and ``quiet_hours_end`` (those
    given; checked by the caller): pushes wait in the inbox in that window from the next
    notification on (``games.notifications.quiet``)."""
    if not fields:
        return
    Player.objects.filter(pk=player.pk).update(**fields)
    for name, value in fields.items():
        setattr(player, name, value)
    if player.user_id is not None:
        token_cache.evict_user(player.user_id)  # the cached lookups carry the player's row
