"""Presence: which players have a socket open, and whether one of them is at a match in play.

Each socket notes its player in the shared cache when it opens and at every heartbeat, and
clears the note when it closes: ``/ws/me/`` under ``presence:<player>:me``, a match's socket
under ``presence:<player>:match`` with the match's id when the player holds a seat there. A
note outlives two heartbeats (``presence_ttl``), so a socket that died without closing stops
counting within a minute. A player with several sockets of one kind has the newest noted; one
of them closing clears the note only if it is its own, and the others' next heartbeat writes
theirs again.

Read as ``offline``, ``online`` (a socket open) or ``in_match`` (seated at a match in play, its
socket open). Presence is shown to friends only (``GET /api/friends``), and a block ends a
friendship, so nobody sees the presence of a player who blocked them. It is best effort: with
the cache out of reach, the sockets note nothing and everyone reads ``offline``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache

from games.live.threads import Gathered, beat_window, thread_cache
from games.models import Match
from games.notifications.watching import watch_beat_many, watch_end_many

logger = logging.getLogger(__name__)

OFFLINE, ONLINE, IN_MATCH = "offline", "online", "in_match"
PRESENCE_STATES = (OFFLINE, ONLINE, IN_MATCH)
#: The socket kinds that note presence.
ME, MATCH = "me", "match"


def presence_ttl() -> int:
    """Seconds a note lasts: two heartbeats and a margin."""
    return 2 * settings.LIVE_HEARTBEAT_SECONDS + 5


def _key(player_id: int, socket: str) -> str:
    return f"presence:{player_id}:{socket}"


async def presence_note(
    *, player_id: int, socket: str, channel: str, match_id: int | None = None
) -> None:
    """The socket ``channel`` of kind ``socket`` (``ME``, ``MATCH``) is open for ``player_id``
    (seated at ``match_id``, for a match's socket): written before this returns, with the notes
    of the process's other sockets of the moment (one round trip; of two notes of one key, the
    later)."""
    try:
        await _arrivals.get((_key(player_id, socket), channel, match_id))
    except Exception:  # best effort: a cache out of reach notes nothing
        logger.warning("presence: could not note player %s", player_id, exc_info=True)


async def presence_beat(
    *,
    player_id: int,
    socket: str,
    channel: str,
    match_id: int | None = None,
    watched: int | None = None,
) -> None:
    """A heartbeat's ``presence_note``, written with those of the process's other sockets that
    beat within a moment (one round trip for them all). ``watched``: what the socket watches
    (``games.notifications.watching``), whose count lives on with it."""
    try:
        await _beats.get((_key(player_id, socket), channel, match_id, player_id, watched))
    except Exception:  # best effort: a cache out of reach notes nothing
        logger.warning("presence: could not note player %s", player_id, exc_info=True)


async def presence_clear(
    *, player_id: int, socket: str, channel: str, watched: int | None = None
) -> None:
    """The socket ``channel`` closed: clear its note, unless a newer socket wrote its own.
    ``watched``: what the socket watched (``games.notifications.watching``), whose count it
    leaves in the same call. Cleared with the other sockets that closed within a moment (a
    reconnect storm closes thousands at once): three round trips for them all."""
    try:
        await _departures.get((_key(player_id, socket), channel, player_id, watched))
    except Exception:  # best effort: the note expires on its own
        logger.warning("presence: could not clear player %s", player_id, exc_info=True)


# These run on the sockets' threads (games/live/threads.py), each for the calls of a moment.


def _note_all(notes: list[tuple[str, str, int | None]]) -> dict[Any, None]:
    thread_cache().set_many(
        {key: {"channel": channel, "match": match_id} for key, channel, match_id in notes},
        presence_ttl(),
    )
    return {}


def _beat_all(beats: list[tuple[str, str, int | None, int, int | None]]) -> dict[Any, None]:
    """The notes of the heartbeats, then the watch counts they renew."""
    _note_all([(key, channel, match_id) for key, channel, match_id, _, _ in beats])
    watch_beat_many((player_id, watched) for *_, player_id, watched in beats if watched is not None)
    return {}


def _clear_all(clears: list[tuple[str, str, int, int | None]]) -> dict[Any, None]:
    """The watch counts left, then the notes that are still the closed sockets' own deleted (a
    note written in between by a newer socket is rewritten by its next heartbeat)."""
    watch_end_many(
        (player_id, watched) for _, _, player_id, watched in clears if watched is not None
    )
    cache = thread_cache()
    noted = cache.get_many([key for key, *_ in clears])
    theirs = [
        key
        for key, channel, *_ in clears
        if isinstance(noted.get(key), dict) and noted[key].get("channel") == channel
    ]
    if theirs:
        cache.delete_many(theirs)
    return {}


_arrivals = Gathered(_note_all)
_beats = Gathered(_beat_all, beat_window)
_departures = Gathered(_clear_all)


def presence_of(player_ids: list[int]) -> dict[int, str]:
    """Each player's presence (``OFFLINE``, ``ONLINE``, ``IN_MATCH``): one cache read, and one
    query for the matches they are seated at."""
    if not player_ids:
        return {}
    keys = {_key(pid, socket): (pid, socket) for pid in player_ids for socket in (ME, MATCH)}
    try:
        noted: dict[str, Any] = cache.get_many(list(keys))
    except Exception:  # the cache out of reach: nothing is known, so nobody is shown online
        logger.warning("presence: could not be read", exc_info=True)
        noted = {}
    online = {keys[key][0] for key in noted}
    seated = {
        keys[key][0]: value["match"]
        for key, value in noted.items()
        if keys[key][1] == MATCH and isinstance(value, dict) and value.get("match")
    }
    playing = set(
        Match.objects.filter(pk__in=set(seated.values()), status=Match.Status.PLAYING).values_list(
            "pk", flat=True
        )
    )
    return {
        pid: IN_MATCH if seated.get(pid) in playing else ONLINE if pid in online else OFFLINE
        for pid in player_ids
    }
