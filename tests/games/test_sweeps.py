"""The sweeper: which bot turns it queues again, its claims, and its run on the embedded default."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone
from rest_framework.test import APIClient

from chickenfoot.celery import app as celery_app
from games import engine, sweeps, tasks
from games.middleware import SweepOnRequestMiddleware
from games.models import Match, Move, Player
from games.services import SeatSpec, match_create, match_start, move_submit
from games.services.replay import match_replay_verify

STALE = 10  # BOT_TURN_STALE_SECONDS in these tests


@pytest.fixture(autouse=True)
def _stale_after(settings: Any) -> None:
    settings.BOT_TURN_STALE_SECONDS = STALE


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The bot turns sent (instead of running them)."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.bot_play_turn, "apply_async", lambda **kw: calls.append(kw["args"]))
    return calls


@pytest.fixture
def sweep_bots(django_capture_on_commit_callbacks: Callable) -> Callable[[datetime], int]:
    """Run the bot-turn sweep at ``now``, its sends done as if its statements had committed."""

    def run(now: datetime) -> int:
        with django_capture_on_commit_callbacks(execute=True):
            return sweeps.bot_turns(now=now)

    return run


def bots_only(player: Player) -> Match:
    """An all-bot match, started; in a test's transaction its first bot turn never runs."""
    specs = [SeatSpec(kind="bot", level=1), SeatSpec(kind="bot", level=2)]
    match = match_create(creator=player, variant="chickenfoot", seats=specs)
    match_start(match_id=match.pk, player=player)
    match.refresh_from_db()
    return match


def clock_at(match: Match, when: datetime | None) -> None:
    Match.objects.filter(pk=match.pk).update(bot_turn_since=when)


@pytest.mark.django_db
def test_a_move_or_start_sets_the_clock_while_a_bot_is_to_move_and_clears_it_otherwise(
    players: list[Player],
) -> None:
    before = timezone.now()
    match = bots_only(players[0])
    assert match.bot_turn_since is not None
    assert match.bot_turn_since >= before

    humans = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("bot", 1)]
    )
    match_start(match_id=humans.pk, player=players[0])
    humans.refresh_from_db()
    if humans.state["turn"] == 0:  # the human first: no clock; their move hands over to the bot
        assert humans.bot_turn_since is None
        state = engine.from_json(humans.state)
        move = engine.legal_moves(state, 0)[0].to_json()
        move_submit(
            match_id=humans.pk, player=players[0], move=move, expected_version=humans.version
        )
        humans.refresh_from_db()
    assert humans.status != Match.Status.PLAYING or humans.bot_turn_since is not None


@pytest.mark.django_db
def test_the_sweep_queues_again_only_playing_bot_turns_waiting_too_long(
    players: list[Player], queued: list[tuple[Any, ...]], sweep_bots: Callable[[datetime], int]
) -> None:
    # given: four matches with a bot to move
    now = timezone.now()
    stale, fresh, finished, cleared = (bots_only(player) for player in players)
    clock_at(stale, now - timedelta(seconds=STALE + 1))
    clock_at(fresh, now - timedelta(seconds=STALE - 1))
    clock_at(finished, now - timedelta(hours=1))
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    clock_at(cleared, None)

    # when
    count = sweep_bots(now)

    # then: only the stale one, and its clock restarts at the sweep
    assert count == 1
    assert queued == [(stale.pk,)]
    stale.refresh_from_db()
    assert stale.bot_turn_since == now


@pytest.mark.django_db
def test_a_claimed_bot_turn_is_not_queued_again_until_it_is_stale_again(
    players: list[Player], queued: list[tuple[Any, ...]], sweep_bots: Callable[[datetime], int]
) -> None:
    match = bots_only(players[0])
    now = timezone.now()
    clock_at(match, now - timedelta(seconds=STALE + 1))

    # a second sweeper at the same moment, or a later one within the interval, finds it claimed
    assert sweep_bots(now) == 1
    assert sweep_bots(now) == 0
    assert sweep_bots(now + timedelta(seconds=STALE - 1)) == 0
    # still waiting one stale period after the claim (the queued task was lost too): again
    assert sweep_bots(now + timedelta(seconds=STALE + 1)) == 1
    assert queued == [(match.pk,), (match.pk,)]


@pytest.mark.django_db
def test_a_sweep_with_nothing_to_do_costs_one_query(
    players: list[Player], django_assert_num_queries: Callable
) -> None:
    for _ in range(3):
        bots_only(players[0])

    with django_assert_num_queries(1):
        assert sweeps.bot_turns(now=timezone.now()) == 0


@pytest.mark.django_db
def test_a_failing_sweep_is_logged_and_the_others_still_run(
    players: list[Player],
    settings: Any,
    queued: list[tuple[Any, ...]],
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Callable,
) -> None:
    settings.SWEEPS = {"broken": f"{__name__}.broken_sweep", "bot_turns": "games.sweeps.bot_turns"}
    match = bots_only(players[0])
    clock_at(match, timezone.now() - timedelta(minutes=5))

    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        assert sweeps.sweeps_run() == {"bot_turns": 1}

    assert "Sweep broken failed" in caplog.text
    assert queued == [(match.pk,)]


def broken_sweep(*, now: datetime) -> int:
    raise RuntimeError("this sweep is broken")


# The two tests below keep their rows uncommitted (the test's transaction; on-commit work run by
# django_capture_on_commit_callbacks), so that in CI the real beat's sweeps cannot see them.


@pytest.mark.django_db
def test_the_sweep_task_plays_a_bot_turn_whose_task_failed(
    players: list[Player], monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    # given: a human's move handed the turn to a bot, and the bot's task failed
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("bot", 1)]
    )
    with django_capture_on_commit_callbacks(execute=True):
        match_start(match_id=match.pk, player=players[0])
    match.refresh_from_db()
    state = engine.from_json(match.state)
    move = engine.legal_moves(state, 0)[0].to_json()
    with monkeypatch.context() as patch, django_capture_on_commit_callbacks(execute=True):
        patch.setattr(tasks, "bot_turn_play", lambda **_: 1 / 0)
        move_submit(match_id=match.pk, player=players[0], move=move, expected_version=match.version)
    match.refresh_from_db()
    if match.status != Match.Status.PLAYING:
        pytest.skip("the human's first move ended the match")
    assert match.state["turn"] == 1
    clock_at(match, timezone.now() - timedelta(seconds=STALE + 1))

    # when: beat's sweep runs (eagerly here)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep.delay()

    # then: the bot has played, once, and it is the human's turn again
    match.refresh_from_db()
    assert match.status != Match.Status.PLAYING or match.state["turn"] == 0
    assert Move.objects.filter(match=match, seat=1).exists()
    assert match_replay_verify(match_id=match.pk).ok


@pytest.mark.django_db
def test_on_the_embedded_default_a_request_runs_the_sweeps_at_most_once_per_interval(
    players: list[Player],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: no beat; an all-bot match whose first bot turn was lost a minute ago
    settings.SWEEP_ON_REQUEST = True
    settings.SWEEP_INTERVAL_SECONDS = 60
    monkeypatch.setattr(SweepOnRequestMiddleware, "_last", float("-inf"))
    runs: list[dict[str, int]] = []

    def counted() -> dict[str, int]:
        runs.append(sweeps.sweeps_run())
        return runs[-1]

    monkeypatch.setattr("games.middleware.sweeps_run", counted)
    match = bots_only(players[0])
    clock_at(match, timezone.now() - timedelta(minutes=1))
    client = APIClient()

    # when: two requests, of any kind
    with django_capture_on_commit_callbacks(execute=True):
        first = client.get("/api/health")
    second = client.get("/api/health")

    # then: both answered; the first one's sweep played the match out; the second ran none
    assert first.status_code == second.status_code == 200
    assert len(runs) == 1
    assert runs[0]["bot_turns"] == 1
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match_replay_verify(match_id=match.pk).ok


@pytest.mark.django_db
def test_the_migration_starts_the_clock_of_matches_already_waiting_for_a_bot(
    players: list[Player],
) -> None:
    waiting = bots_only(players[0])
    clock_at(waiting, None)
    migration = importlib.import_module("games.migrations.0003_match_bot_turn_since")

    migration.mark_waiting_bot_turns(apps, None)

    waiting.refresh_from_db()
    assert waiting.bot_turn_since is not None


def test_beat_sends_the_sweep_every_interval(settings: Any) -> None:
    entry = celery_app.conf.beat_schedule["sweep"]
    assert entry["task"] == tasks.sweep.name
    assert entry["schedule"] == settings.SWEEP_INTERVAL_SECONDS
