"""Gunicorn's settings module (``gunicorn -c python:chickenfoot.gunicorn_config``, the
Dockerfile's command): its limits on request lines and headers, and its own refusals as problem
documents.

The limits are above nginx's (4 KiB a request line or header, 17 KiB of headers in all, so at
most a few thousand header fields), so that a request too long for them is refused by nginx
first, as a problem document, and never reaches gunicorn.

Gunicorn answers a request it cannot parse (a control character in a header's value, a
request line or header past its limits, a malformed chunk) before the application sees it,
with an HTML page. nginx in front refuses most of these first, as problem documents
(deploy/nginx/chickenfoot.conf.template), but passes on control characters in header values,
which gunicorn refuses: this module makes those answers, and every other one gunicorn writes
itself, ``application/problem+json`` like the API's (docs/errors.md). Gunicorn's workers send
them through ``gunicorn.util.write_error``, replaced here before any worker starts.

With ``PROMETHEUS_MULTIPROC_DIR`` set, each worker keeps its metrics in files there and
``/metrics`` adds them up: the directory is made, and emptied of a former run's files, as
gunicorn starts (``on_starting``), and a worker that exits is marked dead (``child_exit``), so
that its live gauges stop counting (docs/operations.md, "Metrics").
"""

from __future__ import annotations

import json
import os
import socket
from http import HTTPStatus
from pathlib import Path
from typing import Any

from gunicorn import util
from prometheus_client import multiprocess

from chickenfoot.problem_types import problem_type

#: The longest request line (gunicorn's maximum), header field, and the most header fields.
limit_request_line = 8190
limit_request_field_size = 8190
limit_request_fields = 32768

#: The problem each status gunicorn answers with stands for (docs/errors.md's codes and titles).
_PROBLEMS = {
    400: ("bad_request", "Bad request"),
    414: ("uri_too_long", "URI too long"),
    431: ("header_too_large", "Header too large"),
    500: ("internal_error", "Internal server error"),
}
#: Characters of gunicorn's message kept in ``detail`` (it may quote what the client sent).
_DETAIL_CHARS = 200


def problem_response(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP answer for one of gunicorn's own refusals: a problem document."""
    code, title = _PROBLEMS.get(status) or (
        ("internal_error", "Internal server error") if status >= 500 else ("bad_request", reason)
    )
    detail = message[:_DETAIL_CHARS] or HTTPStatus(status).description or title
    body = json.dumps(
        {
            "type": problem_type(code),
            "title": title,
            "status": status,
            "detail": detail,
            "code": code,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def write_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error``, answering a problem document instead of HTML."""
    util.write_nonblock(sock, problem_response(status_int, reason, mesg))


util.write_error = write_error


def on_starting(server: Any) -> None:
    """Gunicorn's hook, in the arbiter, before any worker: in multiprocess mode the metrics'
    directory is made and a former run's files removed (they would be added up again)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        for stale in path.glob("*.db"):
            stale.unlink()


def child_exit(server: Any, worker: Any) -> None:
    """Gunicorn's hook, in the arbiter, after a worker exited: in multiprocess mode its live
    gauges are dropped (its counters stay, as Prometheus expects of counters)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)
