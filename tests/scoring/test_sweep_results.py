"""The sweeper queues the end-of-match task again for a finished match still without results."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import sweeps
from games.models import Match
from scoring.models import MatchFinalisation, MatchResult, RoundResult
from scoring.tasks import match_finalise_task
from tests.games.helpers import play_to_end

pytestmark = pytest.mark.django_db

STALE = 30


@pytest.fixture(autouse=True)
def _stale_after(settings: Any) -> None:
    settings.RESULTS_STALE_SECONDS = STALE


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The end-of-match tasks sent (instead of running them)."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(match_finalise_task, "apply_async", lambda **kw: calls.append(kw["args"]))
    return calls


@pytest.fixture
def lost(clients: list[APIClient], started_match: Callable[..., Match]) -> Match:
    """A match played to its end whose end-of-match task never ran (its message was lost)."""
    match = started_match(n=2, options={"rounds": 1})
    play_to_end(clients[:2], match.pk, seed=4)  # in the test's transaction: nothing is sent
    match.refresh_from_db()
    return match


def sweep(at: Any, capture: Callable) -> int:
    with capture(execute=True):
        return sweeps.match_results(now=at)


def test_the_ending_move_leaves_a_pending_marker(lost: Match) -> None:
    marker = MatchFinalisation.objects.get(match_id=lost.pk)

    assert marker.finalised_at is None
    assert marker.queued_at is not None
    assert not MatchResult.objects.filter(match=lost).exists()


def test_a_pending_match_is_queued_again_once_stale_and_once_per_interval(
    lost: Match, sent: list, django_capture_on_commit_callbacks: Callable
) -> None:
    queued_at = MatchFinalisation.objects.get(match_id=lost.pk).queued_at
    assert queued_at is not None

    assert sweep(queued_at + timedelta(seconds=STALE - 1), django_capture_on_commit_callbacks) == 0
    later = queued_at + timedelta(seconds=STALE + 1)
    assert sweep(later, django_capture_on_commit_callbacks) == 1
    assert sent == [(lost.pk,)]
    # claimed: its clock moved to the sweep's time, so the next sweeps leave it be a while
    assert MatchFinalisation.objects.get(match_id=lost.pk).queued_at == later
    assert sweep(later + timedelta(seconds=1), django_capture_on_commit_callbacks) == 0
    assert sent == [(lost.pk,)]


def test_the_sweep_finalises_the_match_and_then_leaves_it_alone(
    lost: Match, django_capture_on_commit_callbacks: Callable
) -> None:
    later = timezone.now() + timedelta(seconds=STALE + 1)

    assert sweep(later, django_capture_on_commit_callbacks) == 1  # eager: the task runs

    marker = MatchFinalisation.objects.get(match_id=lost.pk)
    assert marker.finalised_at is not None
    assert marker.engine_agreed is True
    assert MatchResult.objects.filter(match=lost).count() == 2
    assert sweep(later + timedelta(hours=1), django_capture_on_commit_callbacks) == 0


def test_the_sweep_is_named_in_the_settings(settings: Any) -> None:
    assert settings.SWEEPS["match_results"] == "games.sweeps.match_results"


def test_the_sweep_gives_up_after_the_most_attempts_and_logs_it(
    lost: Match,
    sent: list,
    settings: Any,
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Callable,
) -> None:
    # given: a match whose task never gets to run (every message is lost)
    settings.RESULTS_MAX_ATTEMPTS = 3
    marker = MatchFinalisation.objects.get(match_id=lost.pk)
    assert marker.attempts == 1  # the end of the match queued it once
    at = marker.queued_at

    # when: the sweeper runs for a long time
    for _ in range(6):
        at += timedelta(seconds=STALE + 1)
        sweep(at, django_capture_on_commit_callbacks)

    # then: queued twice more (three attempts in all), then marked failed and logged once
    assert sent == [(lost.pk,), (lost.pk,)]
    marker.refresh_from_db()
    assert marker.attempts == 3
    assert marker.failed_at is not None
    assert marker.finalised_at is None
    gave_up = [r for r in caplog.records if "gave up on its results" in r.getMessage()]
    assert len(gave_up) == 1
    assert gave_up[0].levelname == "ERROR"
    assert str(lost.pk) in gave_up[0].getMessage()


def test_a_match_that_can_never_be_finalised_is_not_queued_again(
    lost: Match, django_capture_on_commit_callbacks: Callable, sent: list
) -> None:
    # given: its round rows are incomplete, and a run of its task found so
    RoundResult.objects.filter(match=lost, seat=1).delete()
    outcome = match_finalise_task.apply(args=(lost.pk,)).get()
    assert outcome["failed"] is True
    assert outcome["written"] is False

    # when: the sweeper runs long after
    later = timezone.now() + timedelta(hours=1)
    queued = sweep(later, django_capture_on_commit_callbacks)

    # then: nothing is queued; the marker says why
    assert queued == 0
    assert sent == []
    marker = MatchFinalisation.objects.get(match_id=lost.pk)
    assert marker.failed_at is not None
    assert "seats have round rows" in marker.last_error
    assert not MatchResult.objects.filter(match=lost).exists()
