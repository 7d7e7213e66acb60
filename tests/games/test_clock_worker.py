"""Turn clocks running out in a real worker (CI: ``CELERY_WORKER_EXPECTED=1``).

Nobody plays: the worker warns each seat, plays its timed-out turn and hands it to a bot; the
bots finish the match. A socket on the Redis channel layer sees it all happen. Then clocks longer
than the broker's visibility timeout, in a worker and beat of the test's own whose visibility
timeout is 3 s: each warning and each expiry happens once.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from chickenfoot.celery import app as celery_app
from games.models import Match, Move, Player, Seat
from games.services import SeatSpec, match_create, match_start, seat_join
from scoring.models import MatchFinalisation
from tests.conftest import broker_at
from tests.games.live import close_code, frames_until, next_frame, open_socket
from tests.processes import WORKER_MARKS, Celery, RedisServer, own_redis_and_celery

pytestmark = [*WORKER_MARKS, pytest.mark.asyncio]


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


#: The test's own broker: a visibility timeout of 3 s, task time limit 2 s, so no countdown is
#: longer than 1 s; its beat sweeps every second. The clock (8 s) outlasts the visibility timeout.
VISIBILITY, TIME_LIMIT, SWEEP_EVERY, TURN_SECONDS, TURNS = 3, 2, 1, 8, 3


@pytest.fixture
def short_visibility(settings: Any) -> Iterator[tuple[Celery, RedisServer]]:
    """A Redis of our own, and a worker and beat on it with a 3 s visibility timeout; the
    sockets' channel layer stays the test's, so the worker's frames reach our socket."""
    settings.COUNTDOWN_MAX_SECONDS = VISIBILITY - TIME_LIMIT  # as the worker computes it
    with own_redis_and_celery(
        CHANNELS_REDIS_URL=settings.CHANNELS_REDIS_URL,
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY),
        CELERY_TASK_TIME_LIMIT=str(TIME_LIMIT),
        CELERY_TASK_SOFT_TIME_LIMIT=str(TIME_LIMIT - 1),
        SWEEP_INTERVAL_SECONDS=str(SWEEP_EVERY),
    ) as own:
        yield own.celery, own.redis


async def test_clocks_longer_than_the_visibility_timeout_warn_and_expire_once_per_turn(
    short_visibility: tuple[Celery, RedisServer], players: list[Player]
) -> None:
    # given: our worker and beat; two humans, neither of whom plays
    celery, redis = short_visibility
    await db(celery.worker)("clocks")
    await db(celery.beat)()
    match = await db(match_create)(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec("creator"), SeatSpec("open")],
        options={"rounds": 1, "turn_seconds": TURN_SECONDS, "timeouts_to_takeover": 100},
    )
    await db(seat_join)(match_id=match.pk, player=players[1])
    socket = await open_socket(match.pk, players[0])
    assert (await next_frame(socket))["type"] == "hello"

    # when: the match starts, and three turns run out
    with broker_at(redis.url):
        await db(match_start)(match_id=match.pk, player=players[0])
    frames: list[dict[str, Any]] = []
    deadline = time.monotonic() + TURNS * TURN_SECONDS + 30
    while sum(f["type"] == "move" for f in frames) < TURNS:
        frames.append(await next_frame(socket, max(0.01, deadline - time.monotonic())))
    await asyncio.sleep(VISIBILITY + 5)  # time for any copy to be handed out again
    while not await socket.receive_nothing(timeout=0.5):  # a second warning would be here
        frames.append(await next_frame(socket))
    await socket.disconnect()

    # then: each turn that ran out was warned once, before its timed-out move
    timed_out = [f for f in frames if f["type"] == "move"][:TURNS]
    assert all(f["timed_out"] for f in timed_out)
    warned = Counter(f["version"] for f in frames if f["type"] == "clock_warning")
    assert all(count == 1 for count in warned.values()), warned
    assert all(warned[f["version"] - 1] == 1 for f in timed_out), (warned, timed_out)
    order = [(f["type"], f.get("version")) for f in frames]
    for move in timed_out:
        assert order.index(("clock_warning", move["version"] - 1)) < frames.index(move)
    # and: our worker acted at most once per version and kind (CI's own beat and worker sweep
    # this database too, and may act first), and no message was handed to it twice
    log = celery.tail(100_000)
    acted = Counter(re.findall(rf"clock: match {match.pk} v(\d+): seat \d+ (warned|ran out)", log))
    assert all(count == 1 for count in acted.values()), acted
    received = re.findall(r"Task (games\.tasks\.\w+)\[([0-9a-f-]+)\] received", log)
    assert all(count == 1 for count in Counter(received).values()), Counter(received)
    assert not any(name.startswith("games.tasks.clock_") for name, _ in received)
