"""The request id: one token that ties a request's log lines to the tasks it queued.

A request's id comes from its ``X-Request-ID`` header when that is a sane token, else it is made
here (``chickenfoot.request_id_middleware``); it lives in a context variable for the request (or
the socket, or the task), and every log record carries it as ``request_id``
(``RequestIdFilter``, on the console handler of ``settings.LOGGING``).
"""

from __future__ import annotations

import logging
import re
import secrets
from contextvars import ContextVar

#: What a record carries when no request, socket or task is being served.
NO_REQUEST_ID = "-"
#: An id a client may choose: 1 to 64 letters, digits, dots, underscores and hyphens.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)


def request_id_new() -> str:
    """A fresh id (32 hex digits: 128 random bits)."""
    return secrets.token_hex(16)


def request_id_from(value: str | None) -> str:
    """``value`` when it is a sane id, else a fresh one (a client's id is never trusted blindly:
    it goes into every log line of the request)."""
    if value and SANE_REQUEST_ID.fullmatch(value):
        return value
    return request_id_new()


def request_id_current() -> str | None:
    """The id of the request, socket or task being served, if any."""
    return request_id_var.get()


class RequestIdFilter(logging.Filter):
    """Gives every record its ``request_id`` (``"-"`` outside a request or task)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get() or NO_REQUEST_ID
        return True
