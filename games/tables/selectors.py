"""Reads of table matches: their rounds as entered, for the match view."""

from __future__ import annotations

from typing import Any

from games.models import Match, Player, Seat
from games.tables.models import ScoreEntry
from games.tables.review_states import round_review_states


def may_score(*, match: Match, player: Player) -> bool:
    """Whether ``player`` may enter and correct ``match``'s scores: its creator, or a player
    seated at it with an account (a scorer link of it may too: ``scorer_check``)."""
    if match.play != Match.Play.TABLE:
        return False
    if match.created_by_id == player.pk:
        return True
    return not player.is_guest and Seat.objects.filter(match=match, player=player).exists()


def table_rounds(*, match: Match) -> list[dict[str, Any]]:
    """Each round scored so far, in order: its start double and each seat's points, whether it
    went out, and the tiles left in its hand when they were entered instead of the points; its
    confirmation status and dispute (games/tables/review_states.py)."""
    entries = (
        ScoreEntry.objects.filter(match=match)
        .select_related("round")
        .order_by("number", "pk")
        .only("number", "seats", "created_at", "round__start_double")
    )
    latest: dict[int, ScoreEntry] = {}
    for entry in entries:  # a later entry for a round stands (corrections append)
        latest[entry.number] = entry
    reviews = round_review_states(match=match) if latest else {}
    return [
        {
            "number": number,
            "start_double": [entry.round.start_double, entry.round.start_double],
            "scores": entry.seats,
            "entered_at": entry.created_at,
            **reviews[number],
        }
        for number, entry in sorted(latest.items())
    ]


def table_round_endings(*, match: Match) -> dict[int, tuple[str, int | None]]:
    """``{round number: ("out", seat) or ("blocked", None)}`` as each round was entered."""
    endings: dict[int, tuple[str, int | None]] = {}
    for entry in table_rounds(match=match):
        out = [item["seat"] for item in entry["scores"] if item["went_out"]]
        endings[entry["number"]] = ("out", out[0]) if out else ("blocked", None)
    return endings
