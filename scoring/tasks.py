"""Celery tasks of the scoring app. A task takes ids, calls a service, and is idempotent."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from scoring.services import match_finalise


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=8,
)
def match_finalise_task(match_id: int) -> dict[str, Any]:
    """Finalise finished match ``match_id`` (results, ratings); a repeat finds nothing to do.

    Enqueued on commit of the move (or start) that ends a match, and again by the sweeper for
    a finished match still without results. Retried on database errors.
    """
    outcome = match_finalise(match_id=match_id)
    return {"match_id": match_id, "written": outcome.written, "reason": outcome.reason}


def enqueue_match_finalise(match_id: int) -> None:
    """Queue the finalisation of ``match_id`` (call on commit)."""
    match_finalise_task.delay(match_id)
