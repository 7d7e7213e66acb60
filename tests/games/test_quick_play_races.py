"""Quick play under load, on PostgreSQL: 200 players join at once from many threads, each join
pairing its queue as it commits (and more pairings run beside them); every player ends in
exactly one match, every table full, nobody left waiting. With a worker (CI), the pairings
run on it."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from games.models import Match, Player, Seat
from games.quick_play.models import QueueEntry
from games.quick_play.pairing import queue_pair
from games.quick_play.services import queue_join
from tests.games.factories import PlayerFactory
from tests.processes import WORKER_MARKS

POSTGRES = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row and advisory locks need PostgreSQL (CI)"
)
PLAYERS = 200
SEATS = 4
THREADS = 8
QUEUE = {"variant": "chickenfoot", "seat_count": SEATS, "preset": "quick"}


def in_threads(work: list[Callable[[], Any]], threads: int = THREADS) -> list[BaseException]:
    """Run ``work`` spread over ``threads`` threads started together; the errors raised."""
    barrier = threading.Barrier(threads)
    errors: list[BaseException] = []
    lock = threading.Lock()
    chunks = [work[i::threads] for i in range(threads)]

    def run(chunk: list[Callable[[], Any]]) -> None:
        try:
            barrier.wait(timeout=30)
            for call in chunk:
                call()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            with lock:
                errors.append(error)
        finally:
            connections.close_all()

    started = [threading.Thread(target=run, args=(chunk,)) for chunk in chunks]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join(timeout=300)
    return errors


def joins(players: list[Player]) -> list[Callable[[], Any]]:
    return [lambda p=p: queue_join(player=p, **QUEUE) for p in players]


def assert_everyone_in_one_full_match(players: list[Player]) -> None:
    entries = list(QueueEntry.objects.all())
    assert len(entries) == len(players)
    assert Counter(e.status for e in entries) == {"matched": len(players)}
    matches = Counter(e.match_id for e in entries)
    assert len(matches) == len(players) // SEATS
    assert set(matches.values()) == {SEATS}  # every table full, of humans
    seats = Seat.objects.filter(player__in=players).values_list("player_id", "match_id")
    seated = Counter(player for player, _ in seats)
    assert set(seated.values()) == {1}
    assert len(seated) == len(players)
    assert {e.match_id for e in entries} == {match for _, match in seats}
    assert set(Match.objects.values_list("status", flat=True)) <= {"playing", "finished"}
    assert not Seat.objects.filter(match__in=matches, player__isnull=True).exists()


@POSTGRES
@pytest.mark.django_db(transaction=True)
def test_two_hundred_players_joining_at_once_each_end_in_one_full_match(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # each join pairs in its own thread
    players = [PlayerFactory() for _ in range(PLAYERS)]
    pairings = [lambda: queue_pair(**QUEUE) for _ in range(THREADS * 4)]

    errors = in_threads([*joins(players), *pairings], threads=THREADS * 2)

    assert not errors, errors[:3]
    queue_pair(**QUEUE)  # nothing left to pair
    assert_everyone_in_one_full_match(players)


@POSTGRES
@pytest.mark.worker
@pytest.mark.skipif(*WORKER_MARKS[1].args, **WORKER_MARKS[1].kwargs)
@pytest.mark.django_db(transaction=True)
def test_with_the_worker_pairing_two_hundred_joins_each_end_in_one_full_match() -> None:
    players = [PlayerFactory() for _ in range(PLAYERS)]

    errors = in_threads(joins(players))

    assert not errors, errors[:3]
    deadline = time.monotonic() + 90
    while QueueEntry.objects.filter(status="waiting").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert_everyone_in_one_full_match(players)
