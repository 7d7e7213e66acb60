"""Telling the sockets a match changed: one small message to the match's group, after commit.

The message carries no tiles: a ``moved`` nudge says only "match X is at seq S"; each socket
then reads the moves it has not sent yet from the database and redacts them for its own seat
(games/live/consumers.py). Ordering, no duplicates and resuming all come from that one read.
Notices (a seat joined, a player resigned, a clock warning) carry public facts only.

Publishing never fails the request that committed: a channel layer that is down is logged and
skipped (the sockets catch up with the next nudge, and a client that reconnects resumes from
the log).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

#: Message types a match's group carries (the consumer's handler names, dots for underscores).
MOVED = "match.moved"
NOTICE = "match.notice"
PRESENCE = "match.presence"


def match_group(match_id: int) -> str:
    """The channel-layer group of a match's sockets."""
    return f"match.{match_id}"


def publish(*, match_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` to the match's group; a layer failure is logged, never raised.

    An in-memory layer (one process) is sent to at once, on the loop of the process's sockets.
    Any other layer (Redis) is sent to from a loop of this process's own, without waiting: the
    request or task that committed goes on at once, and the loop keeps its connections open
    from one message to the next.
    """
    publish_group(group=match_group(match_id), message=message)


def publish_group(*, group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to the channel-layer ``group``, as ``publish`` does a match's."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        loop = _serving_loop
        if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is None and loop:
            # A thread of our own (a turn clock's timer), not a request's: the sockets' loop
            # is not ours to wait on, so the message is handed to it.
            if loop.is_running():
                asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
            return
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:
            logger.warning("live: could not publish to %s", group, exc_info=True)
        return
    _background.send(layer, group, message)


#: The event loop serving this process's sockets (an in-memory layer lives in it).
_serving_loop: asyncio.AbstractEventLoop | None = None


def serving_loop_note() -> None:
    """Called by each socket as it connects: the loop an in-memory layer's messages go to."""
    global _serving_loop
    _serving_loop = asyncio.get_running_loop()


class _Background:
    """One event loop in a daemon thread per process (started on first use, again after a fork)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pid = 0

    def _loop(self) -> asyncio.AbstractEventLoop:
        with self.lock:
            if self.loop is None or self.pid != os.getpid():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="live-publish", daemon=True).start()
                self.loop, self.pid = loop, os.getpid()
            return self.loop

    def send(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        try:
            future = asyncio.run_coroutine_threadsafe(
                layer.group_send(group, message), self._loop()
            )
        except Exception:
            logger.warning("live: could not publish to %s", group, exc_info=True)
            return
        future.add_done_callback(_log_failure)


def _log_failure(future: concurrent.futures.Future[Any]) -> None:
    error = future.exception()
    if error is not None:
        logger.warning("live: could not publish: %r", error)


_background = _Background()


def _on_commit(match_id: int, message: dict[str, Any]) -> None:
    callback: Callable[[], None] = lambda: publish(match_id=match_id, message=message)  # noqa: E731
    transaction.on_commit(callback, robust=True)  # a failure is logged, never raised


def on_commit_moved(*, match_id: int, seq: int, version: int, always: bool = False) -> None:
    """After commit: match ``match_id`` is at move ``seq`` (version ``version``).

    ``always``: every socket reads the match again, even one that has sent move ``seq`` (the
    match started, finished or was abandoned without a new move).
    """
    _on_commit(match_id, {"type": MOVED, "seq": seq, "version": version, "always": always})


def on_commit_notice(*, match_id: int, frame: dict[str, Any]) -> None:
    """After commit: a public ``frame`` every socket of the match forwards as it is."""
    _on_commit(match_id, {"type": NOTICE, "frame": frame})
