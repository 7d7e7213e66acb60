"""The final order of a match by C-WIN, computed by the database from its round rows.

One aggregate query gives each seat's figures and its place (``RANK() OVER`` the three C-WIN
keys: the lowest total, then the most rounds at zero, then the lowest single non-zero round; a
seat that never scored above zero has no lowest round and ranks best on that key). Which step
decided each place is read from its neighbours in that order, as the engine reports it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Min, Q, Sum, Window
from django.db.models.functions import Rank

from scoring.models import RoundResult

CRITERIA = ("total", "zero_rounds", "lowest_round")


def _keys(row: dict[str, Any]) -> tuple[int, int, float]:
    low = row["lowest_round"]
    return (row["total"], -row["zero_rounds"], float("inf") if low is None else low)


def _separating(a: dict[str, Any], b: dict[str, Any]) -> int:
    """How many C-WIN keys it takes to tell ``a`` from ``b`` (3: they are level)."""
    for index, (x, y) in enumerate(zip(_keys(a), _keys(b), strict=True)):
        if x != y:
            return index
    return 3


def order_from_rows(*, match_id: int) -> list[dict[str, Any]]:
    """Each seat of ``match_id`` with ``player_id``, ``total``, ``zero_rounds``, ``lowest_round``,
    ``rounds_played``, ``place`` and ``decided_by``, best first (then by seat)."""
    rows = list(
        RoundResult.objects.filter(match_id=match_id)
        .values("seat", "player_id")
        .annotate(
            total=Sum("points"),
            zero_rounds=Count("pk", filter=Q(points=0)),
            lowest_round=Min("points", filter=Q(points__gt=0)),
            rounds_played=Count("pk"),
        )
        .annotate(
            place=Window(
                Rank(),
                order_by=[
                    F("total").asc(),
                    F("zero_rounds").desc(),
                    F("lowest_round").asc(nulls_last=True),
                ],
            )
        )
        .order_by("place", "seat")
    )
    for index, row in enumerate(rows):
        depth = 0
        for other in (index - 1, index + 1):
            if 0 <= other < len(rows):
                depth = max(depth, _separating(row, rows[other]))
        row["decided_by"] = "shared" if depth == 3 else CRITERIA[depth]
    return rows


def order_differences(
    rows: list[dict[str, Any]], engine_standings: list[dict[str, Any]] | None
) -> list[str]:
    """How the engine's order differs from the rows' (empty: they agree)."""
    if engine_standings is None:
        return ["the match has no engine standings"]
    fields = ("place", "total", "zero_rounds", "lowest_round", "decided_by")
    ours = {row["seat"]: row for row in rows}
    theirs = {row["seat"]: row for row in engine_standings}
    if set(ours) != set(theirs):
        return [f"seats differ: rows {sorted(ours)}, engine {sorted(theirs)}"]
    return [
        f"seat {seat} {name}: rows {ours[seat][name]!r}, engine {theirs[seat].get(name)!r}"
        for seat in sorted(ours)
        for name in fields
        if ours[seat][name] != theirs[seat].get(name)
    ]
