"""Seating a stage (pure functions): table sizes, random stage 1, Swiss with fewest repeats."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from scoring.competitions.seating import (
    EXACT_LIMIT,
    repeat_weight,
    repeats,
    seat_at_random,
    seat_swiss,
    seatings_count,
    table_sizes,
)
from scoring.competitions.seating_search import Objective, add, improve, split


@pytest.mark.parametrize(
    ("players", "table_size", "sizes"),
    [
        (12, 4, [4, 4, 4]),
        (12, 5, [4, 4, 4]),
        (10, 4, [4, 3, 3]),
        (5, 4, [3, 2]),
        (3, 4, [3]),
        (13, 4, [4, 3, 3, 3]),
    ],
)
def test_tables_are_as_even_as_possible(players: int, table_size: int, sizes: list[int]) -> None:
    assert table_sizes(players=players, table_size=table_size) == sizes


def test_stage_one_is_random_from_the_seed_and_seats_everyone_once() -> None:
    players = list(range(1, 13))

    first = seat_at_random(
        players=players, table_size=4, fill_with_bots=False, rng=random.Random("seed:1")
    )
    again = seat_at_random(
        players=list(reversed(players)),
        table_size=4,
        fill_with_bots=False,
        rng=random.Random("seed:1"),
    )
    other = seat_at_random(
        players=players, table_size=4, fill_with_bots=False, rng=random.Random("other:1")
    )

    assert first == again  # the stored seed decides, not the order the players came in
    assert first != other
    assert sorted(p for table in first for p in table) == players
    assert [len(t) for t in first] == [4, 4, 4]


def test_bots_fill_short_tables_when_allowed() -> None:
    tables = seat_at_random(
        players=list(range(10)), table_size=4, fill_with_bots=True, rng=random.Random(1)
    )

    assert [len(t) for t in tables] == [4, 4, 4]
    assert sorted(t.count(None) for t in tables) == [0, 1, 1]


def test_swiss_seats_similar_ranks_together_when_nobody_has_met() -> None:
    ranked = list(range(100, 112))  # best first

    tables = seat_swiss(
        ranked=ranked, table_size=4, fill_with_bots=False, met={}, rng=random.Random(0)
    )

    assert [sorted(t) for t in tables] == [ranked[0:4], ranked[4:8], ranked[8:12]]


def met_in(*groups: list[int]) -> dict[frozenset[int], int]:
    return {frozenset(pair): 1 for group in groups for pair in combinations(group, 2)}


def test_swiss_avoids_repeat_pairings_when_it_can() -> None:
    # given: stage 1 sat 16 players in four tables, and the standings kept those groups
    ranked = list(range(1, 17))
    met = met_in(*(ranked[i : i + 4] for i in range(0, 16, 4)))

    # when
    tables = seat_swiss(
        ranked=ranked, table_size=4, fill_with_bots=False, met=met, rng=random.Random(0)
    )

    # then: nobody meets anyone again (one from each earlier table), every player seated once
    assert repeats(tables, met) == 0
    assert sorted(p for t in tables for p in t) == ranked  # type: ignore[type-var]


def test_swiss_repeats_only_what_it_must() -> None:
    # given: 12 players came from three tables of 4: a new table of 4 has two from one of them
    ranked = list(range(1, 13))
    met = met_in(ranked[0:4], ranked[4:8], ranked[8:12])

    tables = seat_swiss(
        ranked=ranked, table_size=4, fill_with_bots=False, met=met, rng=random.Random(0)
    )

    # then: one repeated pair per table, the fewest possible
    assert repeats(tables, met) == 3


def test_swiss_seats_a_pair_a_third_time_only_when_it_must() -> None:
    # given: (1 2) met twice, every other pair but (3 4) once: each seating repeats two
    # meetings, and (1 2) (3 4) has the nearest ranks
    met = {frozenset(p): 1 for p in ((1, 3), (2, 4), (1, 4), (2, 3))}
    met[frozenset((1, 2))] = 2

    tables = seat_swiss(
        ranked=[1, 2, 3, 4], table_size=2, fill_with_bots=False, met=met, rng=random.Random(0)
    )

    # then: not a third meeting of 1 and 2, but two second meetings, nearest ranks first
    assert sorted(sorted(t) for t in tables) == [[1, 3], [2, 4]]  # type: ignore[type-var]


def test_swiss_keeps_repeats_to_the_fewest_possible() -> None:
    # given: 4 players at tables of 2 who have met in pairs (1 2) (3 4) twice and (1 3) (2 4) once
    met = {
        frozenset((1, 2)): 2,
        frozenset((3, 4)): 2,
        frozenset((1, 3)): 1,
        frozenset((2, 4)): 1,
    }

    tables = seat_swiss(
        ranked=[1, 2, 3, 4], table_size=2, fill_with_bots=False, met=met, rng=random.Random(0)
    )

    # then: (1 4) (2 3) is the only pairing with no repeat
    assert sorted(sorted(t) for t in tables) == [[1, 4], [2, 3]]  # type: ignore[type-var]


def test_swiss_prefers_the_nearest_ranks_among_equally_fresh_tables() -> None:
    # given: 1 and 2 have met; 3 and 4 have not met anyone
    met = {frozenset((1, 2)): 1}

    tables = seat_swiss(
        ranked=[1, 2, 3, 4], table_size=2, fill_with_bots=False, met=met, rng=random.Random(0)
    )

    # then: (1 3) (2 4) has the smallest spread of ranks without a repeat
    assert sorted(sorted(t) for t in tables) == [[1, 3], [2, 4]]  # type: ignore[type-var]


def test_swiss_with_bots_tops_tables_up() -> None:
    tables = seat_swiss(
        ranked=list(range(1, 11)),
        table_size=4,
        fill_with_bots=True,
        met={},
        rng=random.Random(0),
    )

    assert [len(t) for t in tables] == [4, 4, 4]
    assert sum(t.count(None) for t in tables) == 2


def brute_force_fewest(players: list[int], size: int, met: dict[frozenset[int], int]) -> int:
    """The least repeat weight over every ordering of the players cut into tables: the oracle."""
    from itertools import permutations

    best = None
    for order in permutations(players):
        tables = [order[i : i + size] for i in range(0, len(order), size)]
        cost = repeat_weight(tables, met)
        best = cost if best is None else min(best, cost)
    return best  # type: ignore[return-value]


@pytest.mark.parametrize("seed", range(3))
def test_swiss_finds_the_true_fewest_repeats_of_a_small_field(seed: int) -> None:
    # given: 8 players who met at random in two earlier stages of two tables of four
    rng = random.Random(seed)
    players = list(range(1, 9))
    met: dict[frozenset[int], int] = {}
    for _ in range(2):
        rng.shuffle(players)
        for group in (players[:4], players[4:]):
            for pair in combinations(group, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1

    tables = seat_swiss(
        ranked=sorted(players), table_size=4, fill_with_bots=False, met=met, rng=rng
    )

    assert repeat_weight(tables, met) == brute_force_fewest(sorted(players), 4, met)


def test_a_large_field_is_searched_by_swaps_and_meets_nobody_twice() -> None:
    # given: 40 players after two random stages at tables of four (too many to try every way)
    rng = random.Random(11)
    players = list(range(40))
    met: dict[frozenset[int], int] = {}
    for _ in range(2):
        rng.shuffle(players)
        for start in range(0, 40, 4):
            for pair in combinations(players[start : start + 4], 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    assert seatings_count([4] * 10) > EXACT_LIMIT

    tables = seat_swiss(
        ranked=list(range(40)), table_size=4, fill_with_bots=False, met=met, rng=rng
    )

    assert repeats(tables, met) == 0
    assert sorted(p for t in tables for p in t) == list(range(40))  # type: ignore[type-var]


def test_the_number_of_seatings() -> None:
    assert seatings_count([4, 4, 4]) == 5775
    assert seatings_count([4, 3, 3]) == 2100
    assert seatings_count([2, 2]) == 3


def _improve_trying_every_swap(groups: list[list[int]], objective: Objective) -> list[list[int]]:
    """``seating_search.improve`` as it was, trying every swap between every two tables."""
    groups = [list(g) for g in groups]
    costs = [objective.table(g) for g in groups]
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(groups)), 2):
            before = add(costs[i], costs[j])
            for a in range(len(groups[i])):
                for b in range(len(groups[j])):
                    gi, gj = list(groups[i]), list(groups[j])
                    gi[a], gj[b] = gj[b], gi[a]
                    ci, cj = objective.table(gi), objective.table(gj)
                    if add(ci, cj) < before:
                        groups[i], groups[j], costs[i], costs[j] = gi, gj, ci, cj
                        before = add(ci, cj)
                        improved = True
    return groups


@pytest.mark.parametrize("seed", range(25))
def test_the_search_passing_over_tables_apart_in_rank_takes_the_swaps_of_trying_them_all(
    seed: int,
) -> None:
    """``improve`` passes over two tables with no repeat nor kept-apart pair whose ranks do
    not overlap: it must take exactly the swaps trying every one takes (same seating)."""
    rng = random.Random(seed)
    players = list(range(rng.choice([12, 20, 28, 40])))
    points = {p: rng.randint(0, rng.choice([2, 6, 12])) for p in players}
    ranked = sorted(players, key=lambda p: (-points[p], p))
    rank = {p: sorted(points.values(), reverse=True).index(points[p]) for p in players}
    met: dict[frozenset[int], int] = {}
    for _stage in range(rng.randint(0, 3)):
        shuffled = rng.sample(players, len(players))
        for start in range(0, len(shuffled), 4):
            for pair in combinations(shuffled[start : start + 4], 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    apart = {frozenset(rng.sample(players, 2)) for _ in range(rng.randint(0, 4))}
    objective = Objective(rank=rank, met=met, apart=apart)
    sizes = [4] * (len(players) // 4)
    for start in (split(ranked, sizes), split(rng.sample(players, len(players)), sizes)):
        assert improve(start, objective=objective) == _improve_trying_every_swap(start, objective)
