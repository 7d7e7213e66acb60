"""Is a database error the database being out of reach?

An outage is answered 503 ``database_unavailable`` with ``Retry-After`` (``chickenfoot.problems``,
``chickenfoot.problem_views``); other database errors (a deadlock, a bug) stay server errors.
Neither answer names a host, port or driver message: those are logged only.
"""

from __future__ import annotations

from types import CodeType, TracebackType

from django.db import InterfaceError, OperationalError, connections
from django.db.backends.base.base import BaseDatabaseWrapper


def _code(function: object) -> CodeType:
    return getattr(function, "__wrapped__", function).__code__  # type: ignore[attr-defined]


#: Django's connecting step (``BaseDatabaseWrapper.connect``, under ``async_unsafe``).
_CONNECTING = _code(BaseDatabaseWrapper.connect)


def _raised_while_connecting(traceback: TracebackType | None) -> bool:
    while traceback is not None:
        if traceback.tb_frame.f_code is _CONNECTING:
            return True
        traceback = traceback.tb_next
    return False


def _a_connection_is_broken() -> bool:
    for connection in connections.all(initialized_only=True):
        raw = connection.connection
        if raw is not None and (getattr(raw, "closed", False) or getattr(raw, "broken", False)):
            return True
    return False


def database_unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` is the database being out of reach.

    An ``OperationalError`` or ``InterfaceError`` counts when it was raised while connecting (the
    server refused, did not answer, or is not there), or when a connection is now closed or
    broken (the server went away in the middle of a request).
    """
    if not isinstance(exc, OperationalError | InterfaceError):
        return False
    return _raised_while_connecting(exc.__traceback__) or _a_connection_is_broken()
