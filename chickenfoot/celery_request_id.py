"""Carry the request id into Celery tasks: the publisher puts it in the task's headers, the
worker serves the task under it. A task that queues another passes it on the same way, so one id
ties a move to the bot turns and the end of match it set off."""

from __future__ import annotations

from contextvars import Token
from typing import Any

from celery.signals import before_task_publish, task_postrun, task_prerun

from chickenfoot.request_id import request_id_current, request_id_from, request_id_var

HEADER = "request_id"

#: The context-variable tokens of the tasks running in this process, by task id: a task run
#: eagerly inside a request restores the request's id when it ends.
_tokens: dict[str, Token[str | None]] = {}


@before_task_publish.connect
def request_id_to_headers(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """Put the current request id in the headers of a task being sent."""
    request_id = request_id_current()
    if request_id and headers is not None and not headers.get(HEADER):
        headers[HEADER] = request_id


@task_prerun.connect
def request_id_for_task(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    """Serve the task under the id its headers carry (an eager task keeps the caller's)."""
    given = getattr(getattr(task, "request", None), HEADER, None)
    if given:
        request_id = request_id_from(str(given))
    else:
        request_id = request_id_current() or request_id_from(None)
    if task_id:
        _tokens[task_id] = request_id_var.set(request_id)


@task_postrun.connect
def request_id_after_task(task_id: str | None = None, **_: Any) -> None:
    """Put back the id the task found (none in a worker, the request's in eager mode)."""
    token = _tokens.pop(task_id, None) if task_id else None
    if token is not None:
        try:
            request_id_var.reset(token)
        except ValueError:  # set in another context: clear it instead
            request_id_var.set(None)
