"""The analysis task: a slice of a finished match's analysis, on the bots' queue."""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError

from .services import analysis_requeued, analysis_run, analysis_send_on_commit


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=settings.COUNTDOWN_MAX_SECONDS,
    max_retries=5,
)
def match_analyse(self: Task, match_id: int) -> bool:
    """Analyse the next slice of ``match_id``'s moves (``analysis_run``) and queue the next
    slice if any is left; run eagerly (no worker to free), analyse to the end. Idempotent."""
    eager = bool(self.request.is_eager)
    more = analysis_run(match_id=match_id, slice_seconds=0 if eager else None)
    if more:
        analysis_requeued(match_id=match_id)
        analysis_send_on_commit(match_id=match_id)
    return more
