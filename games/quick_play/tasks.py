"""The pairing task, and asking for it: queued after a join commits; the sweeper pairs every
queue as well.

A join asks for its queue's pairing only when none is pending: a flag per queue in the shared
cache (``cache.add``), which the task clears as it starts, before it reads the queue. A join
that finds the flag set has committed before the pending task reads, so that task seats it; a
join after the task has started sets the flag again and queues another. So a thousand joins at
once make a few pairings, not a thousand. The flag expires after ``PENDING_SECONDS`` (a lost
message holds nothing up for long, and the sweeper pairs meanwhile); with the cache out of
reach every join queues its pairing.
"""

from __future__ import annotations

import logging
from functools import partial

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError, transaction

from chickenfoot.cache_outage import CACHE_ERRORS
from games.enqueue import enqueue_now
from games.quick_play.pairing import queue_drain

logger = logging.getLogger(__name__)

#: How long a queue's "pairing pending" flag lives at most (seconds).
PENDING_SECONDS = 30


def _pending_key(variant: str, seat_count: int, preset: str) -> str:
    return f"quick-play:pending:{variant}:{seat_count}:{preset}"


def queue_pair_on_commit(*, variant: str, seat_count: int, preset: str) -> None:
    """Once the transaction commits, queue the queue's pairing unless one is pending."""
    transaction.on_commit(partial(_queue_pair_ask, variant, seat_count, preset))


def _queue_pair_ask(variant: str, seat_count: int, preset: str) -> None:
    try:
        fresh = cache.add(_pending_key(variant, seat_count, preset), 1, PENDING_SECONDS)
    except CACHE_ERRORS:
        logger.warning("Quick play: the cache is unavailable: the pairing is queued anyway")
        fresh = True
    if fresh:
        enqueue_now(queue_pair_task, variant, seat_count, preset)


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=settings.COUNTDOWN_MAX_SECONDS,
    max_retries=5,
    ignore_result=True,
)
def queue_pair_task(variant: str, seat_count: int, preset: str) -> int:
    """Fill what tables the queue can fill now; how many matches started. Idempotent: pairing
    reads the queue as it is, under its lock. A queue with more to pair than one run's time
    (``DRAIN_SECONDS``) is handed to a fresh task, far inside the time limit."""
    try:
        cache.delete(_pending_key(variant, seat_count, preset))
    except CACHE_ERRORS:
        logger.warning("Quick play: the cache is unavailable: its pending flag is left to expire")
    started, more = queue_drain(variant=variant, seat_count=seat_count, preset=preset)
    if more:
        enqueue_now(queue_pair_task, variant, seat_count, preset)
    return started
