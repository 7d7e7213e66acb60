"""Two end-of-match runs at once, on PostgreSQL: one writes, the other finds it done."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, connections, transaction

from games.models import Player
from scoring.models import MatchFinalisation, MatchResult, Rating, RatingChange
from scoring.services import FinaliseOutcome, match_finalise, match_finished
from tests.scoring.conftest import make_finished_match

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]

THREADS = 6


def counts() -> tuple[int, int, int, int]:
    return (
        MatchFinalisation.objects.count(),
        MatchResult.objects.count(),
        RatingChange.objects.count(),
        Rating.objects.count(),
    )


def test_racing_runs_write_the_results_once(players: list[Player]) -> None:
    # given: a finished match, and THREADS runs of its task released at the same moment
    match = make_finished_match(seated=players, scores=[[0, 5, 5, 9], [4, 0, 5, 9]])
    match_finished(match_id=match.pk)  # the pending marker the ending move leaves
    barrier = threading.Barrier(THREADS)
    outcomes: list[Any] = [None] * THREADS

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[i] = match_finalise(match_id=match.pk)
        except Exception as exc:  # noqa: BLE001  (reported by the assertion below)
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    # then: exactly one run wrote; the rest changed nothing and raised nothing
    assert all(isinstance(o, FinaliseOutcome) for o in outcomes), outcomes
    assert sorted(o.written for o in outcomes) == [False] * (THREADS - 1) + [True]
    assert counts() == (1, 4, 4, 4)


def test_a_run_that_overlaps_an_uncommitted_one_waits_and_then_stops(
    players: list[Player],
) -> None:
    # given: run A has written everything but not committed yet (a match that finished without
    # a marker: the claim is the marker's insert)
    match = make_finished_match(seated=players[:3], scores=[[1, 2, 3]])
    written = threading.Event()
    release = threading.Event()
    results: dict[str, Any] = {}

    def run_a() -> None:
        try:
            with transaction.atomic():
                results["a"] = match_finalise(match_id=match.pk)
                written.set()
                release.wait(timeout=20)
        finally:
            connections.close_all()

    def run_b() -> None:
        try:
            results["b"] = match_finalise(match_id=match.pk)
            results["b_done_at"] = time.monotonic()
        finally:
            connections.close_all()

    a = threading.Thread(target=run_a)
    a.start()
    assert written.wait(timeout=20)

    # when: run B starts (it cannot see A's rows yet), then A commits a moment later
    b = threading.Thread(target=run_b)
    b.start()
    time.sleep(0.5)
    assert "b" not in results  # B waits on A's marker row
    released_at = time.monotonic()
    release.set()
    a.join(timeout=20)
    b.join(timeout=20)

    # then: A wrote; B, released by A's commit, found the marker and wrote nothing
    assert results["a"].written
    assert not results["b"].written
    assert results["b"].reason == "already finalised"
    assert results["b_done_at"] >= released_at
    assert counts() == (1, 3, 3, 3)
