"""A locked database during a bot's turn on the embedded default (tasks run in-process).

The bot's turn runs right after the commit of the request that made it the bot's turn. If
SQLite is still locked after its busy timeout, the task is retried at once, in-process, and the
bots play on; an error that outlasts the retries is logged and never turns the committed
request into an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError

import games.tasks
from chickenfoot.celery import app as celery_app
from games.models import Match, Move, Player
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def embedded_celery() -> Iterator[None]:
    """Eager tasks with the embedded default's error handling (the suite makes errors raise)."""
    conf = celery_app.conf
    saved = conf.task_eager_propagates
    conf.task_eager_propagates = settings.CELERY_TASK_EAGER_PROPAGATES
    try:
        yield
    finally:
        conf.task_eager_propagates = saved


def locked_for(calls: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Make the next ``calls`` bot moves find the database locked."""
    real = games.tasks.bot_turn_play
    failures = {"left": calls}

    def locked_then_real(**kwargs: Any) -> Any:
        if failures["left"]:
            failures["left"] -= 1
            raise OperationalError("database is locked")
        return real(**kwargs)

    monkeypatch.setattr(games.tasks, "bot_turn_play", locked_then_real)
    return failures


def play_until_a_bot_has_tried(player: Player, failures: dict[str, int], calls: int) -> int:
    client = client_for(player)
    created = client.post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"rounds": 1},
            "seats": [
                {"kind": "creator"},
                {"kind": "bot", "level": 1},
                {"kind": "bot", "level": 2},
            ],
        },
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED
    match_id = created.json()["id"]
    answer = client.post(f"/api/matches/{match_id}/start")
    assert answer.status_code == HTTPStatus.OK, answer.json()
    while failures["left"] == calls:
        match = Match.objects.get(pk=match_id)
        assert match.status == Match.Status.PLAYING
        assert match.state["turn"] == 0
        moves = client.get(f"/api/matches/{match_id}/legal-moves").json()["moves"]
        answer = client.post(
            f"/api/matches/{match_id}/moves", {**moves[0], "version": match.version}, format="json"
        )
        assert answer.status_code == HTTPStatus.CREATED, answer.json()
    return match_id


def test_a_bot_turn_that_found_the_database_locked_plays_again(
    players: list[Player], monkeypatch: pytest.MonkeyPatch, embedded_celery: None
) -> None:
    # given: the next two bot moves find SQLite locked
    failures = locked_for(2, monkeypatch)

    # when: the human plays until a bot is to move
    match_id = play_until_a_bot_has_tried(players[0], failures, 2)

    # then: the task was retried in-process and the bots played on to the human's turn
    assert failures["left"] == 0
    match = Match.objects.get(pk=match_id)
    assert match.status != Match.Status.PLAYING or match.state["turn"] == 0
    assert Move.objects.filter(match_id=match_id).exclude(seat=0).exists()


def test_a_bot_turn_that_keeps_failing_never_fails_the_committed_request(
    players: list[Player], monkeypatch: pytest.MonkeyPatch, embedded_celery: None
) -> None:
    # given: every bot move finds SQLite locked, more often than the task retries
    failures = locked_for(1000, monkeypatch)

    # when: the start or a human's move makes it a bot's turn (each answered 200 / 201 inside)
    match_id = play_until_a_bot_has_tried(players[0], failures, 1000)

    # then: what the request committed stays, and the task tried its retries
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.PLAYING
    assert match.state["turn"] != 0
    assert 1000 - failures["left"] == games.tasks.bot_play_turn.max_retries + 1
