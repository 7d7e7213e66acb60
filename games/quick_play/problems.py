"""The quick play queue's refusals."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from chickenfoot.problems import ConflictError, NotFoundError


class NotInQueue(NotFoundError):
    code = "not_in_queue"
    title = gettext_lazy("Not in the queue")


class AlreadyQueued(ConflictError):
    """Joining another queue while an entry is current (the detail names it)."""

    code = "already_queued"
    title = gettext_lazy("Already queued")


class QueueMatched(ConflictError):
    """Leaving a queue whose entry was matched already; carries ``match_id``."""

    code = "queue_matched"
    title = gettext_lazy("Matched already")
