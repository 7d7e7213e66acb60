"""The tasks games' services and sweeps queue, as a port the tasks module fills in.

``games.tasks`` calls the services (a task takes ids and calls a service), so the services never
import it: an import-linter contract (pyproject.toml) forbids ``games.services`` and
``games.sweeps`` to import ``games.tasks``. They reach the tasks through ``games_jobs()``;
``games.tasks`` registers them with ``register_jobs`` when it is imported, and
``games.apps.GamesConfig.ready`` imports it, so every process that runs a service (the web, a
worker, the tests) has them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from celery import Task


class BotTurnEnqueue(Protocol):
    def __call__(self, *, match_id: int, version: int, queue: str) -> None:
        """Queue the bots' turns of ``match_id`` on ``queue`` after commit."""


class BotTurnSend(Protocol):
    def __call__(self, *, match_id: int, queue: str, version: int | None = None) -> None:
        """Send the bots' turns of ``match_id`` to ``queue`` after commit, even from a bot loop."""


@dataclass(frozen=True)
class Jobs:
    """The tasks of the games app that other modules of it queue."""

    #: Queue the bots' turns after commit (inside a running bot loop, the loop plays on instead).
    bot_turn_enqueue_on_commit: BotTurnEnqueue
    #: Send the bots' turns after commit (the sweeper's re-queue; on the embedded default a match
    #: of bots only goes to the process's bot thread).
    bot_turn_send_on_commit: BotTurnSend
    #: ``(match_id, version=None)``: play the bots' moves while a bot is to move.
    bot_play_turn: Task
    #: ``(match_id, version)``: warn the seat to move that its clock is running out.
    clock_warn: Task
    #: ``(match_id, version)``: play for the seat whose clock ran out.
    clock_expire: Task


_jobs: Jobs | None = None


def register_jobs(jobs: Jobs) -> None:
    """Called once, by ``games.tasks`` as it is imported."""
    global _jobs  # the one registration point, set at start-up
    _jobs = jobs


def games_jobs() -> Jobs:
    """The registered tasks (``games.tasks`` is imported when the games app is ready)."""
    if _jobs is None:
        raise RuntimeError("games.tasks has not registered its jobs: is the games app ready?")
    return _jobs
