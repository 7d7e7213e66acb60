"""Telling the sockets a match changed: one small message to the match's group, after commit.

A ``moved`` nudge carries no tiles: it says only "match X is at seq S"; each socket then reads
the moves it has not sent yet from the database and redacts them for its own seat
(games/live/consumers.py). Ordering, no duplicates and resuming all come from that one read.
A move within a round is sent as frames instead, to each seat's group and the watchers' group
its own (``on_commit_move_frames``, redacted by ``games.live.frames.move_texts`` as the read
would): a socket that stands at the move before sends them as they are, with no read at all;
any other reads the log as for a nudge.
Notices (a seat joined, a player resigned, a clock warning) carry public facts only.

What a message costs depends on where the sockets can be:

- the in-memory layer (the embedded default) has consumers only in this process: a group with
  no socket in it gets nothing sent, and a process that serves no socket (a WSGI worker, a
  Celery worker) sends nothing at all;
- Redis publish/subscribe (``channels_redis.pubsub``, production's layer) takes one PUBLISH per
  message, sent from the calling thread on a connection of the thread's own (no event loop, no
  thread, no pool); the messages a request or task publishes inside ``batch()`` go out
  together, in one round trip;
- any other layer is sent to from an event loop of this process's own, without waiting.

Publishing never fails the request that committed: a channel layer that is down is logged and
skipped, and for a second after a failure nothing is tried (a request never waits on a Redis
that is down); the sockets catch up with the next nudge, and a client that reconnects resumes
from the log.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
from asgiref.sync import SyncToAsync, async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

#: Message types a match's group carries (the consumer's handler names, dots for underscores).
MOVED = "match.moved"
NOTICE = "match.notice"
PRESENCE = "match.presence"
CHAT = "match.chat"
#: A move as one audience of the match sees it (``audience_group``): its frames, encoded.
FRAMES = "match.frames"
#: Seconds nothing is sent to a Redis after a publish to it failed.
PAUSE_AFTER_FAILURE = 1.0


def match_group(match_id: int) -> str:
    """The channel-layer group of a match's sockets."""
    return f"match.{match_id}"


def audience_group(match_id: int, seat: int | None) -> str:
    """The channel-layer group of the sockets that see match ``match_id`` as ``seat`` does
    (``None``: its watchers, who hold no seat). Each socket of a seat or a watcher is in it
    besides the match's group."""
    return f"match.{match_id}.seat.{seat}" if seat is not None else f"match.{match_id}.watch"


def publish(*, match_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` to the match's group; a layer failure is logged, never raised."""
    publish_group(group=match_group(match_id), message=message)


def publish_group(*, group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to the channel-layer ``group`` (inside ``batch()``: when it ends)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, RedisPubSubChannelLayer):
        pending = getattr(_batches, "messages", None)
        if pending is not None:
            pending.append((layer, group, message))
        else:
            _redis.publish(layer, [(group, message)])
    elif isinstance(layer, InMemoryChannelLayer):
        _in_memory(layer, group, message)
    else:
        _background.send(layer, group, message)


_batches = threading.local()


@contextmanager
def batch() -> Iterator[None]:
    """Send what is published inside the block (by commit hooks, say) together as it ends: one
    round trip to Redis for all of them, in the order they were published. Nested blocks join
    the outermost one."""
    if getattr(_batches, "messages", None) is not None:
        yield
        return
    _batches.messages = []
    try:
        yield
    finally:
        pending, _batches.messages = _batches.messages, None
        if pending:
            _redis.publish(pending[0][0], [(group, message) for _, group, message in pending])


#: The event loop serving this process's sockets (an in-memory layer lives in it).
_serving_loop: asyncio.AbstractEventLoop | None = None


def serving_loop_note() -> None:
    """Called by each socket as it connects: the loop an in-memory layer's messages go to."""
    global _serving_loop
    _serving_loop = asyncio.get_running_loop()


def _in_memory(layer: InMemoryChannelLayer, group: str, message: dict[str, Any]) -> None:
    """An in-memory layer's consumers are this process's sockets: none in the group, nothing
    to send (a socket that joins later reads the match itself)."""
    loop = _serving_loop
    if loop is None or not layer.groups.get(group):
        return
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is None:
        # A thread of our own (a turn clock's timer), not a request's: the sockets' loop is
        # not ours to wait on, so the message is handed to it.
        if loop.is_running():
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.warning("live: could not publish to %s", group, exc_info=True)


class _RedisPublisher:
    """PUBLISH to a Redis publish/subscribe layer's group channels from the calling thread.

    A message is what the layer's own ``group_send`` would publish: the layer's serialisation,
    on the channel its consumers subscribe to for the group (``<prefix>__group__<group>``).
    Each thread holds a connection of its own (a new one after a fork), and sends its messages
    with it directly: one write of every command, then one reply read for each.
    """

    def __init__(self) -> None:
        self.local = threading.local()
        self.paused_until = 0.0

    def _connection(self, address: str) -> redis.connection.AbstractConnection:
        key = (os.getpid(), address)
        held = getattr(self.local, "held", None)
        if held is None or held[0] != key:
            pool = redis.ConnectionPool.from_url(
                address, socket_timeout=1, socket_connect_timeout=1
            )
            held = self.local.held = (key, pool.connection_class(**pool.connection_kwargs))
        return held[1]

    def publish(self, layer: RedisPubSubChannelLayer, messages: list[tuple[str, Any]]) -> None:
        if time.monotonic() < self.paused_until:
            logger.warning("live: could not publish %d message(s): Redis failed", len(messages))
            return
        address, prefix = _pubsub_target()
        connection = self._connection(address)
        try:
            commands = [
                ("PUBLISH", f"{prefix}__group__{group}", layer.serialize(message))
                for group, message in messages
            ]
            connection.send_packed_command(connection.pack_commands(commands))
            for _ in commands:
                connection.read_response()
        except Exception:
            connection.disconnect()  # whatever it was in the middle of, the next use starts afresh
            self.paused_until = time.monotonic() + PAUSE_AFTER_FAILURE
            logger.warning("live: could not publish %d message(s)", len(messages), exc_info=True)


def _pubsub_target() -> tuple[str, str]:
    """The Redis address and channel prefix of the publish/subscribe layer (settings'
    ``CHANNEL_LAYERS``: one host, checked there)."""
    config = settings.CHANNEL_LAYERS[DEFAULT_CHANNEL_LAYER].get("CONFIG", {})
    host = (config.get("hosts") or ["redis://localhost:6379"])[0]
    address = host["address"] if isinstance(host, dict) else host
    return str(address), str(config.get("prefix", "asgi"))


_redis = _RedisPublisher()


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


def on_commit_move_frames(
    *, match_id: int, seq: int, version: int, texts: dict[int | None, list[str]]
) -> None:
    """After commit: move ``seq`` of match ``match_id``, to each audience the frames it sees
    (``frames.move_texts``), each to its own group: no message holds what its sockets may not
    see. A socket that sent move ``seq - 1`` sends them as they are; any other reads the log, as
    for a ``moved`` nudge."""

    def send() -> None:
        with batch():  # one round trip to Redis for every audience
            for seat, frames in texts.items():
                publish_group(
                    group=audience_group(match_id, seat),
                    message={"type": FRAMES, "seq": seq, "version": version, "frames": frames},
                )

    transaction.on_commit(send, robust=True)  # a failure is logged, never raised


def on_commit_notice(*, match_id: int, frame: dict[str, Any]) -> None:
    """After commit: a public ``frame`` every socket of the match forwards as it is."""
    _on_commit(match_id, {"type": NOTICE, "frame": frame})


def on_commit_chat(*, match_id: int, seq: int) -> None:
    """After commit: match ``match_id``'s chat is at phrase ``seq``. Like ``moved``, a nudge
    with no content: each socket reads the phrases it may be shown itself."""
    _on_commit(match_id, {"type": CHAT, "seq": seq})
