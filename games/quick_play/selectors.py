"""Reads of the quick play queue: the caller's current entry, a player's rating."""

from __future__ import annotations

from games.models import Match
from games.quick_play.models import QueueEntry
from games.quick_play.presets import display
from scoring.models import Rating

#: A matched entry stays the player's while its match is open or in play.
LIVE = (Match.Status.OPEN, Match.Status.PLAYING)


def entry_current(entry: QueueEntry | None) -> bool:
    """Is ``entry`` (its ``match`` loaded) the player's now: waiting, or matched into a match not
    over?"""
    if entry is None:
        return False
    if entry.status == QueueEntry.Status.WAITING:
        return True
    return entry.match is not None and entry.match.status in LIVE


def queue_entry_of(*, player_id: int) -> QueueEntry | None:
    """The player's current entry, or ``None``."""
    entry = QueueEntry.objects.select_related("match").filter(player_id=player_id).first()
    return entry if entry_current(entry) else None


def rating_of(*, player_id: int, variant: str) -> float:
    """The player's display rating in ``variant`` (1000 unrated), as the leaderboard has it."""
    ordinal = (
        Rating.objects.filter(player_id=player_id, variant=variant)
        .values_list("ordinal", flat=True)
        .first()
    )
    return display(ordinal)
