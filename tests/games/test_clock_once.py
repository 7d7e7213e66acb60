"""Turn clocks longer than the broker's visibility timeout: each warning and each expiry once.

A task sent with a countdown is held, unacknowledged, by the worker that took it until it has
run; Redis hands a message out again once it has been unacknowledged for the visibility timeout
(``CELERY_VISIBILITY_TIMEOUT``). So no task may be sent with a countdown past that: the
sweeper finds the clocks that are due, and a claim makes each warning and each expiry happen
once however many times it is tried. These tests run on the embedded default with the clock
moved by hand (time-machine); ``tests/games/test_clock_worker.py`` runs the same against a real
worker and beat.
"""

from __future__ import annotations

import importlib
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import time_machine
from celery import Task
from rest_framework.test import APIClient

from chickenfoot.celery import app as celery_app
from games import tasks
from games.live import publish as live
from games.models import Match, Move
from games.services.timeouts import clock_sweep
from tests.games.helpers import play_turn

pytestmark = pytest.mark.django_db(transaction=True)

#: Longer than the visibility timeout (30 s): the clock that was delivered again and again.
TURN_SECONDS = 65


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every ``clock_warning`` frame sent to a match's sockets (through the channel layer)."""
    sent: list[dict[str, Any]] = []
    real = live.publish

    def publish(*, match_id: int, message: dict[str, Any]) -> None:
        frame = message.get("frame") or {}
        if frame.get("type") == "clock_warning":
            sent.append({"match": match_id, **frame})
        real(match_id=match_id, message=message)

    monkeypatch.setattr(live, "publish", publish)
    return sent


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    """This process's clock, stopped at a fixed moment; tests move it with ``shift``. The moment
    is far ahead, so that a sweeper on the same database (CI's beat, on the real clock) finds
    none of these clocks due and cannot race the test."""
    with time_machine.travel(datetime(2099, 6, 1, 12, 0, tzinfo=UTC), tick=False) as traveller:
        yield traveller


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Tasks sent to a broker (recorded, not sent): the app runs as with ``REDIS_URL``."""
    calls: list[dict[str, Any]] = []

    def apply_async(self: Task, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        calls.append({"task": self.name, "args": tuple(args or ()), **options})

    monkeypatch.setattr(Task, "apply_async", apply_async)
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        yield calls
    finally:
        celery_app.conf.task_always_eager = saved


def test_no_task_is_sent_with_a_countdown_the_broker_would_hand_out_twice(
    sent: list[dict[str, Any]],
    clients: list[APIClient],
    started_match: Callable[..., Match],
) -> None:
    # given: a match whose clock outlasts the visibility timeout, played for a few turns
    match = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": TURN_SECONDS})
    rng = random.Random(7)
    for _ in range(6):
        play_turn(clients, match.pk, rng)

    # then: every task sent is acknowledged (run, then acked) inside the visibility timeout
    conf = celery_app.conf
    visibility = conf.broker_transport_options["visibility_timeout"]
    for call in sent:
        countdown = call.get("countdown") or 0
        if call.get("eta") is not None:
            countdown = (call["eta"] - datetime.now(UTC)).total_seconds()
        assert countdown + conf.task_time_limit <= visibility, call


@pytest.mark.parametrize(
    ("turn_seconds", "sweep_every"),
    [
        (TURN_SECONDS, 1),
        # a sweep less often than a quarter of the turn: some find the warning and the expiry
        # due at once, and send both
        (14, 5),
    ],
)
def test_over_several_turns_each_warning_and_each_expiry_happens_once(
    turn_seconds: int,
    sweep_every: int,
    clock: time_machine.Traveller,
    warnings: list[dict[str, Any]],
    started_match: Callable[..., Match],
) -> None:
    # given: nobody plays a match whose clock outlasts the visibility timeout
    match = started_match(
        "chickenfoot", 3, {"rounds": 1, "turn_seconds": turn_seconds, "timeouts_to_takeover": 100}
    )
    turns = 4

    # when: two sweepers run every sweep_every seconds (as two beats would) for four turns,
    # and every clock task is delivered three times at each sweep (redeliveries)
    acted = 0
    for _ in range(turns * turn_seconds // sweep_every + 2):
        clock.shift(timedelta(seconds=sweep_every))
        now = datetime.now(UTC)
        acted += clock_sweep(now=now) + clock_sweep(now=now)
        version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
        for _ in range(3):
            acted += bool(tasks.clock_warn_task(match.pk, version))
            acted += tasks.clock_expire_task(match.pk, version) is not None

    # then: one warning per turn, at most a sweep after a quarter of the turn was left, and
    # one timed-out move
    match.refresh_from_db()
    timed_out = list(Move.objects.filter(match=match, timed_out=True).order_by("seq"))
    assert len(timed_out) == match.moves_played == turns
    assert Counter(w["version"] for w in warnings) == {move.version - 1: 1 for move in timed_out}
    quarter = turn_seconds / 4
    assert all(quarter - sweep_every <= w["seconds_left"] <= quarter for w in warnings)
    assert acted == 2 * turns  # the executions that did something: a warning, an expiry


def test_a_short_clock_gets_countdowns_and_a_long_one_waits_for_the_sweep(
    sent: list[dict[str, Any]], settings: Any, started_match: Callable[..., Match]
) -> None:
    # a clock whose warning and expiry are both within a countdown's reach: both are sent
    short = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 8})
    clock_tasks = [c for c in sent if c["task"].startswith("games.tasks.clock_")]
    assert {c["task"] for c in clock_tasks} == {
        tasks.clock_warn_task.name,
        tasks.clock_expire_task.name,
    }
    assert all(c["args"] == (short.pk, short.version) for c in clock_tasks)
    assert all(c["countdown"] <= settings.COUNTDOWN_MAX_SECONDS for c in clock_tasks)

    # a longer clock: its expiry is left to the sweep, and so is its warning once it is too far
    sent.clear()
    started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 12})
    assert [c["task"] for c in sent if c["task"].startswith("games.tasks.clock_")] == [
        tasks.clock_warn_task.name  # 9 s away
    ]
    sent.clear()
    started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": TURN_SECONDS})
    assert not [c for c in sent if c["task"].startswith("games.tasks.clock_")]


def test_a_seat_leaving_after_the_warning_does_not_warn_again(
    clock: time_machine.Traveller,
    warnings: list[dict[str, Any]],
    clients: list[APIClient],
    started_match: Callable[..., Match],
) -> None:
    # given: the seat to move has been warned
    match = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": TURN_SECONDS})
    clock.shift(timedelta(seconds=TURN_SECONDS * 0.75))
    assert clock_sweep(now=datetime.now(UTC)) == 1
    turn = match.state["turn"]

    # when: another seat resigns (the version moves on; the clock keeps running)
    other = next(seat for seat in range(3) if seat != turn)
    assert clients[other].post(f"/api/matches/{match.pk}/resign").status_code == HTTPStatus.OK
    match.refresh_from_db()

    # then: the sweeps and the new version's tasks send no second warning
    clock.shift(timedelta(seconds=1))
    assert clock_sweep(now=datetime.now(UTC)) == 0
    assert tasks.clock_warn_task(match.pk, match.version) is False
    assert len(warnings) == 1


def test_the_migration_gives_running_clocks_their_warning_unless_it_has_passed(
    started_match: Callable[..., Match],
) -> None:
    from django.apps import apps
    from django.utils import timezone

    migration = importlib.import_module("games.migrations.0008_turn_warn_at")
    fresh = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 40})
    late = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 40})
    Match.objects.filter(pk=late.pk).update(turn_deadline=timezone.now() + timedelta(seconds=5))
    Match.objects.update(turn_warn_at=None)

    migration.warn_running_clocks(apps, None)

    fresh.refresh_from_db()
    late.refresh_from_db()
    assert fresh.turn_warn_at == fresh.turn_deadline - timedelta(seconds=10)
    assert late.turn_warn_at is None  # its warning time has passed: it went out already


def test_the_documented_lateness_is_the_ci_beat_interval(settings: Any) -> None:
    """The docs bound a clock's lateness in CI by its sweep interval: .ci/run sweeps so often."""
    root = Path(__file__).resolve().parents[2]
    found = re.search(
        r"^export SWEEP_INTERVAL_SECONDS=(\d+)$", (root / ".ci/run").read_text(), re.M
    )
    assert found, ".ci/run sets no SWEEP_INTERVAL_SECONDS"
    seconds = int(found[1])
    assert (
        seconds <= settings.COUNTDOWN_MAX_SECONDS
    )  # CI's clocks no later than a countdown's reach
    for doc in ("docs/api.md", "docs/reliability.md"):
        text = " ".join((root / doc).read_text().split())
        assert f"{seconds} s in CI" in text, doc
