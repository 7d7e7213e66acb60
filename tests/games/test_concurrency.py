"""One writer at a time per match, on PostgreSQL: racing moves, retries, joins and starts each
apply exactly once."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection, connections

from games import engine
from games.models import Match, Move, Player
from games.services import SeatSpec, match_create, seat_join
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]

THREADS = 8


def race(match_id: int, player: Player, body: dict[str, Any], headers: dict[str, str]) -> list[Any]:
    """``THREADS`` clients, each on its own connection, submit ``body`` at the same moment."""
    barrier = threading.Barrier(THREADS)
    responses: list[Any] = [None] * THREADS

    def run(i: int) -> None:
        client = client_for(player)
        try:
            barrier.wait(timeout=10)
            responses[i] = client.post(
                f"/api/matches/{match_id}/moves", body, format="json", **headers
            )
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return responses


def next_move(match: Match) -> tuple[Player, dict[str, Any]]:
    state = engine.from_json(match.state)
    seat = match.seats.get(position=state.turn)
    move = engine.legal_moves(state, state.turn)[0].to_json()
    return seat.player, {**move, "version": match.version}


def test_racing_the_same_move_applies_it_once_and_the_log_has_no_gap(
    started_match: Callable[..., Match],
) -> None:
    match = started_match()
    for _ in range(6):
        match.refresh_from_db()
        player, body = next_move(match)

        responses = race(match.pk, player, body, {})

        statuses = sorted(r.status_code for r in responses)
        assert statuses == [HTTPStatus.CREATED] + [HTTPStatus.CONFLICT] * (THREADS - 1)
        for response in responses:
            if response.status_code == HTTPStatus.CONFLICT:
                assert response.json()["code"] == "stale_version"
                assert response.json()["current_version"] == body["version"] + 1

    match.refresh_from_db()
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, 7))
    assert match.moves_played == 6


def test_racing_retries_with_one_idempotency_key_all_get_the_first_answer(
    started_match: Callable[..., Match],
) -> None:
    match = started_match()
    player, body = next_move(match)

    responses = race(match.pk, player, body, {"HTTP_IDEMPOTENCY_KEY": "same-key"})

    assert {r.status_code for r in responses} == {HTTPStatus.CREATED}
    assert len({json.dumps(r.json(), sort_keys=True) for r in responses}) == 1
    assert sum(r.get("Idempotent-Replayed") == "true" for r in responses) == THREADS - 1
    assert Move.objects.filter(match=match).count() == 1


def race_posts(posts: list[tuple[Player, str, dict[str, Any]]]) -> list[Any]:
    """Each (player, path, body) posted by its own client, on its own connection, at once."""
    barrier = threading.Barrier(len(posts))
    responses: list[Any] = [None] * len(posts)

    def run(i: int) -> None:
        player, path, body = posts[i]
        client = client_for(player)
        try:
            barrier.wait(timeout=10)
            responses[i] = client.post(path, body, format="json")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return responses


def test_racing_joins_for_the_last_seat_seat_exactly_one(players: list[Player]) -> None:
    match = match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec("creator"), SeatSpec("open")],
    )
    joiners = [PlayerFactory() for _ in range(THREADS)]

    responses = race_posts([(p, f"/api/matches/{match.pk}/join", {}) for p in joiners])

    statuses = sorted(r.status_code for r in responses)
    assert statuses == [HTTPStatus.OK] + [HTTPStatus.CONFLICT] * (THREADS - 1)
    seated = set(match.seats.exclude(player=None).values_list("player_id", flat=True))
    winner = joiners[[r.status_code for r in responses].index(HTTPStatus.OK)]
    assert seated == {players[0].pk, winner.pk}


def test_racing_starts_start_the_match_once(players: list[Player]) -> None:
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    seat_join(match_id=match.pk, player=players[1])
    before = Match.objects.get(pk=match.pk).version

    responses = race_posts([(players[0], f"/api/matches/{match.pk}/start", {})] * THREADS)

    statuses = sorted(r.status_code for r in responses)
    assert statuses == [HTTPStatus.OK] + [HTTPStatus.CONFLICT] * (THREADS - 1)
    match.refresh_from_db()
    assert (match.status, match.version) == (Match.Status.PLAYING, before + 1)
    assert match.rounds.count() == 1


def test_racing_creations_of_matches_of_bots_stop_at_the_players_limit(
    players: list[Player], settings: Any
) -> None:
    # given: ada may have three matches of bots only; she has one
    settings.BOT_ONLY_MATCHES_PER_PLAYER = 3
    bots = [{"kind": "bot", "level": 1}, {"kind": "bot", "level": 2}]
    match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("bot", 1), SeatSpec("bot", 2)]
    )
    body = {"variant": "chickenfoot", "seats": bots}

    # when: eight creations of hers race
    responses = race_posts([(players[0], "/api/matches", body)] * THREADS)

    # then: two are created, six refused, and she has three
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [HTTPStatus.CREATED] * 2 + [HTTPStatus.CONFLICT] * (THREADS - 2)
    assert {r.json()["code"] for r in responses if r.status_code == HTTPStatus.CONFLICT} == {
        "bot_match_limit"
    }
    assert Match.objects.filter(created_by=players[0]).count() == 3
