"""Turn clocks (house option ``turn_seconds``): a human who runs out of time is played for.

Every move (and the start) sets ``Match.turn_deadline`` when a human is to move and the match
has a clock. After commit two tasks are scheduled for that version: a warning when a quarter of
the time is left, and the expiry. Both act only if the match is still at that version, so a
turn that has moved on is never touched; a sweep (``clock_sweep``) re-enqueues expiries whose
task was lost. On expiry the server plays the level-2 bot's choice for the seat through the
move path (under the match lock), marks the move ``timed_out``, and after
``timeouts_to_takeover`` timeouts in a row a bot takes the seat over for the rest of the match.
"""

from __future__ import annotations

import logging
import random
import threading
import weakref
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone

from chickenfoot.celery import app as celery_app
from games import bots, engine
from games.live import publish as live
from games.models import Match, Seat
from games.selectors import bot_seat_info
from games.services.common import bot_turn_schedule, match_lock

logger = logging.getLogger(__name__)

#: The share of the turn left when the seat is warned.
WARN_AT = 0.75
#: Seconds a sweep lets a deadline pass before it re-enqueues the expiry (the task's own margin).
SWEEP_GRACE = 5


def turn_deadline(*, match: Match, now: datetime) -> datetime | None:
    """When the seat to move runs out of time, or ``None`` (no clock, a bot to move, no play)."""
    seconds = (match.options or {}).get("turn_seconds")
    if not seconds or match.status != Match.Status.PLAYING:
        return None
    if (match.state or {}).get("turn") in match.bot_seats:
        return None
    return now + timedelta(seconds=seconds)


def on_commit_clock(*, match: Match) -> None:
    """After commit, schedule the warning and the expiry of the clock ``match`` now runs."""
    deadline = match.turn_deadline
    if deadline is None:
        return
    match_id, version = match.pk, match.version
    callback: Callable[[], None] = lambda: clock_schedule(  # noqa: E731
        match_id=match_id, version=version, deadline=deadline
    )
    transaction.on_commit(callback, robust=True)  # a failure is logged, never raised


def clock_schedule(*, match_id: int, version: int, deadline: datetime) -> None:
    """Schedule the warning and the expiry: Celery countdowns, or timers without a broker.

    On the embedded default (no broker, tasks run eagerly) a countdown would run at once, so
    the process keeps two timers instead (``CLOCK_IN_PROCESS``). A failure is logged: the
    sweep finds an expired clock whatever happened to its task.
    """
    from games.tasks import clock_expire_task, clock_warn_task  # tasks import services

    left = max(0.0, (deadline - timezone.now()).total_seconds())
    warn_in = left * WARN_AT
    try:
        if celery_app.conf.task_always_eager:
            if settings.CLOCK_IN_PROCESS:
                _timer(warn_in, clock_warn_task, match_id, version)
                _timer(left + 0.05, clock_expire_task, match_id, version)
            return
        clock_warn_task.apply_async((match_id, version), countdown=warn_in)
        clock_expire_task.apply_async((match_id, version), countdown=left + 0.05)
    except Exception:
        logger.warning("clock: could not schedule match %s v%s", match_id, version, exc_info=True)


def _timer(delay: float, task: object, match_id: int, version: int) -> None:
    def run() -> None:
        close_old_connections()
        try:
            task(match_id, version)  # type: ignore[operator]
        except Exception:
            logger.warning("clock: timer for match %s failed", match_id, exc_info=True)
        finally:
            close_old_connections()

    timer = threading.Timer(delay, run)
    timer.daemon = True
    _timers.add(timer)
    timer.start()


#: The in-process timers not yet run (``CLOCK_IN_PROCESS``).
_timers: weakref.WeakSet[threading.Timer] = weakref.WeakSet()


def clock_timers_cancel() -> None:
    """Cancel every in-process timer not yet run (a process that stops, a test that ends)."""
    for timer in list(_timers):
        timer.cancel()


def clock_warn(*, match_id: int, version: int) -> bool:
    """Tell the match's sockets that the seat to move is running out of time (if it still is)."""
    match = (
        Match.objects.filter(pk=match_id)
        .only("status", "version", "turn_deadline", "state")
        .first()
    )
    if (
        match is None
        or match.status != Match.Status.PLAYING
        or match.version != version
        or match.turn_deadline is None
    ):
        return False
    left = (match.turn_deadline - timezone.now()).total_seconds()
    live.publish(
        match_id=match_id,
        message={
            "type": live.NOTICE,
            "frame": {
                "type": "clock_warning",
                "version": version,
                "seat": (match.state or {}).get("turn"),
                "deadline": match.turn_deadline.isoformat(),
                "seconds_left": round(max(left, 0.0), 1),
            },
        },
    )
    return True


def clock_expire(*, match_id: int, version: int) -> int | None:
    """Play for the seat whose clock ran out, if the match is still at ``version``.

    Returns the new version, or ``None`` when there was nothing to do (the turn moved on, the
    clock has time left, the match is over). Takes the match lock; idempotent.
    """
    from games.services.leaving import seat_take_over
    from games.services.moves import timed_out_move  # moves imports this module

    with transaction.atomic():
        match = match_lock(match_id=match_id)
        now = timezone.now()
        if (
            match.status != Match.Status.PLAYING
            or match.version != version
            or match.turn_deadline is None
            or match.turn_deadline > now
        ):
            return None
        seat = match.state["turn"]  # type: ignore[index]
        if seat in match.bot_seats:
            return None
        state = engine.from_json(match.state)  # type: ignore[arg-type]
        rng = random.Random(f"{match.seed}:{version}:timeout")
        info = bot_seat_info(match=match, state=state, seat=seat, with_log=False)
        chosen = bots.choose_move(info, 2, rng)
        timed_out_move(match=match, seat=seat, move=chosen.to_json())
        limit = match.options.get("timeouts_to_takeover") or 0
        if limit and match.timeouts_in_row[seat] >= limit:
            seat_take_over(match=match, position=seat, reason=Seat.Left.TIMED_OUT)
            live.on_commit_moved(match_id=match.pk, seq=match.moves_played, version=match.version)
            bot_turn_schedule(match=match)  # the seat may be to move again (MT-DOUBLE)
            match.save(
                update_fields=["bot_seats", "version", "turn_deadline", "bot_turn_since"]
            )
        return match.version


def clock_sweep(*, now: datetime) -> int:
    """The sweeper's sweep (``settings.SWEEPS``): expire again every clock the tasks missed.

    A clock that ran out more than ``SWEEP_GRACE`` seconds ago without its task having played
    (a lost message, a dead worker) is claimed with a compare-and-set on its deadline (moved to
    ``now``, so a sweeper racing this one, or the next run, finds nothing to claim) and its
    expiry queued again. The task acts only if the match is still at that version.
    """
    from games.enqueue import enqueue_now
    from games.tasks import clock_expire_task  # tasks import services: import here

    limit = now - timedelta(seconds=SWEEP_GRACE)
    expired = list(
        Match.objects.filter(status=Match.Status.PLAYING, turn_deadline__lt=limit)
        .order_by("turn_deadline")
        .values_list("pk", "version", "turn_deadline")[:500]
    )
    queued = 0
    for pk, version, deadline in expired:
        claimed = Match.objects.filter(pk=pk, version=version, turn_deadline=deadline).update(
            turn_deadline=now
        )
        if claimed:
            enqueue_now(clock_expire_task, pk, version)
            queued += 1
    return queued
