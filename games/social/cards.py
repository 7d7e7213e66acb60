"""A player as the lists of friends, friend requests and blocks show them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Player

#: Makes a player's card; the API's adds the avatar's absolute URLs (``games.api.friends``).
Card = Callable[[Player], dict[str, Any]]


def player_card(player: Player) -> dict[str, Any]:
    """A player as a list of friends, requests or blocks shows them: id, name and kind
    (nothing else of theirs)."""
    return {"id": player.pk, "name": player.display_name, "kind": player.kind}
