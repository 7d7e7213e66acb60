"""One writer at a time per table match, on PostgreSQL: racing score entries apply once, and
racing confirmations by one seat are recorded once."""

from __future__ import annotations

import threading
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection, connections

from games.models import Player
from games.tables.models import RoundReview, ScoreEntry
from games.tables.seats import TableSeatSpec
from games.tables.services import table_match_create
from scoring.models import RoundResult
from tests.games.conftest import client_for

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]

THREADS = 6
SCORES = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 14}]


def race(match_id: int, player: Player, headers: list[dict[str, str]]) -> list[Any]:
    """``THREADS`` clients, each on its own connection, enter round 1 at the same moment."""
    barrier = threading.Barrier(THREADS)
    responses: list[Any] = [None] * THREADS

    def run(i: int) -> None:
        client = client_for(player)
        try:
            barrier.wait(timeout=10)
            responses[i] = client.post(
                f"/api/matches/{match_id}/rounds/1/scores",
                {"version": 0, "scores": SCORES},
                format="json",
                **headers[i],
            )
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return responses


@pytest.mark.parametrize("same_key", [False, True], ids=["no key", "one key"])
def test_racing_entries_of_one_round_apply_once(players: list[Player], same_key: bool) -> None:
    # given
    match = table_match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[TableSeatSpec(kind="creator"), TableSeatSpec(kind="guest", name="Bea")],
        options={"max_pip": 6, "rounds": 2},
    )
    headers = [{"HTTP_IDEMPOTENCY_KEY": "round-1"} if same_key else {} for _ in range(THREADS)]

    # when
    responses = race(match.pk, players[0], headers)

    # then
    statuses = sorted(r.status_code for r in responses)
    if same_key:  # each retry is answered with the first answer
        assert statuses == [HTTPStatus.CREATED] * THREADS
        assert all(r.json() == responses[0].json() for r in responses)
    else:
        assert statuses == [HTTPStatus.CREATED] + [HTTPStatus.CONFLICT] * (THREADS - 1)
    assert ScoreEntry.objects.filter(match=match).count() == 1
    assert RoundResult.objects.filter(match_id=match.pk).count() == 2


def test_racing_confirmations_by_one_seat_are_recorded_once(players: list[Player]) -> None:
    # given: round 1 entered by the creator; grace, seated, confirms from six phones at once
    match = table_match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[
            TableSeatSpec(kind="creator"),
            TableSeatSpec(kind="player", player_id=players[1].pk),
        ],
        options={"max_pip": 6, "rounds": 2},
    )
    entered = client_for(players[0]).post(
        f"/api/matches/{match.pk}/rounds/1/scores", {"version": 0, "scores": SCORES}, format="json"
    )
    assert entered.status_code == HTTPStatus.CREATED
    barrier = threading.Barrier(THREADS)
    statuses: list[int] = [0] * THREADS

    def run(i: int) -> None:
        client = client_for(players[1])
        try:
            barrier.wait(timeout=10)
            statuses[i] = client.post(f"/api/matches/{match.pk}/rounds/1/confirm").status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    # then: one is recorded, the others are 409 already_confirmed
    assert sorted(statuses) == [HTTPStatus.CREATED] + [HTTPStatus.CONFLICT] * (THREADS - 1)
    assert RoundReview.objects.filter(match=match, kind="confirm").count() == 1
