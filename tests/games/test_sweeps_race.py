"""Sweepers racing on PostgreSQL (two beats, or a sweep overlapping the next): nothing doubles."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import sweeps, tasks
from games.models import Match, Player
from games.services import SeatSpec, match_create, match_start

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]

SWEEPERS, MATCHES = 4, 6


def test_racing_sweepers_queue_each_waiting_bot_turn_once(
    players: list[Player], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: matches with a bot to move whose turns were never sent
    sent: list[int] = []
    lock = threading.Lock()

    def record(**kw: Any) -> None:
        with lock:
            sent.append(kw["args"][0])

    monkeypatch.setattr(tasks.bot_play_turn, "apply_async", record)
    specs = [SeatSpec(kind="bot", level=1), SeatSpec(kind="bot", level=2)]
    ids = []
    for index in range(MATCHES):  # no player has more matches of bots than one may
        creator = players[index % len(players)]
        match = match_create(creator=creator, variant="chickenfoot", seats=specs)
        match_start(match_id=match.pk, player=creator)
        ids.append(match.pk)
    sent.clear()
    Match.objects.filter(pk__in=ids).update(bot_turn_since=timezone.now())
    # the sweepers look from a moment when they are stale (a real sweeper sees them fresh)
    settings.BOT_TURN_STALE_SECONDS = 10
    later = timezone.now() + timedelta(seconds=11)

    # when: several sweepers run at the same moment, each on its own connection
    barrier = threading.Barrier(SWEEPERS)
    counts = [0] * SWEEPERS

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            counts[i] = sweeps.bot_turns(now=later)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(SWEEPERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    # then: every match's turn was sent exactly once, whoever claimed it
    assert sum(counts) == MATCHES
    assert sorted(sent) == sorted(ids)
