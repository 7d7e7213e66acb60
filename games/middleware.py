"""Middleware of the games app."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games.sweeps import sweeps_run

logger = logging.getLogger(__name__)


class SweepOnRequestMiddleware:
    """Run the sweeps after a request, at most every ``SWEEP_INTERVAL_SECONDS`` per process.

    For the embedded default, where no Celery beat runs (``SWEEP_ON_REQUEST``, on when
    ``REDIS_URL`` is unset): a bot turn whose eager task failed, or that a stopped server left
    undone, is played after the next request once its clock is stale. The request that happens
    to run the sweeps has already done its own work; their failure is logged, never raised.
    """

    _lock = threading.Lock()
    _last = float("-inf")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.SWEEP_ON_REQUEST and self._due():
            try:
                sweeps_run()
            except Exception:  # e.g. the database went away: the answer stands
                logger.exception("The sweeps after a request failed")
        return response

    @classmethod
    def _due(cls) -> bool:
        """Whether this process should sweep now (one thread at a time, once per interval)."""
        now = time.monotonic()
        with cls._lock:
            if now - cls._last < settings.SWEEP_INTERVAL_SECONDS:
                return False
            cls._last = now
            return True
