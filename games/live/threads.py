"""Where the sockets' blocking work runs: a pool of threads per serving process.

Channels' ``database_sync_to_async`` is thread-sensitive: every call of a process waits its
turn on one thread, so ten thousand sockets' reads (and Django's cache, whose async methods
wrap the sync ones the same way) queue behind each other. The sockets instead run theirs on
``LIVE_DB_THREADS`` threads of their own, each with its database connection (closed when older
than ``CONN_MAX_AGE``, as a request's). With 0 (the default on SQLite, whose one writer gains
nothing from threads) they keep Channels' one thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Generic, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import connections

if TYPE_CHECKING:
    from redis import Redis

P = ParamSpec("P")
R = TypeVar("R")
K = TypeVar("K")
V = TypeVar("V")

#: Seconds the calls of one kind are gathered before one call answers them all.
WINDOW = 0.05
#: The heartbeats' checks and notes wait longer (``beat_window``): a twenty-fifth of the
#: heartbeat, one second at the documented 25 s.
BEAT_WINDOW_SHARE = 1 / 25


def beat_window() -> float:
    """The seconds the heartbeats' calls are gathered: nothing waits on them but the heartbeat
    itself, so ten thousand sockets' 400 checks a second are one statement of each kind a
    second a process, not twenty (each statement's own cost, not its rows', is what the
    sockets' threads spent)."""
    return settings.LIVE_HEARTBEAT_SECONDS * BEAT_WINDOW_SHARE


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


_held = threading.local()


def thread_cache() -> BaseCache:
    """The default cache, one client (one pool of Redis connections) per thread, made again when
    the settings change.

    Django's ``cache`` keeps its clients per context, and the sockets' threads run each call in
    a copy of its socket's context: through ``cache``, every call would build a client of its
    own and open a Redis connection for it (ten thousand sockets reach Redis's ``maxclients``).
    The sockets' cache calls go through this instead."""
    configured = caches.settings
    held = getattr(_held, "cache", None)
    if held is None or held[0] is not configured:
        held = _held.cache = (configured, caches.create_connection(DEFAULT_CACHE_ALIAS))
    return held[1]


def redis_writer(cache: BaseCache) -> Redis | None:
    """The Redis client that writes ``cache``'s keys (``None``: the cache is not Redis), for
    the sockets' batched writes (many keys, one round trip: games/notifications/watching.py).
    Django's cache has no pipeline of its own; its client's is reached through ``_cache``."""
    if not isinstance(cache, RedisCache):
        return None
    return cache._cache.get_client(write=True)


class Gathered(Generic[K, V]):
    """Calls of one kind, gathered per event loop for a window (``WINDOW`` seconds unless told)
    and answered by one call of ``read`` on the sockets' threads with every key asked for, in
    the order they were first asked (a read of many rows, or a write of many keys in one round
    trip: games/live/beats.py, games/social/presence.py, games/notifications/watching.py)."""

    def __init__(
        self, read: Callable[[list[K]], dict[K, V]], window: Callable[[], float] | None = None
    ) -> None:
        """``window``: the seconds to gather for, asked at each window's start (``WINDOW``
        when not given)."""
        self.read = read
        self.window = window
        self.pending: dict[asyncio.AbstractEventLoop, dict[K, asyncio.Future[V | None]]] = {}

    async def get(self, key: K) -> V | None:
        """The answer for ``key`` (``None``: the read found nothing for it). Raises what the
        read raised."""
        loop = asyncio.get_running_loop()
        waiting = self.pending.get(loop)
        if waiting is None:
            waiting = self.pending[loop] = {}
            window = WINDOW if self.window is None else self.window()
            loop.call_later(window, lambda: loop.create_task(self._answer(loop)))
        future = waiting.get(key)
        if future is None:
            future = waiting[key] = loop.create_future()
        return await asyncio.shield(future)

    async def _answer(self, loop: asyncio.AbstractEventLoop) -> None:
        waiting = self.pending.pop(loop, {})
        try:
            found = await in_db_thread(self.read)(list(waiting))
        except Exception as error:  # noqa: BLE001  (whatever it was, every waiter gets it)
            for future in waiting.values():
                if not future.done():
                    future.set_exception(error)
                    future.exception()  # retrieved: a waiter may have gone
            return
        for key, future in waiting.items():
            if not future.done():
                future.set_result(found.get(key))


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


__all__ = [
    "Gathered",
    "beat_window",
    "close_threads",
    "in_cache_thread",
    "in_db_thread",
    "redis_writer",
    "thread_cache",
]
