"""The sweeper's part: an analysis whose task was lost is queued again."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from .models import MatchAnalysis
from .services import analysis_send_on_commit

#: Analyses queued again per sweep at most.
SWEEP_BATCH = 100


def analysis_stale(*, now: datetime) -> int:
    """Queue again every running analysis untouched for ``ANALYSIS_STALE_SECONDS`` (its message
    lost, its worker dead); claiming one moves its ``queued_at`` to ``now`` (compare-and-set),
    so it is queued at most once per interval."""
    stale = now - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)
    running = MatchAnalysis.objects.filter(status=MatchAnalysis.Status.RUNNING)
    waiting = list(
        running.filter(queued_at__lt=stale)
        .order_by("queued_at")
        .values_list("match_id", "queued_at")[:SWEEP_BATCH]
    )
    queued = 0
    for match_id, since in waiting:
        if running.filter(match_id=match_id, queued_at=since).update(queued_at=now):
            analysis_send_on_commit(match_id=match_id)
            queued += 1
    return queued
