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

Stage 1 seats the players at random (``seat_at_random``: shuffled with the competition's
stored seed), or, seeded by rating or in the organiser's order, as a Swiss stage with the seed
order for ranks. Later stages go "Swiss": ``seat_swiss`` takes the players best first and looks
for the seating of least cost (``seating_search``: the fewest repeat pairings, weighted by the
square of earlier meetings; then the least squared spread of ranks at the tables, so that
players of similar rank meet; then the fewest pairs kept apart seated together). Given
``apart`` pairs, the random draw of stage 1 is changed only as far as it must to keep them
apart.

The order of seats at a table (C-SEATS: who plays first) is shuffled from the seed too.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping, Sequence
from itertools import combinations

from django.utils.translation import gettext as _

from scoring.competitions.seating_search import (  # noqa: F401  (EXACT_LIMIT, seatings_count)
    EXACT_LIMIT,
    Objective,
    Pair,
    best_seating,
    seatings_count,
    split,
)

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


def seat_at_random(
    *,
    players: Sequence[int],
    table_size: int,
    fill_with_bots: bool,
    rng: random.Random,
    apart: Collection[Pair] = frozenset(),
) -> list[Table]:
    """Stage 1: the players shuffled into tables; when that seats a pair of ``apart``
    together, the seating with the fewest such pairs, searched from the draw (every player
    ranks alike, and nobody has met: keep-apart alone decides)."""
    order = sorted(players)  # the same seed seats the same field the same way
    rng.shuffle(order)
    groups = split(order, table_sizes(players=len(order), table_size=table_size))
    objective = Objective(rank=dict.fromkeys(order, 0), met={}, apart=apart)
    if objective.total(groups)[2]:
        groups = best_seating(groups, objective=objective, rng=rng)
    return _finish(groups, table_size=table_size, fill_with_bots=fill_with_bots, rng=rng)


def seat_swiss(
    *,
    ranked: Sequence[int],
    table_size: int,
    fill_with_bots: bool,
    met: Mapping[Pair, int],
    rng: random.Random,
    rank: Mapping[int, int] | None = None,
    apart: Collection[Pair] = frozenset(),
) -> list[Table]:
    """Later stages (and stage 1 seeded): players of similar rank together, with the fewest
    repeat pairings, then the fewest pairs of ``apart`` together (``seating_search``).

    ``ranked`` lists the players best first; ``rank`` gives each a rank (equal players share
    one; by default the position in ``ranked``); ``met`` counts how often each pair has
    already shared a table. A field small enough to seat every possible way (``EXACT_LIMIT``
    seatings: 12 players at tables of four have 5,775) is searched exhaustively; a larger one
    by swaps between tables from the rank order, then from random perturbations of the best
    seating found (drawn from ``rng``), keeping the best.
    """
    ranks = rank if rank is not None else {player: i for i, player in enumerate(ranked)}
    position = {player: index for index, player in enumerate(ranked)}
    sizes = table_sizes(players=len(ranked), table_size=table_size)
    objective = Objective(rank=ranks, met=met, apart=apart)
    groups = best_seating(split(list(ranked), sizes), objective=objective, rng=rng)
    # table 1: the best ranks (then the best placed in ``ranked``)
    groups.sort(key=lambda group: min((ranks[p], position[p]) for p in group))
    return _finish(groups, table_size=table_size, fill_with_bots=fill_with_bots, rng=rng)
