"""Turn clocks (house option ``turn_seconds``): a human who runs out of time is played for.

Every move (and the start) sets ``Match.turn_deadline`` when a human is to move and the match
has a clock, and ``Match.turn_warn_at``, when a quarter of the time is left. The sweep
(``games.services.timeouts.clock_sweep``, every ``SWEEP_INTERVAL_SECONDS``) finds the clocks
that are due, by those two indexed columns: it warns the seat (``clock_warn``, here), or plays
for it (``clock_expire``, in ``timeouts``: it plays through the moves and leaving, which use this
module, so this module imports neither). A warning or an expiry due sooner than
``COUNTDOWN_MAX_SECONDS`` also gets a countdown task, sent after commit, so that a short clock is
on time; no task is ever sent with a longer countdown, since a worker holds a countdown's
message unacknowledged and Redis hands it out again after the visibility timeout.

Each happens once, however many sweepers, tasks and redeliveries try: the warning is claimed
with a compare-and-set (``turn_warn_at`` emptied at that version: the one update that changes a
row sends it), the expiry under the match lock at that version (the timed-out move changes the
version). On expiry the server plays the level-2 bot's choice for the seat through the move path,
marks the move ``timed_out``, and after ``timeouts_to_takeover`` timeouts in a row a bot takes the
seat over for the rest of the match.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone

from chickenfoot.celery import app as celery_app
from games.jobs import games_jobs
from games.live import publish as live
from games.models import Match

logger = logging.getLogger(__name__)

#: The share of the turn left when the seat is warned.
WARN_AT = 0.75
#: Seconds a countdown task is sent after its moment, so that it never finds itself early.
COUNTDOWN_MARGIN = 0.05


def turn_deadline(*, match: Match, now: datetime) -> datetime | None:
    """When the seat to move runs out of time, or ``None`` (no clock, a bot to move, no play)."""
    seconds = (match.options or {}).get("turn_seconds")
    if not seconds or match.status != Match.Status.PLAYING:
        return None
    if (match.state or {}).get("turn") in match.bot_seats:
        return None
    return now + timedelta(seconds=seconds)


def clock_start(*, match: Match, now: datetime) -> None:
    """Start the clock of the seat to move, or stop it: ``turn_deadline`` and ``turn_warn_at``.

    The caller saves both fields (and calls ``on_commit_clock``).
    """
    match.turn_deadline = turn_deadline(match=match, now=now)
    match.turn_warn_at = (
        None if match.turn_deadline is None else now + (match.turn_deadline - now) * WARN_AT
    )


def clock_stop(*, match: Match) -> None:
    """No clock runs (a bot is to move, the match is over): the caller saves both fields."""
    match.turn_deadline = match.turn_warn_at = None


def on_commit_clock(*, match: Match) -> None:
    """After commit, send the countdowns of the clock ``match`` now runs, if they are near."""
    deadline = match.turn_deadline
    if deadline is None:
        return
    match_id, version, warn_at = match.pk, match.version, match.turn_warn_at
    callback: Callable[[], None] = lambda: clock_schedule(  # noqa: E731
        match_id=match_id, version=version, deadline=deadline, warn_at=warn_at
    )
    transaction.on_commit(callback, robust=True)  # a failure is logged, never raised


def clock_schedule(
    *, match_id: int, version: int, deadline: datetime, warn_at: datetime | None
) -> None:
    """Send a countdown for the warning and for the expiry that are due within
    ``COUNTDOWN_MAX_SECONDS``; the sweep finds the others when their time comes.

    ``warn_at`` is ``None`` once the warning has gone out (a seat that left kept the clock of the
    human to move running at a new version). On the embedded default (no broker, tasks run
    eagerly) a countdown would run at once, so the process keeps timers instead
    (``CLOCK_IN_PROCESS``), whatever their length. A failure is logged: the sweep finds every
    due clock whatever happened to its task.
    """
    jobs = games_jobs()
    now = timezone.now()
    left = max(0.0, (deadline - now).total_seconds()) + COUNTDOWN_MARGIN
    due = [(left, jobs.clock_expire)]
    if warn_at is not None:
        due.append((max(0.0, (warn_at - now).total_seconds()) + COUNTDOWN_MARGIN, jobs.clock_warn))
    try:
        if celery_app.conf.task_always_eager:
            if settings.CLOCK_IN_PROCESS:
                for delay, task in due:
                    _timer(delay, task, match_id, version)
            return
        for delay, task in due:
            if delay <= settings.COUNTDOWN_MAX_SECONDS:
                task.apply_async((match_id, version), countdown=delay, ignore_result=True)
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
    """Tell the match's sockets that the seat to move is running out of time, once per turn.

    Acts only if the match is still at ``version`` and its warning is due and not yet sent; the
    warning is claimed first (``turn_warn_at`` emptied by a compare-and-set), so of any number
    of sweeps, tasks and redeliveries trying at once exactly one sends it. A sweep that comes
    after the deadline still sends it (``seconds_left`` 0), just before it plays for the seat:
    every turn that runs out is warned once. Returns whether this call sent it.
    """
    now = timezone.now()
    row = (
        Match.objects.filter(
            pk=match_id, version=version, status=Match.Status.PLAYING, turn_warn_at__lte=now
        )
        .values("turn_warn_at", "turn_deadline", "state__turn")
        .first()
    )
    if row is None:
        return False
    claimed = Match.objects.filter(
        pk=match_id, version=version, turn_warn_at=row["turn_warn_at"]
    ).update(turn_warn_at=None)
    deadline: datetime | None = row["turn_deadline"]
    if claimed != 1 or deadline is None:
        return False
    live.publish(
        match_id=match_id,
        message={
            "type": live.NOTICE,
            "frame": {
                "type": "clock_warning",
                "version": version,
                "seat": row["state__turn"],
                "deadline": deadline.isoformat(),
                "seconds_left": round(max((deadline - now).total_seconds(), 0.0), 1),
            },
        },
    )
    logger.info("clock: match %s v%s: seat %s warned", match_id, version, row["state__turn"])
    return True
