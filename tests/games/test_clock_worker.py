"""A turn clock running out in the real worker (CI: ``CELERY_WORKER_EXPECTED=1``).

Nobody plays: the worker's countdowns warn each seat, play its timed-out turn and hand it to a
bot; the bots finish the match. A socket on the Redis channel layer sees it all happen.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from chickenfoot.celery import app as celery_app
from games.models import Match, Move, Player, Seat
from games.services import SeatSpec, match_create, match_start, seat_join
from scoring.models import MatchFinalisation
from tests.games.live import close_code, frames_until, next_frame, open_socket

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(
        os.environ.get("CELERY_WORKER_EXPECTED") != "1",
        reason="no worker expected: set REDIS_URL, start a worker, and CELERY_WORKER_EXPECTED=1",
    ),
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]


def start(players: list[Player]) -> Match:
    match = match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec("creator"), SeatSpec("open")],
        options={"rounds": 1, "hand_size": 6, "turn_seconds": 1, "timeouts_to_takeover": 1},
    )
    seat_join(match_id=match.pk, player=players[1])
    return match


async def test_nobody_plays_and_the_clock_finishes_the_match(
    settings: Any, players: list[Player]
) -> None:
    assert celery_app.conf.task_always_eager is False
    assert "redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower()
    match = await db(start)(players)
    socket = await open_socket(match.pk, players[0])
    assert (await next_frame(socket))["type"] == "hello"

    # when: the match starts and nobody moves
    await db(match_start)(match_id=match.pk, player=players[0])

    # then: the seat to move is warned, played for, and handed to a bot; the bots finish
    frames = await frames_until(socket, lambda f: f["type"] == "match_over", timeout=60)
    kinds = [f["type"] for f in frames]
    assert "clock_warning" in kinds
    assert kinds.index("clock_warning") < kinds.index("move")
    first_move = next(f for f in frames if f["type"] == "move")
    assert first_move["timed_out"] is True
    assert {f["seat"] for f in frames if f["type"] == "seat_left"} == {0, 1}
    assert await close_code(socket) == 4000

    match = await db(Match.objects.get)(pk=match.pk)
    assert match.status == Match.Status.FINISHED
    assert {row["left"] for row in match.standings} == {"timed_out"}
    lefts = await db(lambda: set(Seat.objects.filter(match=match).values_list("left", flat=True)))()
    assert lefts == {"timed_out"}
    timed_out = await db(Move.objects.filter(match=match, timed_out=True).count)()
    assert timed_out == 2  # one each, then the bots
    # The worker writes the results after the last move: let it finish before the database is
    # flushed for the next test (a flush racing those writes can deadlock).
    written = MatchFinalisation.objects.filter(match_id=match.pk, finalised_at__isnull=False)
    for _ in range(600):
        if await db(written.exists)():
            break
        await asyncio.sleep(0.1)
