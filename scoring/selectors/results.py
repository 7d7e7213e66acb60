"""A match's results as the match view shows them: from the result rows, with player names."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from scoring.models import MatchFinalisation, MatchResult

RESULT_FIELDS = (
    "place",
    "seat",
    "player_id",
    "total",
    "zero_rounds",
    "lowest_round",
    "rounds_played",
    "decided_by",
)


def match_results(*, match_id: int) -> list[dict[str, Any]] | None:
    """The places of finished match ``match_id``, best first (then by seat), each with the
    player's id and display name; ``None`` while the end-of-match task has not written them."""
    rows = list(
        MatchResult.objects.filter(match_id=match_id)
        .order_by("place", "seat")
        .values(*RESULT_FIELDS, name=F("player__display_name"))
    )
    return rows or None


def results_pending(*, match_id: int) -> bool:
    """Has ``match_id`` (finished) yet to be finalised? One primary-key lookup."""
    return not MatchFinalisation.objects.filter(match_id=match_id).exists()
