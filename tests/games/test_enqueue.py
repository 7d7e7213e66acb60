"""Enqueue after commit: sent only once committed, and a failure never fails the request."""

from __future__ import annotations

import logging
import socket
import time
from http import HTTPStatus
from typing import Any

import pytest
from django.db import transaction

from games import engine, tasks
from games.enqueue import enqueue_now, enqueue_on_commit
from games.models import Match, Move, Player
from games.services import SeatSpec, match_create, match_start
from games.tasks import ping
from tests.conftest import broker_at
from tests.games.conftest import client_for
from tests.games.helpers import submit


def dead_port() -> int:
    """A loopback port nothing listens on (bound, then released): connections are refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(ping, "apply_async", lambda **kw: calls.append(kw["args"]))
    return calls


@pytest.mark.django_db(transaction=True)
def test_a_task_is_sent_after_commit_and_never_after_a_rollback(
    sent: list[tuple[Any, ...]],
) -> None:
    with transaction.atomic():
        enqueue_on_commit(ping, 1)
        assert sent == []  # not before the commit
    assert sent == [(1,)]

    def rolled_back() -> None:
        with transaction.atomic():
            enqueue_on_commit(ping, 2)
            raise RuntimeError("roll back")

    with pytest.raises(RuntimeError):
        rolled_back()
    assert sent == [(1,)]

    enqueue_on_commit(ping, 3)  # outside a transaction: at once
    assert sent == [(1,), (3,)]


def test_a_broker_that_refuses_connections_fails_the_send_fast_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # given: the broker's port refuses connections
    with broker_at(f"redis://127.0.0.1:{dead_port()}/0"), caplog.at_level(logging.ERROR):
        # when
        started = time.monotonic()
        ok = enqueue_now(ping)
        elapsed = time.monotonic() - started

    # then: no exception, a log line naming the task, and no 19-second wait
    assert ok is False
    assert elapsed < 2.0
    assert "Could not run or enqueue games.tasks.ping" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_human_move_handing_over_to_a_failing_bot_turn_still_answers_201(
    players: list[Player], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # given: a human and a bot, the human to move (the start plays the bot if it is first)
    match = match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec(kind="creator"), SeatSpec(kind="bot", level=1)],
    )
    match_start(match_id=match.pk, player=players[0])
    match.refresh_from_db()
    assert match.state["turn"] == 0
    moves_before = Move.objects.count()

    # and: the bot's turn fails when it runs (eagerly, right after the human's move commits)
    def broken(**_: Any) -> int | None:
        raise RuntimeError("the bot's turn broke")

    monkeypatch.setattr(tasks, "bot_turn_play", broken)
    state = engine.from_json(match.state)
    move = engine.legal_moves(state, 0)[0].to_json()

    # when
    with caplog.at_level(logging.ERROR):
        response = submit(client_for(players[0]), match.pk, {**move, "version": match.version})

    # then: the move is applied and answered; the failure is logged; the bot is still to move
    assert response.status_code == HTTPStatus.CREATED, response.content
    assert Move.objects.count() == moves_before + 1
    match.refresh_from_db()
    assert match.version == response.json()["version"]
    assert match.status != Match.Status.PLAYING or match.state["turn"] == 1
    assert "Could not run or enqueue games.tasks.bot_play_turn" in caplog.text
    assert "the bot's turn broke" in caplog.text
