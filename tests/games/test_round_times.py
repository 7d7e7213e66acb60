"""A round never ends before it starts: a round dealt and ended at once, a round played out
online and a round entered at a table each carry the one clock reading of the write that made
them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import F
from rest_framework.test import APIClient

from games import engine
from games.models import Match, Round
from tests.games.helpers import play_to_end

pytestmark = pytest.mark.django_db

DEALT = {"max_pip": 6, "hand_size": 1, "rounds": 3}


def assert_every_round_ends_after_it_starts(match_id: int, rounds: int) -> None:
    rows = list(Round.objects.filter(match_id=match_id).order_by("number"))
    assert [row.number for row in rows] == list(range(1, rounds + 1))
    for row in rows:
        assert row.ended_at is not None, row.number
        assert row.ended_at >= row.started_at, (row.number, row.started_at, row.ended_at)


def a_seed_whose_first_round_ends_as_dealt() -> str:
    """CF-START: the holder of the start double dealt it as their only tile goes out at once."""
    for attempt in range(5000):
        seed = f"dealt-and-ended-{attempt}"
        if engine.to_json(engine.new_match("chickenfoot", 2, DEALT, seed))["revealed_seeds"]:
            return seed
    raise AssertionError("no seed ends its first round as dealt")


def test_an_online_match_played_out(started_match: Callable[..., Match], clients: list[APIClient]):
    match = started_match(n=2, options={"max_pip": 6, "rounds": 3})
    play_to_end(clients[:2], match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert_every_round_ends_after_it_starts(match.pk, 3)


def test_a_round_dealt_and_ended_in_the_same_write(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    match = started_match(n=2, options=DEALT, seed=a_seed_whose_first_round_ends_as_dealt())
    assert Round.objects.filter(match=match, number=1, status=Round.Status.FINISHED).exists()
    play_to_end(clients[:2], match.pk)
    assert_every_round_ends_after_it_starts(match.pk, 3)


def test_a_table_match_entered_round_by_round(clients: list[APIClient]) -> None:
    created = clients[0].post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "play": "table",
            "options": {"max_pip": 6, "rounds": 3},
            "seats": [{"kind": "creator"}, {"kind": "guest", "name": "Bea"}],
        },
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    match_id = created.json()["id"]
    for number in range(1, 4):
        body: dict[str, Any] = {
            "version": number - 1,
            "scores": [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 12}],
        }
        response = clients[0].post(
            f"/api/matches/{match_id}/rounds/{number}/scores", body, format="json"
        )
        assert response.status_code == HTTPStatus.CREATED, response.content
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED
    assert_every_round_ends_after_it_starts(match_id, 3)
    rounds = clients[0].get(f"/api/matches/{match_id}/rounds").json()
    listed = rounds["rounds"] if isinstance(rounds, dict) else rounds
    for row in listed:
        assert row["ended_at"] >= row["started_at"], row


def migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.mark.django_db(transaction=True)
def test_rounds_stored_ending_before_they_started_are_put_right(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    # given: a played match whose rounds were stored as the older code did (started 0.2 ms late)
    match = started_match(n=2, options={"max_pip": 6, "rounds": 2})
    play_to_end(clients[:2], match.pk)
    migrate([("games", "0020_entrant_claims")])
    Round.objects.filter(match=match).update(started_at=F("ended_at") + timedelta(microseconds=200))
    ended = dict(Round.objects.filter(match=match).values_list("number", "ended_at"))

    # when
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    # then: each starts when it ended, its end untouched
    assert_every_round_ends_after_it_starts(match.pk, 2)
    rows = Round.objects.filter(match=match).values_list("number", "started_at", "ended_at")
    assert {number: (start, end) for number, start, end in rows} == {
        number: (end, end) for number, end in ended.items()
    }
