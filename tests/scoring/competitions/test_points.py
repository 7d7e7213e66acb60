"""Placement points (pure): the default scheme, shared places, an organiser's scheme."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.competitions.points import (
    as_points,
    default_places,
    default_scheme,
    scheme_problems,
    table_points,
)


def test_the_default_scheme() -> None:
    assert default_places(4) == [5, 3, 2, 1]
    assert default_places(3) == [4, 2, 1]
    assert default_places(2) == [3, 1]
    assert default_places(5) == [6, 4, 3, 2, 1]
    assert default_scheme([3, 4]) == {"3": [4, 2, 1], "4": [5, 3, 2, 1]}


def test_points_by_place() -> None:
    assert table_points(places=[2, 1, 4, 3], scheme_places=[5, 3, 2, 1]) == [
        3000,
        5000,
        1000,
        2000,
    ]


@pytest.mark.parametrize("places", [[1, 1, 3, 4], [1, 1, 2, 3]])
def test_C_WIN_shared_first_shares_the_points_of_first_and_second(places: list[int]) -> None:
    # either numbering of a shared place: the two occupy places 1 and 2
    assert table_points(places=places, scheme_places=[5, 3, 2, 1]) == [4000, 4000, 2000, 1000]


def test_a_three_way_share_rounds_to_the_thousandth() -> None:
    points = table_points(places=[2, 2, 2, 1], scheme_places=[5, 3, 2, 1])

    assert points == [2000, 2000, 2000, 5000]
    assert table_points(places=[1, 1, 1, 4], scheme_places=[5, 3, 2, 1]) == [
        3333,
        3333,
        3333,
        1000,
    ]
    assert as_points(3333) == Decimal("3.333")


def test_a_good_scheme_has_no_problems() -> None:
    assert scheme_problems({"3": [10, 5, 0], "4": [10, 6, 3, 0]}, [3, 4]) == []


@pytest.mark.parametrize(
    ("scheme", "problem"),
    [
        ([5, 3, 2, 1], "is an object"),
        ({"4": [5, 3, 2, 1]}, "needs table sizes 3 too"),
        ({"3": [4, 2, 1], "4": [5, 3, 2, 1], "9": [1] * 9}, "never seats: 9"),
        ({"3": [4, 2], "4": [5, 3, 2, 1]}, "Table size 3 needs 3 whole numbers"),
        ({"3": [4, 2, 1.5], "4": [5, 3, 2, 1]}, "Table size 3 needs 3 whole numbers"),
        ({"3": [4, 2, 1], "4": [5, 3, 2, -1]}, "between 0 and"),
        ({"3": [1, 2, 4], "4": [5, 3, 2, 1]}, "never earns fewer"),
    ],
)
def test_a_bad_scheme_is_explained(scheme: object, problem: str) -> None:
    problems = scheme_problems(scheme, [3, 4])

    assert any(problem in p for p in problems), problems
