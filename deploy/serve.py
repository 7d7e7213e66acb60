"""``python deploy/serve.py [granian options]``: the HTTP API on granian's WSGI interface.

A script of its own, outside the ``chickenfoot`` package: importing that package loads the
metrics, which would write to ``PROMETHEUS_MULTIPROC_DIR`` before it is prepared.

What the server must do before its workers start, done
here before ``granian`` replaces this process (``os.execv``):

- with ``PROMETHEUS_MULTIPROC_DIR`` set, the directory is made and a former run's files
  removed (they would be added up again), before any worker writes there;
- ``REQUEST_TIMEOUT_SECONDS`` (default 30) is set for the workers, whose request watchdog ends a
  worker with a request stuck past it (chickenfoot/request_watchdog.py); granian starts a fresh
  one (``--respawn-failed-workers``).

The options below are production's; any given on the command line come after them, and win.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

#: granian's options for production: HTTP/1.1 only (behind nginx), no WebSockets (uvicorn serves
#: them: deploy/serve_sockets.py), failed workers started again, connections kept alive (an idle
#: one is closed after ``--http1-header-read-timeout``, 30 s, above nginx's 20 s upstream
#: keep-alive).
OPTIONS = (
    *("--interface", "wsgi", "--http", "1", "--no-ws"),
    *("--host", "0.0.0.0", "--port", "8000"),  # noqa: S104 - inside the stack, behind nginx
    *("--workers", "2", "--blocking-threads", "2"),
    *("--respawn-failed-workers", "--workers-kill-timeout", "30"),
    *("--http1-keep-alive", "--http1-header-read-timeout", "30000"),
)
TARGET = "chickenfoot.wsgi:application"
#: A request running longer than this, in seconds, ends its worker.
DEFAULT_REQUEST_TIMEOUT = "30"


def granian_command(python: str, extra: Sequence[str] = ()) -> list[str]:
    """The granian command this module runs: production's options, then ``extra``."""
    return [python, "-m", "granian", *OPTIONS, *extra, TARGET]


def prepare_metrics_directory(env: Mapping[str, str]) -> Path | None:
    """Make ``PROMETHEUS_MULTIPROC_DIR`` and empty it of a former run's files; its path."""
    directory = env.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        return None
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()
    return path


def main(argv: Sequence[str] | None = None) -> None:
    """Prepare, then become granian."""
    extra = list(sys.argv[1:] if argv is None else argv)
    prepare_metrics_directory(os.environ)
    os.environ.setdefault("REQUEST_TIMEOUT_SECONDS", DEFAULT_REQUEST_TIMEOUT)
    command = granian_command(sys.executable, extra)
    os.execv(command[0], command)  # noqa: S606 - our own interpreter, running granian


if __name__ == "__main__":
    main()
