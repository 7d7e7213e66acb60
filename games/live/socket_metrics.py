"""What every socket of ours shares: what it counts (how many are open now, and the frames they
send: docs/operations.md, "Metrics"), nothing sent once it has closed, and its messages and its
close handled on the event loop with no hop to another thread."""

from __future__ import annotations

import contextlib
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer

from chickenfoot.metrics.counters import FRAMES_SENT, SOCKETS_OPEN


class CountedSocket:
    """A mixin, before Channels' consumer class: counts the socket open from its ``accept`` to
    its disconnect (``chickenfoot_sockets_open{socket}``), and each frame it sends
    (``chickenfoot_socket_frames_sent_total{socket}``). ``socket_kind`` names the label."""

    socket_kind = "socket"
    _counted_open = False
    #: Closed, by us or the client: a frame sent now would go nowhere (uvicorn raises for it,
    #: Daphne drops it), so none is.
    _gone = False

    async def accept(self, *args: Any, **kwargs: Any) -> None:
        await super().accept(*args, **kwargs)  # type: ignore[misc]
        if not self._counted_open:
            self._counted_open = True
            SOCKETS_OPEN.labels(socket=self.socket_kind).inc()

    async def send_json(self, content: Any, close: bool = False) -> None:
        if self._gone:
            return
        # Channels' JSON consumer sends through its own parent's ``send``, past ``send`` below.
        try:
            await super().send_json(content, close=close)  # type: ignore[misc]
        except OSError:  # the client went before its disconnect reached us (uvicorn says so)
            self._gone = True
            return
        FRAMES_SENT.labels(socket=self.socket_kind).inc()

    async def send(self, *args: Any, **kwargs: Any) -> None:
        if self._gone:
            return
        try:
            await super().send(*args, **kwargs)  # type: ignore[misc]
        except OSError:
            self._gone = True
            return
        if args or kwargs.get("text_data") is not None or kwargs.get("bytes_data") is not None:
            FRAMES_SENT.labels(socket=self.socket_kind).inc()

    async def close(self, *args: Any, **kwargs: Any) -> None:
        if self._gone:
            return
        with contextlib.suppress(OSError):
            await super().close(*args, **kwargs)  # type: ignore[misc]
        self._gone = True

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' ``dispatch`` without its ``aclose_old_connections()`` before each handler:
        that call hops to the one thread-sensitive thread for every message of every socket
        (a storm of connects, a move to thousands of seats queue behind each other there),
        and these sockets hold no connection to tidy on their own thread: their database work
        runs through ``games.live.threads``, which tidies the connections around each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' ``websocket_disconnect``, likewise without its ``aclose_old_connections()``
        (ten thousand sockets closing at once queued there, one after another)."""
        self._gone = True
        try:
            for group in self.groups:  # type: ignore[attr-defined]
                await self.channel_layer.group_discard(group, self.channel_name)  # type: ignore[attr-defined]
            await self.disconnect(message["code"])  # type: ignore[attr-defined]
        finally:
            if self._counted_open:
                self._counted_open = False
                SOCKETS_OPEN.labels(socket=self.socket_kind).dec()
        raise StopConsumer
