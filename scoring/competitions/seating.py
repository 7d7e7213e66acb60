"""Seating a stage: who plays at which table. Pure functions over player ids; no Django.

A stage has ``ceil(players / table_size)`` tables and spreads the players over them as evenly as
possible (table sizes differ by at most one, bigger tables first). When bots may fill tables,
every table is then topped up to ``table_size`` with bots (``None`` in a table's list); when they
may not, the smaller tables play short-handed. 10 players at tables of 4: 4, 3 and 3 players,
and with bots one bot at each of the two short tables; 5 at tables of 4: 3 and 2 players
without bots.

No table ever seats a single player against nobody: when the players left over would sit
alone (an odd number at tables of 2 without bots is the only such field), ``byes_needed`` says
how many sit the stage out with a bye, and ``bye_players`` says who. At stage 1 it is drawn from
the seed; later, the lowest-ranked player among those with the fewest byes so far (one bye per
player over the event while the field allows it). ``field_warnings`` tells an organiser what a
number of players implies: byes, or tables short of ``table_size``.

Stage 1 seats the players at random: ``seat_at_random`` shuffles them with the competition's
stored seed. Later stages go "Swiss": ``seat_swiss`` takes the players best first (by the
standings) and looks for the seating with the fewest repeat pairings (two players who have
already met at a table), weighted by the square of their earlier meetings (``repeat_weight``: a
third meeting costs more than two second ones), and, among those, the smallest sum over
tables of the squared spread of ranks (best rank to worst rank at a table), so that players of
similar rank meet. A field with at most ``EXACT_LIMIT`` possible seatings (12 players at tables
of four have 5,775) is searched exhaustively, so the result is the true best. A larger field
starts from the rank order and swaps players between tables while a swap improves the seating,
then restarts from random perturbations of the best seating (drawn from the seed) and keeps the
best: a local optimum, not a proof of the global one.

The order of seats at a table (C-SEATS: who plays first) is shuffled from the seed too.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from django.utils.translation import gettext as _

#: A pair of players who have met: the key of ``met`` counts.
Pair = frozenset[int]
#: One table: player ids in seat order, ``None`` for a seat a bot takes.
Table = list[int | None]


def table_sizes(*, players: int, table_size: int) -> list[int]:
    """How many players sit at each table: as even as possible, bigger tables first."""
    if players < 1 or table_size < 2:
        raise ValueError("Seating needs at least one player and tables of at least two.")
    tables = math.ceil(players / table_size)
    base, extra = divmod(players, tables)
    return [base + 1 if index < extra else base for index in range(tables)]


def byes_needed(*, players: int, table_size: int, fill_with_bots: bool) -> int:
    """How many of ``players`` sit a stage out so that no table seats fewer than two players:
    none with bots (they fill any table), otherwise the fewest that leave every table two or more
    (one for an odd number at tables of 2; none for any other field)."""
    if fill_with_bots:
        return 0
    byes = 0
    while (
        players - byes >= 2 and min(table_sizes(players=players - byes, table_size=table_size)) < 2
    ):
        byes += 1
    return byes


def bye_players(
    *, ranked: Sequence[int], count: int, byes_had: Mapping[int, int] | None = None
) -> list[int]:
    """Who sits out with a bye: from the bottom of ``ranked`` (best first), the players with the
    fewest byes so far (``byes_had``), so nobody has a second bye while another has none."""
    had = byes_had or {}
    position = {player: index for index, player in enumerate(ranked)}
    order = sorted(ranked, key=lambda player: (had.get(player, 0), -position[player]))
    return order[:count]


def field_warnings(*, players: int, table_size: int, fill_with_bots: bool) -> list[str]:
    """What seating ``players`` at tables of ``table_size`` implies that an organiser should
    know: byes, or tables short of ``table_size``. Before two players have registered, what the
    table size may imply; nothing when bots fill the tables."""
    if fill_with_bots:
        return []
    if players < 2:
        if table_size == 2:
            return [
                _(
                    "Tables of 2 without bots: with an odd number of players, one "
                    "player has a bye each stage (the placement points of a win, "
                    "docs/scoring.md)."
                )
            ]
        return [
            _(
                "Tables of %(table_size)s without bots: unless the number of "
                "players is a multiple of %(table_size)s, some tables seat "
                "fewer players (down to 2)."
            )
            % {"table_size": table_size}
        ]
    warnings = []
    byes = byes_needed(players=players, table_size=table_size, fill_with_bots=False)
    sizes = table_sizes(players=players - byes, table_size=table_size) if players - byes else []
    if byes:
        warnings.append(
            (
                _(
                    "%(players)s players at tables of %(table_size)s: one player sits out "
                    "each stage with a bye (the placement points of a win, docs/scoring.md)."
                )
                if byes == 1
                else _(
                    "%(players)s players at tables of %(table_size)s: %(byes)s players sit out "
                    "each stage with a bye (the placement points of a win, docs/scoring.md)."
                )
            )
            % {"players": players, "table_size": table_size, "byes": byes}
        )
    if any(size < table_size for size in sizes):
        listed = ", ".join(str(size) for size in sizes)
        warnings.append(
            _(
                "%(players)s players at tables of %(table_size)s: the tables "
                "seat %(listed)s players."
            )
            % {"players": players, "table_size": table_size, "listed": listed}
        )
    return warnings


def repeats(tables: Sequence[Sequence[int | None]], met: Mapping[Pair, int]) -> int:
    """How many earlier meetings the tables repeat (each pair counts its earlier meetings)."""
    return sum(_table_repeats([p for p in table if p is not None], met) for table in tables)


def _table_repeats(players: Sequence[int], met: Mapping[Pair, int]) -> int:
    return sum(met.get(frozenset(pair), 0) for pair in combinations(players, 2))


def repeat_weight(tables: Sequence[Sequence[int | None]], met: Mapping[Pair, int]) -> int:
    """What Swiss seating minimises first: each pair seated together again weighs the square of
    its earlier meetings (1 after one, 4 after two), so a pair meets a third time only when
    every other seating would repeat more."""
    return sum(_table_weight([p for p in table if p is not None], met) for table in tables)


def _table_weight(players: Sequence[int], met: Mapping[Pair, int]) -> int:
    return sum(met.get(frozenset(pair), 0) ** 2 for pair in combinations(players, 2))


def _finish(
    groups: list[list[int]], *, table_size: int, fill_with_bots: bool, rng: random.Random
) -> list[Table]:
    """Add the bots' seats and shuffle each table's seat order."""
    tables: list[Table] = []
    for group in groups:
        table: Table = list(group)
        if fill_with_bots:
            table += [None] * (table_size - len(group))
        rng.shuffle(table)
        tables.append(table)
    return tables


def _split(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    groups, start = [], 0
    for size in sizes:
        groups.append(list(players[start : start + size]))
        start += size
    return groups


def seat_at_random(
    *, players: Sequence[int], table_size: int, fill_with_bots: bool, rng: random.Random
) -> list[Table]:
    """Stage 1: the players shuffled into tables."""
    order = sorted(players)  # the same seed seats the same field the same way
    rng.shuffle(order)
    groups = _split(order, table_sizes(players=len(order), table_size=table_size))
    return _finish(groups, table_size=table_size, fill_with_bots=fill_with_bots, rng=rng)


def seat_swiss(
    *,
    ranked: Sequence[int],
    table_size: int,
    fill_with_bots: bool,
    met: Mapping[Pair, int],
    rng: random.Random,
) -> list[Table]:
    """Later stages: players of similar rank together, with the fewest repeat pairings.

    ``ranked`` lists the players best first; ``met`` counts how often each pair has already
    shared a table. A field small enough to seat every possible way (``EXACT_LIMIT`` seatings:
    12 players at tables of four have 5,775) is searched exhaustively; a larger one by swaps
    between tables from the rank order, then from ``RESTARTS`` random perturbations of the best
    seating found (drawn from ``rng``), keeping the best.
    """
    rank = {player: index for index, player in enumerate(ranked)}
    sizes = table_sizes(players=len(ranked), table_size=table_size)
    if seatings_count(sizes) <= EXACT_LIMIT:
        groups = _exact(list(ranked), sizes, rank=rank, met=met)
    else:
        groups = _search(_split(list(ranked), sizes), rank=rank, met=met, rng=rng)
    groups.sort(key=lambda group: min(rank[p] for p in group))  # table 1: the best ranks
    return _finish(groups, table_size=table_size, fill_with_bots=fill_with_bots, rng=rng)


#: Fields with at most this many ways to seat them are searched exhaustively.
EXACT_LIMIT = 20_000
#: Perturbation restarts of the local search for larger fields.
RESTARTS = 12

Cost = tuple[int, int]


def seatings_count(sizes: Sequence[int]) -> int:
    """How many ways there are to split ``sum(sizes)`` players into tables of ``sizes``."""
    count = math.factorial(sum(sizes))
    for size in sizes:
        count //= math.factorial(size)
    for same in Counter(sizes).values():
        count //= math.factorial(same)
    return count


def _cost(group: Sequence[int], rank: Mapping[int, int], met: Mapping[Pair, int]) -> Cost:
    """A table's (repeat weight, squared spread of ranks): lower is better, repeats first.

    Squaring the spread makes two tables of near ranks beat one tight and one wide table.
    """
    ranks = [rank[p] for p in group]
    spread = max(ranks) - min(ranks) if ranks else 0
    return (_table_weight(group, met), spread * spread)


def _total(
    groups: Sequence[Sequence[int]], rank: Mapping[int, int], met: Mapping[Pair, int]
) -> Cost:
    costs = [_cost(g, rank, met) for g in groups]
    return (sum(c[0] for c in costs), sum(c[1] for c in costs))


def _exact(
    players: list[int], sizes: list[int], *, rank: Mapping[int, int], met: Mapping[Pair, int]
) -> list[list[int]]:
    """The best seating of all: the first unseated player's table, each size and each choice
    of companions in turn (every seating once), pruned once it cannot beat the best so far."""
    best: list[Any] = [None, None]  # cost, groups

    def place(left: list[int], sizes_left: list[int], groups: list[list[int]], cost: Cost) -> None:
        if best[0] is not None and cost >= best[0]:
            return
        if not left:
            best[0], best[1] = cost, [list(g) for g in groups]
            return
        first, rest = left[0], left[1:]
        for size in sorted(set(sizes_left)):
            remaining = list(sizes_left)
            remaining.remove(size)
            for companions in combinations(rest, size - 1):
                group = [first, *companions]
                table = _cost(group, rank, met)
                chosen = set(companions)
                place(
                    [p for p in rest if p not in chosen],
                    remaining,
                    [*groups, group],
                    (cost[0] + table[0], cost[1] + table[1]),
                )

    place(players, list(sizes), [], (0, 0))
    return best[1]


def _search(
    groups: list[list[int]],
    *,
    rank: Mapping[int, int],
    met: Mapping[Pair, int],
    rng: random.Random,
) -> list[list[int]]:
    """Swaps from the rank order, then from perturbations of the best: the best found."""
    best = _improve(groups, rank=rank, met=met)
    best_cost = _total(best, rank, met)
    for _restart in range(RESTARTS):
        if best_cost[0] == 0:
            break  # no repeat left: the rank order's swaps already fit best
        trial = [list(g) for g in best]
        for _swap in range(max(2, len(trial))):
            i, j = rng.sample(range(len(trial)), 2)
            a, b = rng.randrange(len(trial[i])), rng.randrange(len(trial[j]))
            trial[i][a], trial[j][b] = trial[j][b], trial[i][a]
        trial = _improve(trial, rank=rank, met=met)
        cost = _total(trial, rank, met)
        if cost < best_cost:
            best, best_cost = trial, cost
    return best


def _improve(
    groups: list[list[int]], *, rank: Mapping[int, int], met: Mapping[Pair, int]
) -> list[list[int]]:
    """Swap players between two tables while a swap lowers (repeats, rank spread)."""
    groups = [list(g) for g in groups]
    costs = [_cost(g, rank, met) for g in groups]
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(groups)), 2):
            before = (costs[i][0] + costs[j][0], costs[i][1] + costs[j][1])
            for a, b in [(a, b) for a in range(len(groups[i])) for b in range(len(groups[j]))]:
                gi, gj = list(groups[i]), list(groups[j])
                gi[a], gj[b] = gj[b], gi[a]
                ci, cj = _cost(gi, rank, met), _cost(gj, rank, met)
                if (ci[0] + cj[0], ci[1] + cj[1]) < before:
                    groups[i], groups[j], costs[i], costs[j] = gi, gj, ci, cj
                    before = (ci[0] + cj[0], ci[1] + cj[1])
                    improved = True
    return groups
