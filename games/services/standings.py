"""A finished match's final order as it keeps it: the engine's (C-WIN), each seat whose player
left it to a bot marked with why. The lowest layer of the match services: the end of a match
(``common``) and the replay check (``replay``) read it, and it imports none of them."""

from __future__ import annotations

from typing import Any

from games.models import Seat


def final_standings(
    *, standings: list[dict[str, Any]], left: dict[int, str]
) -> list[dict[str, Any]]:
    """The engine's order (C-WIN), each seat whose player left marked with why (``left``).

    The places stay C-WIN's: a seat a bot finished counts for its player as it ended, which
    is what the results and ratings are computed from (scoring.services.finalise).
    """
    if not left:
        return standings
    return [dict(row, left=left[row["seat"]]) if row["seat"] in left else row for row in standings]


def left_seats(*, match_id: int) -> dict[int, str]:
    """The seats of ``match_id`` whose players left, and why."""
    rows = Seat.objects.filter(match_id=match_id).exclude(left="").values_list("position", "left")
    return dict(rows)
