"""Matches of bots only: which they are, and the ones a player has.

A match of bots only has no seat a person plays: every seat holds a bot, or a player who left
it to a bot (resigned, or timed out too often). A player may have only so many of them open or
in play at once (``BOT_ONLY_MATCHES_PER_PLAYER``; docs/reliability.md, "Bots under load").
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from games.models import Match, Player, Seat


def bot_only_matches_of(*, player: Player) -> list[int]:
    """The ids of the matches of bots only ``player`` created that are open or in play, oldest
    first. One query on the creator's index: a seat a person holds, or that is open for one,
    makes a match not one of them."""
    person_seat = Seat.objects.filter(match=OuterRef("pk")).filter(
        Q(player__isnull=True) | Q(player__kind=Player.Kind.HUMAN, left="")
    )
    active = (Match.Status.OPEN, Match.Status.PLAYING)
    return list(
        Match.objects.filter(created_by=player, status__in=active)
        .exclude(Exists(person_seat))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
