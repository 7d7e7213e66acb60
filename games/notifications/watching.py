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
import logging

from django.conf import settings
from django.core.cache import cache

from games.live.threads import in_cache_thread, thread_cache

logger = logging.getLogger(__name__)

#: The "match" of the ``/ws/me/`` socket in the foreground: no match has id 0.
FOREGROUND = 0


def watch_seconds() -> int:
    """How long a count lives after its socket's last heartbeat."""
    return int(settings.LIVE_HEARTBEAT_SECONDS) + 5


def _key(player_id: int, match_id: int) -> str:
    return f"push-watching:{player_id}:{match_id}"


async def watch_begin(*, player_id: int, match_id: int) -> None:
    """A socket of ``player_id`` opened on ``match_id`` (``FOREGROUND``: the app came to it)."""
    await in_cache_thread(_begin)(_key(player_id, match_id))


async def watch_end(*, player_id: int, match_id: int) -> None:
    """The app went to the background (a socket that closes ends its count with its presence
    note: ``games.social.presence.presence_clear``)."""
    await in_cache_thread(watch_end_now)(player_id=player_id, match_id=match_id)


# Each runs on the sockets' threads (games/live/threads.py), as one call.


def _begin(key: str) -> None:
    with contextlib.suppress(Exception):  # best effort, as above
        thread_cache().add(key, 0, watch_seconds())
        try:
            thread_cache().incr(key)
        except ValueError:  # lapsed between the two
            thread_cache().set(key, 1, watch_seconds())


def watch_beat_now(*, player_id: int, match_id: int) -> None:
    """The socket is still there: its count lives on (or counts again, if it lapsed). Called
    on one of the sockets' threads, with the heartbeat's presence note
    (``games.social.presence.presence_note``)."""
    key = _key(player_id, match_id)
    with contextlib.suppress(Exception):
        if not thread_cache().touch(key, watch_seconds()):
            thread_cache().set(key, 1, watch_seconds())


def watch_end_now(*, player_id: int, match_id: int) -> None:
    """``watch_end`` on the calling thread (one of the sockets')."""
    key = _key(player_id, match_id)
    with contextlib.suppress(Exception):
        if thread_cache().decr(key) <= 0:
            thread_cache().delete(key)


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
