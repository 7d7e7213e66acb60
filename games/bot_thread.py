"""The turns of matches of bots only on the embedded default: a background thread, not the request.

With no broker (the embedded default) Celery runs a task eagerly, in the request that committed:
a bot's turn after a person's move is answered with the move, which is what a person playing
bots wants. A match of bots only has nobody waiting on it, and run eagerly its start would
answer only once the whole match had been played. So, while ``settings.BOTS_IN_BACKGROUND``
holds and tasks run eagerly, the turns that would go to the bots' queue (``games.bot_matches``)
go to this process's bot thread instead: the start answers at once (``playing``) and the match
plays on.

One thread per process (started on first use, again after a fork), fed by a queue of match ids.
The thread plays one bot move of a match at a time, each move its own transaction
(``bot_turn_play``, under the match lock like any client's move); the move's commit queues the
match's next turn again, at the back, so matches of bots only take turns. A match waits in the
queue once however often it is queued. A move the database refuses (busy, out of reach) is
tried again a few times, as a task is; one that still fails, or fails otherwise, is logged and
left to the sweeper (``games.sweeps.bot_turns``). The thread closes its database connections
when it has nothing to play. With a broker (``REDIS_URL``) none of this runs: the bots' worker
plays them.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque

from django.conf import settings
from django.db import OperationalError, close_old_connections, connections, transaction

from chickenfoot.celery import app as celery_app
from games.services import bot_turn_play

logger = logging.getLogger(__name__)

#: Times a turn the database refused (``OperationalError``: busy, out of reach) is tried again,
#: after 0.1 s, 0.2 s, 0.4 s...; then it is left to the sweeper.
RETRIES = 5
RETRY_SECONDS = 0.1


def bot_thread_takes(*, queue: str) -> bool:
    """Do the turns sent to ``queue`` play in this process's bot thread (see above)?"""
    return (
        bool(settings.BOTS_IN_BACKGROUND)
        and bool(celery_app.conf.task_always_eager)
        and queue == settings.BOTS_QUEUE
    )


def bot_thread_on_commit(*, match_id: int) -> None:
    """After commit, queue match ``match_id``'s bot turn for the bot thread."""
    transaction.on_commit(lambda: _runner.submit(match_id), robust=True)


def bot_thread_idle() -> bool:
    """Is the bot thread doing nothing, with nothing queued?"""
    return _runner.idle()


class _Runner:
    """The queue of match ids and the thread that plays their bot turns."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ready = threading.Condition(self.lock)
        self.waiting: deque[int] = deque()
        self.busy = False
        #: match id -> turns refused by the database in a row.
        self.failures: dict[int, int] = {}
        self.pid = 0
        self.thread: threading.Thread | None = None

    def submit(self, match_id: int) -> None:
        with self.lock:
            if self.thread is None or self.pid != os.getpid() or not self.thread.is_alive():
                self.waiting.clear()  # a fork's copy: its parent's thread is not ours
                self.pid = os.getpid()
                self.thread = threading.Thread(target=self._run, name="bot-turns", daemon=True)
                self.busy = True  # until it finds the queue empty
                self.thread.start()
            if match_id not in self.waiting:
                self.waiting.append(match_id)
                self.ready.notify()

    def idle(self) -> bool:
        with self.lock:
            return not self.waiting and not self.busy

    def _run(self) -> None:
        while True:
            match_id = self._next()
            if _play_one(match_id):
                self.failures.pop(match_id, None)
                continue
            failures = self.failures.get(match_id, 0) + 1
            if failures > RETRIES:
                self.failures.pop(match_id, None)
                logger.error(
                    "bot thread: match %s failed %d times in a row; the sweeper will retry it",
                    match_id,
                    failures,
                )
                continue
            self.failures[match_id] = failures
            time.sleep(min(RETRY_SECONDS * 2 ** (failures - 1), 2.0))
            self.submit(match_id)

    def _next(self) -> int:
        """The next match to play a turn of, waiting for one (connections closed meanwhile)."""
        with self.lock:
            if self.waiting:
                return self.waiting.popleft()
            self.busy = False
        connections.close_all()  # this thread's own: nothing to play for now
        with self.lock:
            while not self.waiting:
                self.ready.wait()
            self.busy = True
            return self.waiting.popleft()


def _play_one(match_id: int) -> bool:
    """One bot move of ``match_id`` if a bot is to move, in its own transaction; ``False`` if the
    database refused it (busy, out of reach: retried), ``True`` otherwise."""
    close_old_connections()
    try:
        bot_turn_play(match_id=match_id)
    except OperationalError:
        logger.warning("bot thread: a turn of match %s failed; retrying", match_id, exc_info=True)
        return False
    except Exception:
        logger.exception(
            "bot thread: a turn of match %s failed; the sweeper will retry it", match_id
        )
    finally:
        close_old_connections()
    return True


_runner = _Runner()
