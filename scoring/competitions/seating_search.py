"""What a stage's seating minimises, and the search for it. Pure functions; no Django.

A seating splits the field into tables of given sizes. Its cost is three whole numbers,
compared in order (the first that differs decides), each a sum over the tables:

1. **repeats**: for each pair of players at a table, the square of the number of times they
   have already shared a table (``met``): a pair meeting a third time costs 4, a second time 1;
2. **rank spread**: the square of (worst rank - best rank) at the table, where ``rank`` gives
   each player a whole number (lower is better; equal players share one);
3. **keep-apart**: the number of pairs at the table that are to be kept apart (``apart``).

So keep-apart decides only between seatings that the repeats and the rank spread leave equal,
and the rank spread only between seatings with equally few repeats. docs/scoring.md,
"Seating", says what ``rank`` and ``apart`` are at each stage; the tests recompute the least
cost by brute force on small fields.

A field with at most ``EXACT_LIMIT`` possible seatings is searched exhaustively: the result's
cost is the least there is. A larger one starts from a given seating (the rank order, or stage
1's draw) and swaps players between tables while a swap lowers the cost, then restarts from
``RESTARTS`` random perturbations of the best seating found (drawn from the seed) and keeps
the best: a local optimum, not a proof of the global one.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from itertools import combinations

#: A pair of players (who have met, or who are kept apart).
Pair = frozenset[int]
#: (repeats, rank spread, keep-apart): lower is better, the first that differs decides.
Cost = tuple[int, int, int]
ZERO: Cost = (0, 0, 0)

#: Fields with at most this many ways to seat them are searched exhaustively.
EXACT_LIMIT = 20_000
#: Perturbation restarts of the local search for larger fields.
RESTARTS = 12


class Objective:
    """The cost of a seating: ``rank`` per player, ``met`` counts per pair, ``apart`` pairs.

    The pairs are kept as ordered tuples, each meeting count squared once: a table's cost is
    then a few dictionary lookups (the search costs tens of thousands of tables a stage)."""

    def __init__(
        self,
        *,
        rank: Mapping[int, int],
        met: Mapping[Pair, int],
        apart: Collection[Pair] = frozenset(),
    ) -> None:
        self.rank = rank
        self.weight = {_ordered(pair): count * count for pair, count in met.items() if count}
        self.apart = {_ordered(pair) for pair in apart}

    def table(self, group: Sequence[int]) -> Cost:
        """One table's cost."""
        repeats = apart = 0
        weight, kept = self.weight, self.apart
        count = len(group)
        for i in range(count):
            a = group[i]
            for j in range(i + 1, count):
                b = group[j]
                key = (a, b) if a < b else (b, a)
                repeats += weight.get(key, 0)
                if key in kept:
                    apart += 1
        ranks = [self.rank[p] for p in group]
        spread = max(ranks) - min(ranks) if ranks else 0
        return (repeats, spread * spread, apart)

    def total(self, groups: Sequence[Sequence[int]]) -> Cost:
        """A seating's cost: its tables' added up."""
        return add(*(self.table(group) for group in groups))


def _ordered(pair: Pair) -> tuple[int, int]:
    a, b = sorted(pair)
    return (a, b)


def add(*costs: Cost) -> Cost:
    return (sum(c[0] for c in costs), sum(c[1] for c in costs), sum(c[2] for c in costs))


def seating_cost(
    tables: Sequence[Sequence[int | None]],
    *,
    rank: Mapping[int, int],
    met: Mapping[Pair, int],
    apart: Collection[Pair] = frozenset(),
) -> Cost:
    """The cost of ``tables`` (a bot's seat, ``None``, costs nothing)."""
    objective = Objective(rank=rank, met=met, apart=apart)
    return objective.total([[p for p in table if p is not None] for table in tables])


def seatings_count(sizes: Sequence[int]) -> int:
    """How many ways there are to split ``sum(sizes)`` players into tables of ``sizes``."""
    count = math.factorial(sum(sizes))
    for size in sizes:
        count //= math.factorial(size)
    for same in Counter(sizes).values():
        count //= math.factorial(same)
    return count


def split(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """``players`` cut into consecutive tables of ``sizes``."""
    groups, start = [], 0
    for size in sizes:
        groups.append(list(players[start : start + size]))
        start += size
    return groups


def best_seating(
    start: list[list[int]], *, objective: Objective, rng: random.Random
) -> list[list[int]]:
    """The seating of least cost with the sizes of ``start``: every seating tried when there
    are at most ``EXACT_LIMIT``, else the local search from ``start``."""
    sizes = [len(group) for group in start]
    if seatings_count(sizes) <= EXACT_LIMIT:
        return exact([p for group in start for p in group], sizes, objective=objective)
    return search(start, objective=objective, rng=rng)


def exact(players: list[int], sizes: list[int], *, objective: Objective) -> list[list[int]]:
    """The best seating of all: the first unseated player's table, each size and each choice
    of companions in turn (every seating once, in the order of ``players``: the first of the
    cheapest found is kept), pruned once it cannot beat the best so far."""
    best_cost: list[Cost | None] = [None]
    best_groups: list[list[list[int]]] = [[]]

    def place(left: list[int], sizes_left: list[int], groups: list[list[int]], cost: Cost) -> None:
        if best_cost[0] is not None and cost >= best_cost[0]:
            return
        if not left:
            best_cost[0], best_groups[0] = cost, [list(g) for g in groups]
            return
        first, rest = left[0], left[1:]
        for size in sorted(set(sizes_left)):
            remaining = list(sizes_left)
            remaining.remove(size)
            for companions in combinations(rest, size - 1):
                group = [first, *companions]
                chosen = set(companions)
                place(
                    [p for p in rest if p not in chosen],
                    remaining,
                    [*groups, group],
                    add(cost, objective.table(group)),
                )

    place(players, list(sizes), [], ZERO)
    return best_groups[0]


def search(groups: list[list[int]], *, objective: Objective, rng: random.Random) -> list[list[int]]:
    """Swaps from ``groups``, then from perturbations of the best: the best found."""
    best = improve(groups, objective=objective)
    best_cost = objective.total(best)
    for _restart in range(RESTARTS):
        if best_cost[0] == 0 and best_cost[2] == 0:
            break  # no repeat, nobody kept apart together: the swaps already fit best
        trial = [list(g) for g in best]
        for _swap in range(max(2, len(trial))):
            i, j = rng.sample(range(len(trial)), 2)
            a, b = rng.randrange(len(trial[i])), rng.randrange(len(trial[j]))
            trial[i][a], trial[j][b] = trial[j][b], trial[i][a]
        trial = improve(trial, objective=objective)
        cost = objective.total(trial)
        if cost < best_cost:
            best, best_cost = trial, cost
    return best


def improve(groups: list[list[int]], *, objective: Objective) -> list[list[int]]:
    """Swap players between two tables while a swap lowers the cost.

    Two tables without a repeat or a kept-apart pair whose ranks do not overlap (the worst of
    one no worse than the best of the other) are passed over: no swap between them lowers the
    cost (repeats and keep-apart are at 0 already, and swapping across two such rank ranges
    never lowers the sum of the squared spreads), so the swaps tried and taken are the same as
    trying them all, in far fewer table costs on a large field."""
    groups = [list(g) for g in groups]
    costs = [objective.table(g) for g in groups]
    rank = objective.rank
    spans = [_span(g, rank) for g in groups]
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(groups)), 2):
            if _apart_ranges(costs[i], costs[j], spans[i], spans[j]):
                continue
            before = add(costs[i], costs[j])
            for a, b in [(a, b) for a in range(len(groups[i])) for b in range(len(groups[j]))]:
                gi, gj = list(groups[i]), list(groups[j])
                gi[a], gj[b] = gj[b], gi[a]
                ci, cj = objective.table(gi), objective.table(gj)
                if add(ci, cj) < before:
                    groups[i], groups[j], costs[i], costs[j] = gi, gj, ci, cj
                    spans[i], spans[j] = _span(gi, rank), _span(gj, rank)
                    before = add(ci, cj)
                    improved = True
    return groups


def _span(group: Sequence[int], rank: Mapping[int, int]) -> tuple[int, int]:
    """The best and the worst rank at a table."""
    ranks = [rank[p] for p in group]
    return (min(ranks), max(ranks)) if ranks else (0, 0)


def _apart_ranges(
    cost_i: Cost, cost_j: Cost, span_i: tuple[int, int], span_j: tuple[int, int]
) -> bool:
    """No swap between these two tables can lower their cost (``improve``)."""
    if cost_i[0] or cost_i[2] or cost_j[0] or cost_j[2]:
        return False
    return span_i[1] <= span_j[0] or span_j[1] <= span_i[0]
