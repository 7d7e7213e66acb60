"""Send Celery tasks after commit, so that a broker outage never fails a request that committed.

Every task the project enqueues goes through ``enqueue_on_commit``: the task is sent only once
the writes it acts on are visible to a worker, and a broker that cannot take the message (Redis
down, a timeout) is logged, never raised. The request has done its work; what the lost message
would have done, the sweeper (``games.sweeps``, run by Celery beat) finds and queues again.

On the embedded default (no ``REDIS_URL``) tasks run eagerly, in-process, right after commit; a
task that fails there is logged the same way, so its failure cannot turn the committed request
into an error either (the sweeper retries what it left undone).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import Task
from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_on_commit(
    task: Task, *args: Any, queue: str | None = None, priority: int | None = None, **kwargs: Any
) -> None:
    """Send ``task(*args, **kwargs)`` when the current transaction commits (at once outside one).

    Nothing is sent if the transaction rolls back. Never raises: see ``enqueue_now``.
    Arguments must be JSON-serialisable ids and numbers (the tasks' contract). ``queue`` names
    the queue (``settings.CELERY_TASK_QUEUES``); without it, the default queue. ``priority``
    (Redis transport: 0, the default, is taken first, 9 last) orders the messages of a queue.
    """
    transaction.on_commit(
        partial(enqueue_now, task, *args, queue=queue, priority=priority, **kwargs)
    )


def enqueue_now(
    task: Task, *args: Any, queue: str | None = None, priority: int | None = None, **kwargs: Any
) -> bool:
    """Send ``task(*args, **kwargs)`` now (to ``queue``, or the default queue, at ``priority``);
    ``False`` (and a log line) if it could not be sent.

    With a broker the send fails fast (the Redis transport's short timeouts and bounded publish
    retries in settings). In eager mode the task runs here, and an error it raises is logged.
    """
    options: dict[str, Any] = {"queue": queue} if queue else {}
    if priority is not None:
        options["priority"] = priority
    try:
        task.apply_async(args=args, kwargs=kwargs, ignore_result=True, **options)
    except Exception:
        logger.exception(
            "Could not run or enqueue %s(args=%r, kwargs=%r); the sweeper will retry it",
            task.name,
            args,
            kwargs,
        )
        return False
    return True
