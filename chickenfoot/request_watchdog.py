"""A request stuck past ``REQUEST_TIMEOUT_SECONDS`` ends its worker process, so that the server
(granian, ``--respawn-failed-workers``) starts a fresh one in its place (docs/api.md, "The
serving layer").

granian has no per-request timeout of its own: a view that never returns would hold its blocking
thread for good, and with every thread held the worker answers nobody. This WSGI wrapper notes
when each request started; a thread of its own looks every ``POLL_SECONDS`` and, when one has run
past the limit, logs it, drops the worker's live gauges (``PROMETHEUS_MULTIPROC_DIR``) and exits
the process at once (``os._exit``), as gunicorn's arbiter kills a worker past ``--timeout``. The
worker's other requests in flight end with it (nginx answers them 502, a problem document).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

logger = logging.getLogger("chickenfoot.serve")

#: How often the watchdog looks, at most (a quarter of the limit when that is shorter).
POLL_SECONDS = 1.0
#: The exit status of a worker ended by the watchdog.
EXIT_STATUS = 70

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class RequestWatchdog:
    """``app``, with every request that runs past ``limit`` seconds ending the process."""

    def __init__(self, app: WSGIApp, limit: float, exit_process: Callable[[int], Any] = os._exit):
        self.app = app
        self.limit = limit
        self._exit = exit_process
        self._running: dict[int, tuple[float, str]] = {}
        self._lock = threading.Lock()
        self._watcher: threading.Thread | None = None
        self._watcher_pid = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        self._ensure_watcher()
        key = threading.get_ident()
        what = f"{environ.get('REQUEST_METHOD', '')} {environ.get('PATH_INFO', '')}"
        self._running[key] = (time.monotonic(), what)
        try:
            return self.app(environ, start_response)
        finally:
            self._running.pop(key, None)

    def _ensure_watcher(self) -> None:
        # one thread per process, started in the worker itself (never before a fork)
        if self._watcher_pid == os.getpid():
            return
        with self._lock:
            if self._watcher_pid != os.getpid():
                self._running.clear()
                self._watcher = threading.Thread(
                    target=self._watch, name="request-watchdog", daemon=True
                )
                self._watcher.start()
                self._watcher_pid = os.getpid()

    def stuck(self, now: float) -> str | None:
        """The request that has run past the limit at ``now``, if any."""
        for started, what in list(self._running.values()):
            if now - started > self.limit:
                return f"{what} ({now - started:.0f} s)"
        return None

    def _watch(self) -> None:
        while True:
            time.sleep(min(POLL_SECONDS, self.limit / 4))
            what = self.stuck(time.monotonic())
            if what is not None:
                self._end(what)
                return

    def _end(self, what: str) -> None:
        logger.critical(
            "request past %s s, worker %s exits to be replaced: %s", self.limit, os.getpid(), what
        )
        for handler in logging.getLogger().handlers + logger.handlers:
            handler.flush()
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(os.getpid())
        self._exit(EXIT_STATUS)


def watched(app: WSGIApp) -> WSGIApp:
    """``app`` under a watchdog when ``REQUEST_TIMEOUT_SECONDS`` is set (``deploy/serve.py``
    sets it); as it is otherwise."""
    limit = os.environ.get("REQUEST_TIMEOUT_SECONDS", "").strip()
    return RequestWatchdog(app, float(limit)) if limit else app
