"""Round scores, match totals and the final order with the C-WIN tie-breaks.

These work on plain numbers, so Chicken Foot, Mexican Train and the scoring app share them.
"""

from __future__ import annotations

from typing import Any

from .tiles import Tile, hand_points


def round_scores(hands: list[list[Tile]], double_blank_points: int = 50) -> list[int]:
    """C-PIPS per seat (CF-SCORE; MT-SCORE: the seat that went out holds none)."""
    return [hand_points(hand, double_blank_points) for hand in hands]


def match_totals(scores: list[list[int]]) -> list[int]:
    """Each seat's total over the rounds played (``scores[round][seat]``)."""
    if not scores:
        return []
    return [sum(column) for column in zip(*scores, strict=True)]


def final_order(scores: list[list[int]]) -> list[dict[str, Any]]:
    """The final standing by C-WIN, best first.

    ``scores[round][seat]`` are the round scores. Seats are ordered by (1) the lowest total, then
    (2) the most rounds scored at zero, then (3) the lowest single non-zero round score; seats
    still level share the place (places 1, 2, 2, 4). Each entry carries ``decided_by``: the
    criterion that separated the seat from its neighbours (``total``, ``zero_rounds``,
    ``lowest_round``), or ``shared`` when nothing did, and ``tiebreak``: the trail of criteria
    consulted, in order.
    """
    if not scores:
        return []
    seats = len(scores[0])
    rows = []
    for seat in range(seats):
        column = [r[seat] for r in scores]
        non_zero = [s for s in column if s != 0]
        rows.append(
            {
                "seat": seat,
                "total": sum(column),
                "zero_rounds": sum(1 for s in column if s == 0),
                "lowest_round": min(non_zero) if non_zero else None,
            }
        )

    def keys(row: dict[str, Any]) -> tuple[int, int, float]:
        low = row["lowest_round"]
        return (row["total"], -row["zero_rounds"], float("inf") if low is None else low)

    rows.sort(key=lambda r: (keys(r), r["seat"]))
    criteria = ("total", "zero_rounds", "lowest_round")

    def separating(a: dict[str, Any], b: dict[str, Any]) -> int:
        """How many criteria it takes to tell ``a`` from ``b`` (3 = they are level)."""
        ka, kb = keys(a), keys(b)
        for i in range(3):
            if ka[i] != kb[i]:
                return i
        return 3

    for i, row in enumerate(rows):
        depth = -1  # deepest criterion needed against a neighbour
        for j in (i - 1, i + 1):
            if 0 <= j < len(rows):
                depth = max(depth, separating(row, rows[j]))
        depth = max(depth, 0)
        if depth == 3:
            row["decided_by"] = "shared"
            row["tiebreak"] = list(criteria)
        else:
            row["decided_by"] = criteria[depth]
            row["tiebreak"] = list(criteria[: depth + 1])
        if i > 0 and keys(rows[i - 1]) == keys(row):
            row["place"] = rows[i - 1]["place"]
        else:
            row["place"] = i + 1
    return rows
