"""The shared cache (Redis) out of reach: which errors mean that.

With ``REDIS_URL`` set the Django cache is Redis, shared by every web process. Nothing a request
needs to be right lives only there: the request limits count in it and fail open when it is
unreachable (``chickenfoot.throttles``). docs/reliability.md, "Redis down", has the whole list.
"""

from __future__ import annotations

from redis.exceptions import RedisError

#: What Django's Redis cache raises when Redis is out of reach (refused, timed out, gone away
#: mid-command) or refuses a command (out of memory, read-only replica).
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError,)
