"""Who is watching live, so that a push does not buzz a phone whose screen shows the same.

A player watches a match while a socket of theirs is open on it (``/ws/matches/{id}``), and
watches everything while their ``/ws/me/`` socket says the app is in the foreground. Each such
socket counts itself in the cache under (player, match) when it opens (or comes to the
foreground), refreshes the count's lifetime at each heartbeat and takes itself off when it
closes (or goes to the background). A count lapses ``watch_seconds()`` after the last heartbeat
(30 s at the default heartbeat of 25 s), so a socket that died without closing stops counting
by then. Best effort: with the cache out of reach nobody is watching, and the push goes out.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import BaseCache, cache

from games.live.threads import Gathered, in_cache_thread, redis_writer, thread_cache

if TYPE_CHECKING:
    from redis import Redis

logger = logging.getLogger(__name__)

#: The "match" of the ``/ws/me/`` socket in the foreground: no match has id 0.
FOREGROUND = 0


def watch_seconds() -> int:
    """How long a count lives after its socket's last heartbeat."""
    return int(settings.LIVE_HEARTBEAT_SECONDS) + 5


def _key(player_id: int, match_id: int) -> str:
    return f"push-watching:{player_id}:{match_id}"


async def watch_begin(*, player_id: int, match_id: int) -> None:
    """A socket of ``player_id`` opened on ``match_id`` (``FOREGROUND``: the app came to it).
    Counted with the other sockets' of the moment (one round trip for them all), before this
    returns."""
    with contextlib.suppress(Exception):  # best effort, as above
        await _begins.get((_key(player_id, match_id), next(_calls)))


async def watch_end(*, player_id: int, match_id: int) -> None:
    """The app went to the background (a socket that closes ends its count with its presence
    note: ``games.social.presence.presence_clear``)."""
    with contextlib.suppress(Exception):
        await in_cache_thread(watch_end_many)([(player_id, match_id)])


# These run on the sockets' threads (games/live/threads.py). On Redis, each is one round trip
# for all the counts it is given; any other cache (the embedded default's) is told one by one.

#: One count less; a count that reaches none is gone, one that lapsed stays gone (a DECR alone
#: would bring it back at -1, for good).
_END = """
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('DECR', KEYS[1]) <= 0 then
    redis.call('DEL', KEYS[1])
end
"""


def _begin_all(calls: list[tuple[str, int]]) -> dict[tuple[str, int], None]:
    keys = [key for key, _ in calls]
    cache = thread_cache()
    client = redis_writer(cache)
    if client is None:
        for key in keys:
            cache.add(key, 0, watch_seconds())
            try:
                cache.incr(key)
            except ValueError:  # lapsed between the two
                cache.set(key, 1, watch_seconds())
        return {}
    pipeline = client.pipeline(transaction=False)
    for key in keys:
        made = cache.make_and_validate_key(key)
        pipeline.incr(made)
        pipeline.expire(made, watch_seconds())
    pipeline.execute()
    return {}


#: The sockets' counts begun within a moment (each call its own: two sockets of one player on one
#: match count twice).
_begins = Gathered(_begin_all)
_calls = itertools.count()


def _counts(watched: Iterable[tuple[int, int]]) -> tuple[list[str], BaseCache, Redis | None]:
    """The keys of the (player, match) counts, the cache, and the Redis client that writes it
    (``None``: the cache is not Redis)."""
    cache = thread_cache()
    return (
        [_key(player_id, match_id) for player_id, match_id in watched],
        cache,
        redis_writer(cache),
    )


def watch_beat_many(watched: Iterable[tuple[int, int]]) -> None:
    """The sockets watching (player, match) are still there: their counts live on, or count
    again if they lapsed. Called with the heartbeats' presence notes
    (``games.social.presence.presence_beat``)."""
    keys, cache, client = _counts(watched)
    if not keys:
        return
    if client is None:
        for key in keys:
            if not cache.touch(key, watch_seconds()):
                cache.set(key, 1, watch_seconds())
        return
    made = [cache.make_and_validate_key(key) for key in keys]
    pipeline = client.pipeline(transaction=False)
    for key in made:
        pipeline.expire(key, watch_seconds())
    lapsed = [key for key, renewed in zip(made, pipeline.execute(), strict=True) if not renewed]
    if lapsed:
        pipeline = client.pipeline(transaction=False)
        for key in lapsed:
            pipeline.set(key, 1, ex=watch_seconds())
        pipeline.execute()


def watch_end_many(watched: Iterable[tuple[int, int]]) -> None:
    """The sockets watching (player, match) closed, or their apps went to the background: one
    count less each."""
    keys, cache, client = _counts(watched)
    if not keys:
        return
    if client is None:
        for key in keys:
            with contextlib.suppress(ValueError):  # lapsed already
                if cache.decr(key) <= 0:
                    cache.delete(key)
        return
    pipeline = client.pipeline(transaction=False)
    for key in keys:
        pipeline.eval(_END, 1, cache.make_and_validate_key(key))
    pipeline.execute()


def watching(*, player_id: int, match_id: int | None) -> bool:
    """Is ``player_id`` watching ``match_id`` live (``None``: no match), or the app in the
    foreground?"""
    keys = [_key(player_id, FOREGROUND)]
    if match_id:
        keys.append(_key(player_id, match_id))
    try:
        counts = cache.get_many(keys)
    except Exception:  # noqa: BLE001  (the cache out of reach, whatever its client raised): push
        logger.warning("push: who is watching is unknown (the cache is out of reach)")
        return False
    return any(int(count) > 0 for count in counts.values())
