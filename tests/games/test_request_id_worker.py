"""One request id from a move to the bot turn it set off, and on to the end of match, on a real
worker (CI: ``CELERY_WORKER_EXPECTED=1``, PostgreSQL).

The test starts its own Redis and its own Celery worker with ``LOG_FORMAT=json``
(tests/processes.py), sends a human's move with ``X-Request-ID``, and reads the worker's JSON
lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

import pytest

from chickenfoot.request_id import request_id_var
from games import engine
from games.models import Match, Player
from games.services import SeatSpec, match_create, match_start
from tests.conftest import broker_at
from tests.games.conftest import client_for
from tests.games.helpers import submit
from tests.processes import WORKER_MARKS, Stack, own_redis_and_celery, wait_for

pytestmark = WORKER_MARKS

REQUEST_ID = "move-traced-0123"
BOT_TASK = "games.tasks.bot_play_turn"
FINALISE_TASK = "scoring.tasks.match_finalise_task"
CHAIN_ID = "start-chain-42"


@pytest.fixture
def stack() -> Iterator[Stack]:
    with own_redis_and_celery(LOG_FORMAT="json") as own:
        yield own


def json_lines(stack: Stack) -> list[dict[str, Any]]:
    lines = []
    for log in stack.celery.logs:
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                lines.append(json.loads(line))
    return lines


def handing_over(match: Match) -> dict[str, Any] | None:
    """A legal move of seat 0 that hands the turn to the bot (a draw keeps it), or ``None``."""
    for candidate in engine.legal_moves(engine.from_json(match.state), 0):
        trial = engine.from_json(match.state)
        engine.apply_move(trial, 0, candidate)
        if trial.turn == 1:
            return candidate.to_json()
    return None


def test_the_bot_turn_a_move_sets_off_logs_under_the_move_s_request_id(
    players: list[Player], stack: Stack
) -> None:
    # given: our worker, logging JSON; a human and a bot, the human to move
    stack.celery.worker("traced")
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("bot", 1)]
    )
    human = client_for(players[0])
    with broker_at(stack.redis.url):
        match_start(match_id=match.pk, player=players[0])
        wait_for(lambda: Match.objects.get(pk=match.pk).state["turn"] == 0, 60, "the human's turn")
        match.refresh_from_db()
        move = handing_over(match)
        while move is None:  # a draw keeps the turn: play on until a move hands it over
            first = engine.legal_moves(engine.from_json(match.state), 0)[0].to_json()
            kept = submit(human, match.pk, {**first, "version": match.version})
            assert kept.status_code == HTTPStatus.CREATED, kept.content
            match.refresh_from_db()
            move = handing_over(match)

        # when: the human moves, handing the turn to the bot, with a request id
        response = submit(
            human, match.pk, {**move, "version": match.version}, HTTP_X_REQUEST_ID=REQUEST_ID
        )
        assert response.status_code == HTTPStatus.CREATED, response.content
        assert response["X-Request-ID"] == REQUEST_ID

        # then: the worker runs the bot turn under the same request id
        def traced() -> list[dict[str, Any]]:
            return [
                line
                for line in json_lines(stack)
                if line.get("request_id") == REQUEST_ID and BOT_TASK in line.get("message", "")
            ]

        wait_for(lambda: traced(), 60, "the bot turn's log lines under the request id")
    lines = traced()
    assert any("succeeded" in line["message"] for line in lines), stack.celery.tail()
    assert {line["level"] for line in lines} <= {"INFO", "DEBUG"}


def test_a_bot_run_passes_the_id_on_to_the_end_of_match_task(
    players: list[Player], stack: Stack
) -> None:
    # given: our worker, logging JSON; a match of bots only, one round
    stack.celery.worker("chain")
    specs = [SeatSpec(kind="bot", level=1), SeatSpec(kind="bot", level=2)]
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=specs, options={"rounds": 1}
    )

    # when: it is started under a request id (as the start request's middleware sets it)
    token = request_id_var.set(CHAIN_ID)
    try:
        with broker_at(stack.redis.url):
            match_start(match_id=match.pk, player=players[0])
    finally:
        request_id_var.reset(token)

    # then: the bot run, in the worker, sends the end-of-match task with the same id
    def finalised() -> list[dict[str, Any]]:
        return [
            line
            for line in json_lines(stack)
            if FINALISE_TASK in line.get("message", "") and "succeeded" in line["message"]
        ]

    wait_for(lambda: finalised(), 120, "the end-of-match task to run", interval=0.5)
    assert {line["request_id"] for line in finalised()} == {CHAIN_ID}, stack.celery.tail()
    bot_runs = [
        line
        for line in json_lines(stack)
        if BOT_TASK in line.get("message", "") and "succeeded" in line["message"]
    ]
    assert bot_runs
    assert {line["request_id"] for line in bot_runs} == {CHAIN_ID}
