"""Celery tasks of the scoring app. A task takes ids, calls a service, and is idempotent."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from scoring.services import finalisation_failed, match_finalise, match_recompute


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=settings.COUNTDOWN_MAX_SECONDS,  # a retry is a countdown too
    max_retries=8,
)
def match_finalise_task(match_id: int) -> dict[str, Any]:
    """Finalise finished match ``match_id`` (results, ratings); a repeat finds nothing to do.

    Enqueued on commit of the move (or start) that ends a match, and again by the sweeper for
    a finished match still without results. Retried on database errors.
    """
    try:
        outcome = match_finalise(match_id=match_id)
    except OperationalError:
        raise  # retried (a database error passes)
    except Exception as exc:  # a bug: kept on the marker; the sweeper's attempts are bounded
        finalisation_failed(match_id=match_id, error=f"{type(exc).__name__}: {exc}", give_up=False)
        raise
    return {
        "match_id": match_id,
        "written": outcome.written,
        "failed": outcome.failed,
        "reason": outcome.reason,
    }


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=settings.COUNTDOWN_MAX_SECONDS,
    max_retries=8,
)
def match_recompute_task(match_id: int) -> dict[str, Any]:
    """Recompute corrected finished match ``match_id`` (results, standings, later ratings); a
    repeat finds nothing pending. Enqueued on commit of the correction, and again by the
    sweeper while the match's marker stays pending. Retried on database errors."""
    outcome = match_recompute(match_id=match_id)
    return {"match_id": match_id, "written": outcome.written, "reason": outcome.reason}
