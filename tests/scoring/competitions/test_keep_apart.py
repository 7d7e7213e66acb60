"""The seating objective of docs/scoring.md ("Seating": repeats, rank spread, keep-apart),
recomputed by brute force on small fields: every way to seat the field is tried, each costed
as the document defines it (by this module's own code, not the seating's), and the seating the
server chooses must cost the least there is."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest

from scoring.competitions.seating import seat_at_random, seat_swiss, table_sizes

Pair = frozenset[int]
Cost = tuple[int, int, int]


def documented_cost(
    tables: Sequence[Sequence[int | None]],
    rank: dict[int, int],
    met: dict[Pair, int],
    apart: set[Pair],
) -> Cost:
    """docs/scoring.md's three sums over the tables, compared in order."""
    repeats = spread = together = 0
    for table in tables:
        people = [p for p in table if p is not None]
        for a, b in combinations(people, 2):
            repeats += met.get(frozenset((a, b)), 0) ** 2
            together += frozenset((a, b)) in apart
        ranks = [rank[p] for p in people]
        spread += (max(ranks) - min(ranks)) ** 2
    return (repeats, spread, together)


def every_seating(players: list[int], sizes: list[int]) -> Iterator[list[list[int]]]:
    """Every split of ``players`` into tables of ``sizes`` (each once, tables unordered)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for companions in combinations(rest, size - 1):
            chosen = set(companions)
            for others in every_seating([p for p in rest if p not in chosen], left):
                yield [[first, *companions], *others]


def least_cost(players: list[int], sizes: list[int], rank: dict, met: dict, apart: set) -> Cost:
    return min(
        documented_cost(seating, rank, met, apart) for seating in every_seating(players, sizes)
    )


def random_field(seed: int) -> tuple[list[int], int, dict[int, int], dict[Pair, int], set[Pair]]:
    """A field of 4 to 9 players at tables of 2 to 4, with earlier meetings, ranks that
    sometimes tie, and clubs and named pairs to keep apart."""
    rng = random.Random(seed)
    count = rng.randint(4, 9)
    table_size = rng.choice([2, 3, 4])
    players = rng.sample(range(1, 60), count)
    levels = sorted(rng.choices(range(1, count + 1), k=count))
    ranked = sorted(players, key=lambda p: rng.random())
    rank = dict(zip(ranked, levels, strict=True))
    ranked.sort(key=lambda p: rank[p])
    met = {
        frozenset(pair): rng.choice([0, 0, 1, 1, 2])
        for pair in combinations(players, 2)
        if rng.random() < 0.3
    }
    clubs = {p: rng.choice("ABC") for p in players}
    apart = {frozenset((a, b)) for a, b in combinations(players, 2) if clubs[a] == clubs[b]}
    apart |= {frozenset(rng.sample(players, 2))}
    return ranked, table_size, rank, met, apart


@pytest.mark.parametrize("seed", range(40))
def test_the_swiss_seating_costs_the_least_there_is(seed: int) -> None:
    # given: a small field with meetings, tied ranks and pairs to keep apart
    ranked, table_size, rank, met, apart = random_field(seed)

    # when
    tables = seat_swiss(
        ranked=ranked,
        table_size=table_size,
        fill_with_bots=False,
        met=met,
        rng=random.Random(seed),
        rank=rank,
        apart=apart,
    )

    # then: every player once, at tables of the documented sizes, at the least cost
    assert sorted(p for t in tables for p in t) == sorted(ranked)  # type: ignore[type-var]
    sizes = table_sizes(players=len(ranked), table_size=table_size)
    assert sorted(len(t) for t in tables) == sorted(sizes)
    assert documented_cost(tables, rank, met, apart) == least_cost(ranked, sizes, rank, met, apart)


@pytest.mark.parametrize("seed", range(20))
def test_stage_one_at_random_keeps_apart_as_many_as_it_can(seed: int) -> None:
    ranked, table_size, _rank, _met, apart = random_field(seed)
    sizes = table_sizes(players=len(ranked), table_size=table_size)
    level = dict.fromkeys(ranked, 1)

    tables = seat_at_random(
        players=ranked,
        table_size=table_size,
        fill_with_bots=False,
        rng=random.Random(seed),
        apart=apart,
    )

    assert sorted(p for t in tables for p in t) == sorted(ranked)  # type: ignore[type-var]
    assert documented_cost(tables, level, {}, apart) == least_cost(ranked, sizes, level, {}, apart)


def test_keep_apart_decides_only_between_seatings_equal_on_repeats_and_ranks() -> None:
    # given: 1 and 2 share a club, and are the two best: the spread of ranks seats them
    # together (keeping them apart would cost more spread), so they meet
    rank = {1: 1, 2: 2, 3: 3, 4: 4}
    apart = {frozenset((1, 2))}

    tables = seat_swiss(
        ranked=[1, 2, 3, 4],
        table_size=2,
        fill_with_bots=False,
        met={},
        rng=random.Random(0),
        rank=rank,
        apart=apart,
    )
    assert sorted(sorted(t) for t in tables) == [[1, 2], [3, 4]]  # type: ignore[type-var]

    # when the four are level (one score group), the club pair is kept apart
    level = dict.fromkeys(rank, 1)
    tables = seat_swiss(
        ranked=[1, 2, 3, 4],
        table_size=2,
        fill_with_bots=False,
        met={},
        rng=random.Random(0),
        rank=level,
        apart=apart,
    )
    assert all(set(t) != {1, 2} for t in tables)


def test_a_random_draw_that_keeps_everyone_apart_is_the_draw_itself() -> None:
    players = list(range(1, 13))
    draw = seat_at_random(
        players=players, table_size=4, fill_with_bots=False, rng=random.Random("s:1")
    )
    # pairs the draw already keeps apart: one player of each of two different tables
    apart = {frozenset((draw[0][0], draw[1][0]))}

    again = seat_at_random(
        players=players, table_size=4, fill_with_bots=False, rng=random.Random("s:1"), apart=apart
    )

    assert again == draw


def test_a_large_field_keeps_clubs_apart_when_ranks_allow() -> None:
    # given: 40 players level on points (one score group) in 10 clubs of 4
    players = list(range(40))
    apart = {
        frozenset((a, b))
        for club in range(10)
        for a, b in combinations([p for p in players if p % 10 == club], 2)
    }

    tables = seat_swiss(
        ranked=players,
        table_size=4,
        fill_with_bots=False,
        met={},
        rng=random.Random(3),
        rank=dict.fromkeys(players, 1),
        apart=apart,
    )

    assert documented_cost(tables, dict.fromkeys(players, 1), {}, apart) == (0, 0, 0)
