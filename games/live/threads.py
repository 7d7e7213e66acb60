"""Where the sockets' blocking work runs: a pool of threads per serving process.

Channels' ``database_sync_to_async`` is thread-sensitive: every call of a process waits its
turn on one thread, so ten thousand sockets' reads (and Django's cache, whose async methods
wrap the sync ones the same way) queue behind each other. The sockets instead run theirs on
``LIVE_DB_THREADS`` threads of their own, each with its database connection (closed when older
than ``CONN_MAX_AGE``, as a request's). With 0 (the default on SQLite, whose one writer gains
nothing from threads) they keep Channels' one thread.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor | None:
    global _pool
    threads = settings.LIVE_DB_THREADS
    if threads <= 0:
        return None
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="live-db")
        return _pool


def in_db_thread(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` as an awaitable run on the sockets' threads, its database connections tidied
    before and after as Channels does."""
    executor = _executor()
    if executor is None:
        return DatabaseSyncToAsync(func)
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=executor)


def in_cache_thread(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` (a call to the cache) as an awaitable run on the sockets' threads."""
    executor = _executor()
    if executor is None:
        return SyncToAsync(func)
    return SyncToAsync(func, thread_sensitive=False, executor=executor)


def close_threads() -> None:
    """Close each thread's database connections and end the threads (a test run's end: the
    test database is dropped next, and an open connection would keep it)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    threads = pool._max_workers
    barrier = threading.Barrier(threads, timeout=10)

    def close() -> None:
        connections.close_all()
        barrier.wait()  # no thread takes a second one: each closes its own

    for done in [pool.submit(close) for _ in range(threads)]:
        done.result()
    pool.shutdown(wait=True)


__all__ = ["close_threads", "in_cache_thread", "in_db_thread"]
