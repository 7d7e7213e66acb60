"""Celery tasks of the games app. A task takes ids, calls a service, and is idempotent."""

from __future__ import annotations

import threading

from celery import Task, shared_task
from django.contrib.auth import get_user_model
from django.db import OperationalError

from games.services import bot_turn_play


@shared_task
def ping() -> str:
    """Answer ``"pong"``: proves a message round-trips through the broker and a worker."""
    return "pong"


@shared_task
def user_count() -> int:
    """How many user accounts the worker's database holds: proves it reads the web's database."""
    return get_user_model().objects.count()


#: Bot moves one task plays at most before handing over to a fresh task.
BOT_MOVES_PER_TASK = 1000
_driving = threading.local()


def enqueue_bot_turn(match_id: int, version: int) -> None:
    """Queue a bot's turn (called on commit). Inside a running bot loop, the loop plays on."""
    if getattr(_driving, "active", False):
        return
    bot_play_turn.delay(match_id, version)


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def bot_play_turn(self: Task, match_id: int, expected_version: int) -> int:
    """Play the bots' moves of ``match_id`` while a bot is to move; return how many were played.

    Idempotent: it plays only if the match is still at ``expected_version`` (a late or repeated
    task does nothing). One task plays a run of consecutive bot turns in a loop, so eager mode
    (the embedded default) never recurses; a human's turn ends the run.
    """
    played = 0
    version: int | None = expected_version
    _driving.active = True
    try:
        while version is not None and played < BOT_MOVES_PER_TASK:
            version = bot_turn_play(match_id=match_id, expected_version=version)
            if version is not None:
                played += 1
    finally:
        _driving.active = False
    if version is not None:  # the cap: a fresh task carries on
        bot_play_turn.delay(match_id, version)
    return played
