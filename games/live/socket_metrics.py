"""What the sockets count: how many are open now, and the frames they send
(docs/operations.md, "Metrics"); and nothing sent once a socket has closed."""

from __future__ import annotations

import contextlib
from typing import Any

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

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self._gone = True
        try:
            await super().websocket_disconnect(message)  # type: ignore[misc]
        finally:
            if self._counted_open:
                self._counted_open = False
                SOCKETS_OPEN.labels(socket=self.socket_kind).dec()
