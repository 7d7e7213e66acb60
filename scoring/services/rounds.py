"""Round rows: written by the move (or the start) that ends a round, inside its transaction."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.models import RoundResult


def round_results_record(
    *,
    match_id: int,
    round_number: int,
    players: Sequence[int],
    scores: Sequence[int],
    went_out_seat: int | None,
) -> list[RoundResult]:
    """Record round ``round_number`` of ``match_id``: one row per seat.

    ``players[seat]`` is the player id at each seat, ``scores[seat]`` the seat's points (C-PIPS),
    ``went_out_seat`` the seat that emptied its hand (``None``: the round was blocked). Call it
    inside the transaction that ends the round, holding the match lock: a round ends once, and
    the unique constraint (match, round, seat) refuses a second record of it.
    """
    if len(players) != len(scores):
        raise ValueError(f"{len(players)} players but {len(scores)} scores")
    rows = [
        RoundResult(
            match_id=match_id,
            round_number=round_number,
            seat=seat,
            player_id=player_id,
            points=points,
            went_out=seat == went_out_seat,
        )
        for seat, (player_id, points) in enumerate(zip(players, scores, strict=True))
    ]
    return RoundResult.objects.bulk_create(rows)


def round_results_replace(
    *,
    match_id: int,
    round_number: int,
    scores: Sequence[int],
    went_out_seat: int | None,
) -> int:
    """Write corrected round ``round_number`` of ``match_id`` over its rows (a table match's
    correction, in its transaction, holding the match lock); returns the rows changed."""
    rows = list(RoundResult.objects.filter(match_id=match_id, round_number=round_number))
    for row in rows:
        row.points = scores[row.seat]
        row.went_out = row.seat == went_out_seat
    return RoundResult.objects.bulk_update(rows, ["points", "went_out"])
