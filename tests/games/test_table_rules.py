"""One test per rule a table match's score sheet can break, named by its id (docs/rules.md):
each refused sheet is a 422 ``invalid_scores`` naming the rule on the seat's field, and writes
nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.tables.models import ScoreEntry
from tests.games.test_table_scores import GOOD, create, post, refused

pytestmark = pytest.mark.django_db


def rules_of(client: APIClient, match: dict[str, Any], number: int, scores: list[dict]) -> dict:
    _, rules = refused(post(client, match["id"], number, scores))
    assert not ScoreEntry.objects.filter(match_id=match["id"], number=number).exists()
    return rules


def test_c_pips_negative_points_are_refused_and_tiles_are_summed(clients: list[APIClient]):
    match = create(clients[0], double_blank_points=50)
    bad = [GOOD[0], {"seat": 1, "points": -1}, GOOD[2]]

    assert rules_of(clients[0], match, 1, bad) == {"scores.1.points": "C-PIPS"}
    summed = post(clients[0], match["id"], 1, [GOOD[0], {"seat": 1, "tiles": [[0, 0]]}, GOOD[2]])
    assert summed.json()["round"]["scores"][1]["points"] == 50


def test_c_set_a_tile_not_in_the_set_or_in_two_hands_and_too_many_points(
    clients: list[APIClient],
):
    match = create(clients[0])  # a double-6 set
    bad = [
        {"seat": 0, "points": 0, "went_out": True},
        {"seat": 1, "tiles": [[1, 7], [2, 3]]},
        {"seat": 2, "tiles": [[3, 2]]},
    ]
    assert rules_of(clients[0], match, 1, bad) == {
        "scores.1.tiles.0": "C-SET",
        "scores.2.tiles.0": "C-SET",
    }
    too_many = [GOOD[0], {"seat": 1, "points": 10_000}, GOOD[2]]
    assert rules_of(clients[0], match, 1, too_many) == {"scores.1.points": "C-SET"}


def test_c_rounds_the_start_double_in_a_hand_and_a_round_out_of_order(clients: list[APIClient]):
    match = create(clients[0])  # round 1 starts with 6|6

    held = [GOOD[0], {"seat": 1, "tiles": [[6, 6]]}, GOOD[2]]
    assert rules_of(clients[0], match, 1, held) == {"scores.1.tiles.0": "C-ROUNDS"}
    assert rules_of(clients[0], match, 2, GOOD) == {"round": "C-ROUNDS"}


def test_cf_score_two_seats_out_and_a_seat_out_with_points(clients: list[APIClient]):
    match = create(clients[0])

    two_out = [GOOD[0], {"seat": 1, "points": 0, "went_out": True}, GOOD[2]]
    assert rules_of(clients[0], match, 1, two_out) == {"scores.1.went_out": "CF-SCORE"}
    with_points = [{"seat": 0, "points": 4, "went_out": True}, GOOD[1], GOOD[2]]
    assert rules_of(clients[0], match, 1, with_points) == {"scores.0.points": "CF-SCORE"}


def test_mt_score_a_seat_out_with_tiles_left(clients: list[APIClient]):
    match = create(clients[0], variant="mexican_train", max_pip=9)

    out_with_tiles = [{"seat": 0, "tiles": [[1, 2]], "went_out": True}, GOOD[1], GOOD[2]]
    assert rules_of(clients[0], match, 1, out_with_tiles) == {"scores.0.tiles": "MT-SCORE"}
