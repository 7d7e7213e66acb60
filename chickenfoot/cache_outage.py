"""The shared cache (Redis) out of reach: which errors mean that, and the one answer it gets.

With ``REDIS_URL`` set the Django cache is Redis, shared by every web process. Nothing a request
needs to be right lives only there: the request limits count in it and fail open when it is
unreachable (``chickenfoot.throttles``), and the one operation that cannot be served without it,
a socket ticket (``games.live.access``), answers 503 ``cache_unavailable`` with ``Retry-After``.
docs/reliability.md, "Redis down", has the whole list.
"""

from __future__ import annotations

from http import HTTPStatus

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from redis.exceptions import RedisError

from chickenfoot.problems import ProblemError

#: What Django's Redis cache raises when Redis is out of reach (refused, timed out, gone away
#: mid-command) or refuses a command (out of memory, read-only replica).
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError,)


class CacheUnavailable(ProblemError):
    """503: the request needs the shared cache, which cannot be reached; ``Retry-After`` says
    when to try again (``CACHE_RETRY_AFTER_SECONDS``)."""

    status = HTTPStatus.SERVICE_UNAVAILABLE
    code = "cache_unavailable"
    title = gettext_lazy("Cache unavailable")

    def __init__(self) -> None:
        seconds = settings.CACHE_RETRY_AFTER_SECONDS
        super().__init__(
            _("The shared cache cannot be reached right now; try again in %(seconds)s seconds.")
            % {"seconds": seconds},
            headers={"Retry-After": str(seconds)},
        )
