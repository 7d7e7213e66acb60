"""A round robin at tables of 3 and 4: a schedule that keeps repeated meetings to the fewest
(docs/scoring.md, "Round robin at tables of 3 and 4"). Pure functions over player ids; no
Django.

Where a resolvable design meets every pair once over the stages it takes everyone to meet
everyone (``DESIGNS``: Kirkman's 15 at tables of 3, the affine plane of order 4 at 16 at
tables of 4), those are the first stages, the players drawn from the seed; the stages after
them are searched as below, from the design's meetings.

Each stage seats the whole field at the tables ``seating.table_sizes`` gives (as a Swiss: as
even as possible, bigger tables first, no byes at tables of 3 and 4 without bots). Otherwise
the schedule is built a stage at a time, each stage from the meetings of the stages before it, so
stage ``k`` is the same whatever the number of stages: the stage's seating of least cost, a
pair at a table costing nothing if it has not met, and ``REPEAT + m ** 3`` if it has met ``m``
times (first the fewest new repeats, then repeats spread over the pairs that have met least).
The search starts ``RESTARTS`` times from the field shuffled with the stage's own random
stream and swaps two players of different tables while that lowers the cost; the cheapest
result (the first found, on a tie) is the stage.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from scoring.competitions.seating import table_sizes

#: What a pair that has met before costs at a table, on top of its meetings cubed.
REPEAT = 10_000
#: How many shuffled starts each stage's search takes.
RESTARTS = 24

Group = list[int]
Meetings = Counter[frozenset[int]]


def _pair_cost(met: Meetings, a: int, b: int) -> int:
    count = met[frozenset((a, b))]
    return REPEAT + count**3 if count else 0


def _table_cost(met: Meetings, table: Sequence[int]) -> int:
    return sum(_pair_cost(met, a, b) for a, b in combinations(table, 2))


def _improve(tables: list[Group], met: Meetings) -> int:
    """Swap players between tables while a swap lowers the cost; the cost reached."""
    costs = [_table_cost(met, table) for table in tables]
    improved = True
    while improved:
        improved = False
        for t, u in combinations(range(len(tables)), 2):
            for i in range(len(tables[t])):
                for j in range(len(tables[u])):
                    a, b = tables[t][i], tables[u][j]
                    new_t = [b if p == a else p for p in tables[t]]
                    new_u = [a if p == b else p for p in tables[u]]
                    cost_t, cost_u = _table_cost(met, new_t), _table_cost(met, new_u)
                    if cost_t + cost_u < costs[t] + costs[u]:
                        tables[t], tables[u] = new_t, new_u
                        costs[t], costs[u] = cost_t, cost_u
                        improved = True
    return sum(costs)


def stage_tables(
    order: Sequence[int], table_size: int, met: Meetings, rng: random.Random
) -> list[Group]:
    """One stage's tables for the field ``order`` given the meetings so far (the module says
    how)."""
    sizes = table_sizes(players=len(order), table_size=table_size)
    best: tuple[int, list[Group]] = (-1, [])
    for _start in range(RESTARTS):
        field = list(order)
        rng.shuffle(field)
        tables, at = [], 0
        for size in sizes:
            tables.append(field[at : at + size])
            at += size
        cost = _improve(tables, met)
        if best[0] < 0 or cost < best[0]:
            best = (cost, tables)
        if cost == 0:
            break
    return best[1]


def meetings(stages: Sequence[Sequence[Sequence[int]]]) -> Meetings:
    """How often each pair met over ``stages`` (each a list of tables)."""
    met: Meetings = Counter()
    for tables in stages:
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


#: Kirkman's fifteen schoolgirls (1850): 15 at tables of 3 over 7 stages, every pair once.
KIRKMAN_15 = (
    "ABC DEF GHI JKL MNO|ADH BEK CIO FLN GJM|AEM BHN CGK DIL FJO|AFI BLO CHJ DKM EGN|"
    "AGL BDJ CFM EHO IKN|AJN BIM CEL DGO FHK|AKO BFG CDN EIJ HLM"
)


def kirkman_15() -> list[list[Group]]:
    """Kirkman's schoolgirls as stages of tables over the indices 0 to 14."""
    return [
        [[ord(letter) - ord("A") for letter in table] for table in day.split()]
        for day in KIRKMAN_15.split("|")
    ]


def affine_plane_4() -> list[list[Group]]:
    """The affine plane of order 4 as stages: 16 points (x, y) of GF(4)², index 4x + y; a stage
    per direction, its tables the 4 parallel lines (y = mx + b for each slope m, and x = c), so
    every pair of points meets on one line, once, over the 5 stages."""

    def times(a: int, b: int) -> int:  # GF(4) = {0, 1, w, w + 1} as 0..3; w² = w + 1
        if not a or not b:
            return 0
        log = {1: 0, 2: 1, 3: 2}
        return [1, 2, 3][(log[a] + log[b]) % 3]

    stages = [[[4 * x + (times(m, x) ^ b) for x in range(4)] for b in range(4)] for m in range(4)]
    stages.append([[4 * c + y for y in range(4)] for c in range(4)])
    return stages


#: Schedules with no repeated meeting over the stages for everyone to meet everyone, by
#: (players, table size): resolvable designs a stage-at-a-time search does not find.
DESIGNS = {(15, 3): kirkman_15, (16, 4): affine_plane_4}


def schedule(order: Sequence[int], table_size: int, stages: int, seed: str) -> list[list[Group]]:
    """The first ``stages`` stages of the schedule over ``order`` (the module says how)."""
    if len(order) < 2:
        return [[list(order)] if order else [] for _stage in range(stages)]
    met: Meetings = Counter()
    result: list[list[Group]] = []
    design = DESIGNS.get((len(order), table_size))
    if design is not None:
        field = list(order)
        random.Random(f"{seed}:round_robin:design").shuffle(field)
        for tables in design()[:stages]:
            seated = [[field[index] for index in table] for table in tables]
            met.update(frozenset(pair) for table in seated for pair in combinations(table, 2))
            result.append(seated)
    for number in range(len(result) + 1, stages + 1):
        rng = random.Random(f"{seed}:round_robin:{number}")
        tables = stage_tables(order, table_size, met, rng)
        met.update(frozenset(pair) for table in tables for pair in combinations(table, 2))
        result.append(tables)
    return result


def repeat_figures(stages: Sequence[Sequence[Sequence[int]]]) -> tuple[int, int, int]:
    """The objective: repeated meetings (each meeting of a pair after its first), the pairs
    that met more than once, and the most any pair met."""
    met = meetings(stages)
    return (
        sum(count - 1 for count in met.values()),
        sum(1 for count in met.values() if count > 1),
        max(met.values(), default=0),
    )


def lower_bound(players: int, table_size: int, stages: int) -> int:
    """The fewest repeated meetings any schedule can have (counting argument): each stage's
    tables make ``sum(C(size, 2))`` meetings, and only ``C(players, 2)`` pairs can meet for the
    first time."""
    per_stage = sum(
        size * (size - 1) // 2 for size in table_sizes(players=players, table_size=table_size)
    )
    return max(0, per_stage * stages - players * (players - 1) // 2)


def seat_stage(
    tables: Sequence[Sequence[int]], present: set[int]
) -> tuple[list[list[int | None]], list[int]]:
    """A stage's tables for the players ``present`` (in the stage's field): an absent player's
    seat is left out, a table left with one player gives that player a bye, a table left with
    nobody is no table."""
    seated: list[list[int | None]] = []
    byes: list[int] = []
    for table in tables:
        here: list[int | None] = [p for p in table if p in present]
        if len(here) >= 2:
            seated.append(here)
        elif here:
            byes.append(here[0])  # type: ignore[arg-type]
    return seated, byes
