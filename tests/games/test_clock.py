"""Turn clocks: a human who runs out of time is played for, warned first, taken over at last."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from http import HTTPStatus

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match, Move, Seat
from games.services.clock import clock_warn
from games.services.replay import match_replay_verify
from games.services.timeouts import clock_expire, clock_sweep
from tests.games.helpers import play_turn

# Transactional: clocks and bots are scheduled after commit, as in production.
pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def run_out(match: Match) -> Iterator[None]:
    """Let the running clock's time pass, for this process only: its clock jumps past the
    deadline. The rows stay as they are, so a sweeper on the same database (CI's beat) finds
    nothing due and cannot race the test."""
    match.refresh_from_db()
    assert match.turn_deadline is not None
    with time_machine.travel(match.turn_deadline + timedelta(seconds=1), tick=True):
        yield


def test_no_clock_by_default(started_match: Callable[..., Match]) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1})
    assert match.options["turn_seconds"] is None
    assert match.turn_deadline is None
    assert clock_expire(match_id=match.pk, version=match.version) is None


def test_each_human_move_restarts_the_clock(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 30})
    assert match.turn_deadline is not None
    left = (match.turn_deadline - timezone.now()).total_seconds()
    assert 25 < left <= 30
    first = match.turn_deadline
    play_turn(clients, match.pk, random.Random(1))
    match.refresh_from_db()
    assert match.turn_deadline > first


def test_an_expired_clock_plays_the_level_2_choice_marked_timed_out(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # given: seat to move, its time not yet up
    match = started_match("chickenfoot", 3, {"rounds": 2, "turn_seconds": 30})
    seat, version, played = match.state["turn"], match.version, match.moves_played
    assert clock_expire(match_id=match.pk, version=version) is None  # time left: nothing
    assert Match.objects.get(pk=match.pk).moves_played == played

    # when: the time runs out
    with run_out(match):
        new_version = clock_expire(match_id=match.pk, version=version)

    # then: one move for that seat, marked timed out, in the log too
    assert new_version == version + 1
    move = Move.objects.get(match=match, seq=played + 1)
    assert (move.seat, move.timed_out, move.version) == (seat, True, new_version)
    match.refresh_from_db()
    assert match.timeouts_in_row[seat] == 1
    assert match.turn_deadline is not None  # the next human's clock runs
    log = clients[seat].get(f"/api/matches/{match.pk}/log?after={played}").json()
    assert log["moves"][0]["timed_out"] is True

    # and: a repeated or late expiry finds nothing to do
    assert clock_expire(match_id=match.pk, version=version) is None
    assert Match.objects.get(pk=match.pk).moves_played == played + 1
    assert match_replay_verify(match_id=match.pk).ok


def test_a_turn_that_moved_on_is_never_touched(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 30})
    version = match.version
    play_turn(clients, match.pk, random.Random(2))  # the human moved in time
    with run_out(match):
        assert clock_expire(match_id=match.pk, version=version) is None
    assert not Move.objects.filter(match=match, timed_out=True).exists()


def test_timeouts_in_a_row_hand_the_seat_to_a_bot_and_an_own_move_resets_them(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match(
        "chickenfoot", 3, {"rounds": 2, "turn_seconds": 30, "timeouts_to_takeover": 2}
    )
    first = match.state["turn"]
    rng = random.Random(3)

    def expire_once() -> int:
        match.refresh_from_db()
        seat = match.state["turn"]
        with run_out(match):
            assert clock_expire(match_id=match.pk, version=match.version) is not None
        return seat

    # the first seat times out, then plays itself: its count starts again
    assert expire_once() == first
    while Match.objects.get(pk=match.pk).state["turn"] != first:
        play_turn(clients, match.pk, rng)
    play_turn(clients, match.pk, rng)
    match.refresh_from_db()
    assert match.timeouts_in_row[first] == 0

    # two timeouts in a row: a bot takes the seat over
    timed_out = []
    while Seat.objects.get(match=match, position=first).left == "":
        match.refresh_from_db()
        if match.state["turn"] == first:
            timed_out.append(expire_once())
        else:
            play_turn(clients, match.pk, rng)
    assert timed_out == [first, first]
    seat = Seat.objects.get(match=match, position=first)
    assert (seat.left, seat.bot_level) == ("timed_out", 2)
    match.refresh_from_db()
    assert first in match.bot_seats
    refused = clients[first].post(
        f"/api/matches/{match.pk}/moves", {"kind": "draw", "version": match.version}, format="json"
    )
    assert refused.status_code == HTTPStatus.CONFLICT


def test_the_warning_is_for_the_running_turn_only_once_it_is_due_and_once(
    started_match: Callable[..., Match],
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 30})
    assert match.turn_warn_at is not None
    assert 22 < (match.turn_warn_at - timezone.now()).total_seconds() <= 22.5
    assert clock_warn(match_id=match.pk, version=match.version) is False  # not yet
    with time_machine.travel(match.turn_warn_at + timedelta(seconds=1), tick=True):
        assert clock_warn(match_id=match.pk, version=match.version - 1) is False
        assert clock_warn(match_id=match.pk, version=match.version) is True
        assert clock_warn(match_id=match.pk, version=match.version) is False  # sent already
    assert Match.objects.get(pk=match.pk).turn_warn_at is None


def test_a_clock_sweep_with_nothing_due_costs_one_query(
    started_match: Callable[..., Match], django_assert_num_queries: Callable
) -> None:
    for _ in range(2):
        started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 30})
    with django_assert_num_queries(1):
        assert clock_sweep(now=timezone.now()) == 0


def test_the_sweep_expires_clocks_that_ran_out_unnoticed(
    started_match: Callable[..., Match],
) -> None:
    # given: a clock whose expiry never ran (no task, or its message lost)
    running = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 30})
    assert clock_sweep(now=timezone.now()) == 0

    # when: the sweeper runs only a minute after the deadline
    with time_machine.travel(running.turn_deadline + timedelta(minutes=1), tick=True):
        assert clock_sweep(now=timezone.now()) == 2  # the warning, late, then the expiry

        # then: the turn was played for the seat, once
        assert Move.objects.filter(match=running, timed_out=True).count() == 1
        assert clock_sweep(now=timezone.now()) == 0


def test_a_seat_leaving_keeps_the_running_clock_at_the_new_version(
    monkeypatch: pytest.MonkeyPatch,
    clients: list[APIClient],
    started_match: Callable[..., Match],
) -> None:
    """A resignation bumps the version: the clock of the human to move is scheduled again."""
    import games.services.clock as clock

    scheduled: list[tuple[int, int]] = []
    monkeypatch.setattr(
        clock, "clock_schedule", lambda **kw: scheduled.append((kw["match_id"], kw["version"]))
    )
    match = started_match("chickenfoot", 3, {"rounds": 1, "turn_seconds": 30})
    turn = match.state["turn"]
    other = next(seat for seat in range(3) if seat != turn)

    assert clients[other].post(f"/api/matches/{match.pk}/resign").status_code == HTTPStatus.OK

    match.refresh_from_db()
    assert match.turn_deadline is not None
    assert scheduled[-1] == (match.pk, match.version)
    with run_out(match):
        assert clock_expire(match_id=match.pk, version=match.version) is not None
