"""Ranking standings rows by a competition's order of tie-breaks (``tie_breaks``). Pure: the
rows and the meetings of tied players come in as plain values.

The rows are ranked in two partitions, the ranked players (a league's minimum of matches
reached) before the others, each by the keys in order: a key sorts every group of players the
keys before it left tied and splits it where the values differ. ``head_to_head`` is computed at
its place in the order, among each group still tied then (``meetings`` is asked once, for every
player in such a group). Players left together share the rank (``RANK()``: 1, 2, 2, 4), listed
by name then player id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from scoring.competitions import tie_breaks as tb

#: A meeting of two players at one table: (match id, player id, place) for each player of a
#: match, as ``meetings`` returns them for a set of players.
Seat = tuple[int, int, int]
Meetings = Callable[[set[int]], Iterable[Seat]]


def _sort_key(key: str, row: dict[str, Any]) -> Any:
    """What orders ``row`` on ``key``, smallest first (best first)."""
    played = row["rounds"] > 0
    if key == tb.BEST_ROUND:
        best = row["best_round"]
        if not played:
            return (2, 0)
        return (0, 0) if best is None else (1, best)
    if key == tb.TOTAL_POINTS:
        return (not played, row["total_points"])
    if key == tb.MEAN_POINTS_PER_ROUND:
        return (not played, Fraction(row["total_points"], row["rounds"]) if played else 0)
    if key == tb.ROUNDS_AT_ZERO:
        return -row["zero_rounds"]
    return -row[key]  # placement points, Buchholz, median Buchholz, wins, head-to-head


def buchholz_terms(
    seats: Iterable[tuple[int, int]], points: dict[int, int]
) -> dict[int, list[int]]:
    """Each player's Buchholz terms, one per match they finished with at least one registered
    rival (``seats``: (match id, player id) of every result row): the mean of those rivals'
    placement points (``points``, thousandths), to the thousandth, rounded half up."""
    tables: dict[int, list[int]] = defaultdict(list)
    for match_id, player_id in seats:
        tables[match_id].append(player_id)
    terms: dict[int, list[int]] = defaultdict(list)
    for seated in tables.values():
        for player in seated:
            rivals = [points.get(rival, 0) for rival in seated if rival != player]
            if rivals:
                terms[player].append((2 * sum(rivals) + len(rivals)) // (2 * len(rivals)))
    return dict(terms)


def buchholz(terms: Sequence[int]) -> int:
    """The sum of a player's Buchholz terms (thousandths)."""
    return sum(terms)


def median_buchholz(terms: Sequence[int]) -> int:
    """The sum of a player's Buchholz terms but the highest and the lowest (one of each); 0
    with fewer than three terms."""
    if len(terms) < 3:
        return 0
    return sum(sorted(terms)[1:-1])


def head_to_head_balances(groups: Sequence[Sequence[int]], seats: Iterable[Seat]) -> dict[int, int]:
    """Each player's balance against the rivals of their group: +1 for each place above one at
    a table, -1 for each below (a shared place counts neither)."""
    group_of = {player: number for number, group in enumerate(groups) for player in group}
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for match_id, player_id, place in seats:
        if player_id in group_of:
            tables[match_id].append((player_id, place))
    balance = dict.fromkeys(group_of, 0)
    for seated in tables.values():
        for player, place in seated:
            for rival, rival_place in seated:
                if rival != player and group_of[rival] == group_of[player]:
                    balance[player] += (place < rival_place) - (place > rival_place)
    return balance


def rank(
    rows: list[dict[str, Any]], *, order: Sequence[str], meetings: Meetings
) -> list[dict[str, Any]]:
    """``rows`` (each with ``player_id``, ``name``, ``ranked`` and the fields the keys of
    ``order`` read) best first, each given ``place`` (its rank in its partition), ``rank`` (the
    same, ``None`` for an unranked player), ``tied`` (how many share it) and, when the order
    has it, ``head_to_head``."""
    groups = [
        [row for row in rows if row["ranked"]],
        [row for row in rows if not row["ranked"]],
    ]
    groups = [group for group in groups if group]
    for key in order:
        if key == tb.HEAD_TO_HEAD:
            tied = [[row["player_id"] for row in group] for group in groups if len(group) > 1]
            players = {player for group in tied for player in group}
            balance = head_to_head_balances(tied, meetings(players) if players else [])
            for group in groups:
                for row in group:
                    row["head_to_head"] = balance.get(row["player_id"], 0)
        refined = []
        for group in groups:
            ordered = sorted(group, key=lambda row, key=key: _sort_key(key, row))
            run: list[dict[str, Any]] = []
            for row in ordered:
                if run and _sort_key(key, row) != _sort_key(key, run[-1]):
                    refined.append(run)
                    run = []
                run.append(row)
            refined.append(run)
        groups = refined
    out = []
    position = {True: 0, False: 0}
    for group in groups:
        ranked = bool(group[0]["ranked"])
        for row in sorted(group, key=lambda r: (r["name"] or "", r["player_id"])):
            place = position[ranked] + 1
            out.append(
                {**row, "rank": place if ranked else None, "place": place, "tied": len(group)}
            )
        position[ranked] += len(group)
    return out
