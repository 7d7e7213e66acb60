"""Celery tasks of the games app. A task takes ids, calls a service, and is idempotent."""

from __future__ import annotations

import logging
import threading
import time

from celery import Task, shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError

from games.analysis.tasks import match_analyse  # noqa: F401 - the worker finds it here
from games.bot_matches import bot_turn_queue_of
from games.bot_thread import bot_thread_on_commit, bot_thread_takes
from games.enqueue import enqueue_on_commit
from games.jobs import Jobs, register_jobs
from games.notifications import delivery  # noqa: F401  (a worker registers push_deliver)
from games.quick_play.tasks import queue_pair_task  # noqa: F401 - the worker finds it here
from games.selectors import bot_strong_at
from games.services import bot_turn_play
from games.services.clock import clock_warn
from games.services.timeouts import clock_expire
from games.sweeps import sweeps_run

logger = logging.getLogger(__name__)


@shared_task
def ping() -> str:
    """Answer ``"pong"``: proves a message round-trips through the broker and a worker."""
    return "pong"


@shared_task
def user_count() -> int:
    """How many user accounts the worker's database holds: proves it reads the web's database."""
    return get_user_model().objects.count()


#: Bot moves one task plays at most, and for how long (seconds), before handing over to a fresh
#: task: a task stays far inside its time limit (and so inside the broker's visibility timeout).
BOT_MOVES_PER_TASK = 1000
BOT_RUN_SECONDS = 5.0
_driving = threading.local()

#: The options of a task that may meet the database down: acknowledged once it has run, and on
#: ``OperationalError`` retried, at most 5 times, after a backoff no longer than a countdown (a
#: retry is a countdown too).
_RETRIED = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": settings.COUNTDOWN_MAX_SECONDS,
    "max_retries": 5,
}


def bot_turn_enqueue_on_commit(*, match_id: int, version: int, queue: str) -> None:
    """Queue a bot's turn after commit, on ``queue`` (``games.bot_matches.bot_turn_queue``).
    Inside a running bot loop, the loop plays on instead."""
    if getattr(_driving, "active", False):
        return
    bot_turn_send_on_commit(match_id=match_id, queue=queue, version=version)


def bot_turn_send_on_commit(*, match_id: int, queue: str, version: int | None = None) -> None:
    """After commit, send ``bot_play_turn(match_id)`` to ``queue``; on the embedded default a
    match of bots only goes to this process's bot thread instead (``games.bot_thread``)."""
    if bot_thread_takes(queue=queue):
        bot_thread_on_commit(match_id=match_id)
        return
    args = (match_id,) if version is None else (match_id, version)
    enqueue_on_commit(bot_play_turn, *args, queue=queue)


@shared_task(bind=True, **_RETRIED)
def bot_play_turn(self: Task, match_id: int, version: int | None = None) -> int:
    """Play the bots' moves of ``match_id`` while a bot is to move; return how many were played.

    Acts on the match as it is now: ``version`` (the match's version when the task was queued)
    is only a hint for the logs, never a reason to give up while a bot is to move, so a task
    redelivered after a worker died, or re-queued by the sweeper, plays on. Idempotent: each move
    is applied under the match lock at the version it was chosen for (``bot_turn_play``), so a
    duplicate task applies nothing twice. One task plays a run of consecutive bot turns in a
    loop, so eager mode (the embedded default) does not recurse per move; a human's turn ends
    the run. A run hands over to a fresh task after ``BOT_MOVES_PER_TASK`` moves or
    ``BOT_RUN_SECONDS``, far inside the time limit; on a worker, a match with a strong bot
    (level 4: each of its moves is a search) hands over after every move, so a table of strong
    bots holds a worker for one move at a time. The fresh task goes to the queue of the match as
    it is then (``games.bot_matches``): a match of bots only plays on the bots' queue.
    """
    played, more = 0, False
    deadline = time.monotonic() + BOT_RUN_SECONDS
    one_per_task = _yields(match_id=match_id, eager=bool(self.request.is_eager))
    _driving.active = True
    try:
        while bot_turn_play(match_id=match_id) is not None:
            played += 1
            if one_per_task or played >= BOT_MOVES_PER_TASK or time.monotonic() >= deadline:
                more = True
                break
    finally:
        _driving.active = False
    logger.debug("match %s: %s bot moves played (queued at version %s)", match_id, played, version)
    if more:  # the cap (moves or seconds), or a yield: a fresh task carries on
        bot_turn_send_on_commit(match_id=match_id, queue=bot_turn_queue_of(match_id=match_id))
    return played


def _yields(*, match_id: int, eager: bool) -> bool:
    """Does a run of ``match_id``'s bot moves end after each move? On a worker, when a strong
    bot sits at the table; run eagerly (no worker to free, and a fresh task would recurse) the
    run plays on."""
    return not eager and bot_strong_at(match_id=match_id)


@shared_task(ignore_result=True)
def sweep() -> dict[str, int]:
    """Run every sweep (``games.sweeps``); Celery beat sends this every few seconds."""
    return sweeps_run()


@shared_task(**_RETRIED)
def clock_warn_task(match_id: int, version: int) -> bool:
    """Warn the seat to move that its clock is running out, if the match is still at ``version``."""
    return clock_warn(match_id=match_id, version=version)


@shared_task(**_RETRIED)
def clock_expire_task(match_id: int, version: int) -> int | None:
    """Play for the seat whose clock ran out, if the match is still at ``version`` (idempotent)."""
    return clock_expire(match_id=match_id, version=version)


register_jobs(
    Jobs(
        bot_turn_enqueue_on_commit=bot_turn_enqueue_on_commit,
        bot_turn_send_on_commit=bot_turn_send_on_commit,
        bot_play_turn=bot_play_turn,
        clock_warn=clock_warn_task,
        clock_expire=clock_expire_task,
    )
)
