"""On the embedded default a match of bots only plays in the bot thread: its start answers now."""

from __future__ import annotations

import time
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import transaction

from games.bot_thread import bot_thread_idle, bot_thread_takes
from games.models import Match, Move, Player
from games.services import SeatSpec, match_create, match_start
from games.services.replay import match_replay_verify
from scoring.models import MatchResult
from tests.conftest import broker_at
from tests.foundation.live_server import (
    PYTHON,
    embedded_env,
    free_port,
    migrated_database,
    request,
    serving,
)
from tests.processes import refusing_port

PASSWORD = "correct horse battery"

BOTS = [{"kind": "bot", "level": 1}, {"kind": "bot", "level": 2}, {"kind": "bot", "level": 3}]


@pytest.fixture
def bot_thread(settings: Any) -> Iterator[None]:
    """The bot thread on, as on the embedded default; the test ends with it idle."""
    settings.BOTS_IN_BACKGROUND = True
    yield
    deadline = time.monotonic() + 60
    while not bot_thread_idle() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert bot_thread_idle()


@pytest.mark.usefixtures("bot_thread")
@pytest.mark.django_db(transaction=True)  # the thread reads what the start committed
def test_the_start_hands_the_bots_turns_to_the_thread_which_plays_the_match_to_its_end(
    players: list[Player],
) -> None:
    # given: two matches of bots only
    specs = [SeatSpec(kind="bot", level=level) for level in (1, 2, 3)]
    first = match_create(creator=players[0], variant="chickenfoot", seats=specs)
    second = match_create(
        creator=players[0], variant="mexican_train", seats=specs, options={"max_pip": 9}
    )

    # when: both start (in one transaction: the test's in-memory database takes one writer at a
    # time, and from the commit on the thread writes)
    with transaction.atomic():
        for match in (first, second):
            started = match_start(match_id=match.pk, player=players[0])

            # then: each start returns with its match in play, no bot move made in it
            assert started.status == Match.Status.PLAYING
            assert started.moves_played == 0

    # and: the thread plays both to their end, every move once, as a replay finds them
    deadline = time.monotonic() + 60
    while not bot_thread_idle():
        assert time.monotonic() < deadline, "the bot thread is still playing"
        time.sleep(0.05)
    for match in (first, second):
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, match.moves_played + 1))
        assert match_replay_verify(match_id=match.pk).problems == []
        assert MatchResult.objects.filter(match=match).count() == len(specs)


def test_on_the_embedded_default_a_start_of_bots_answers_playing_and_the_match_ends_alone(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # given: a server as `make run` starts it, on the embedded default
    migrated_database(tmp_path_factory.getbasetemp(), tmp_path / "db.sqlite3")
    env = embedded_env(tmp_path / "db.sqlite3")
    port = free_port()
    command = [PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    with serving(command, port=port, env=env, log=tmp_path / "server.log") as server:
        status, _, player = request(
            port, "POST", "/api/players", {"username": "ada", "password": PASSWORD}
        )
        assert status == HTTPStatus.CREATED, player
        token = player["token"]
        body = {"variant": "chickenfoot", "seats": BOTS, "options": {"rounds": 3}}
        status, _, created = request(port, "POST", "/api/matches", body, token)
        assert status == HTTPStatus.CREATED, created
        path = f"/api/matches/{created['id']}"

        # when: it starts
        began = time.monotonic()
        status, _, started = request(port, "POST", f"{path}/start", None, token)
        took = time.monotonic() - began

        # then: the start answers at once, the match in play
        assert status == HTTPStatus.OK, started
        assert started["status"] == "playing"
        assert took < 2.0, took

        # and: it finishes on its own, its results written
        deadline = time.monotonic() + 60
        while True:
            status, _, match = request(port, "GET", path, None, token)
            assert status == HTTPStatus.OK, match
            if match["status"] == "finished" and not match["results_pending"]:
                break
            assert time.monotonic() < deadline, f"still {match['status']} after 60 s"
            time.sleep(0.2)
        assert len(match["standings"]) == len(BOTS)
        assert match["standings"][0]["place"] == 1
        assert match["version"] > started["version"]
        log = server.log_text()
    assert "Traceback" not in log, log[-4000:]


@pytest.mark.usefixtures("bot_thread")
def test_only_bots_only_turns_of_an_eager_process_go_to_the_thread() -> None:
    assert bot_thread_takes(queue=django_settings.BOTS_QUEUE)
    # a match with a person at the table: its bots answer in the request that moved
    assert not bot_thread_takes(queue=django_settings.CELERY_TASK_DEFAULT_QUEUE)
    # with a broker the bots' worker plays them
    with broker_at(f"redis://127.0.0.1:{refusing_port()}/0"):
        assert not bot_thread_takes(queue=django_settings.BOTS_QUEUE)


def test_the_thread_is_off_when_told(settings: Any) -> None:
    settings.BOTS_IN_BACKGROUND = False
    assert not bot_thread_takes(queue=django_settings.BOTS_QUEUE)
