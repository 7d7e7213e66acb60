"""A cache of a test's own: counts kept in it are the test's alone."""

from __future__ import annotations

import os
from typing import Any

#: The caches a test of counting runs on: the local-memory one, and Redis when ``REDIS_URL``.
CACHE_KINDS = ["locmem"] + (["redis"] if os.environ.get("REDIS_URL") else [])


def cache_of_own(kind: str, prefix: str) -> dict[str, Any]:
    """``settings.CACHES`` for a cache of ``kind`` (``CACHE_KINDS``) whose keys are the test's
    own: on ``REDIS_URL`` under the key prefix ``prefix``, or a local-memory cache named so."""
    if kind == "redis":
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": os.environ["REDIS_URL"],
                "KEY_PREFIX": prefix,
            }
        }
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": prefix,
        }
    }
