"""What the sockets count: how many are open now, and the frames they send
(docs/operations.md, "Metrics")."""

from __future__ import annotations

from typing import Any

from chickenfoot.metrics.counters import FRAMES_SENT, SOCKETS_OPEN


class CountedSocket:
    """A mixin, before Channels' consumer class: counts the socket open from its ``accept`` to
    its disconnect (``chickenfoot_sockets_open{socket}``), and each frame it sends
    (``chickenfoot_socket_frames_sent_total{socket}``). ``socket_kind`` names the label."""

    socket_kind = "socket"
    _counted_open = False

    async def accept(self, *args: Any, **kwargs: Any) -> None:
        await super().accept(*args, **kwargs)  # type: ignore[misc]
        if not self._counted_open:
            self._counted_open = True
            SOCKETS_OPEN.labels(socket=self.socket_kind).inc()

    async def send_json(self, content: Any, close: bool = False) -> None:
        # Channels' JSON consumer sends through its own parent's ``send``, past ``send`` below.
        await super().send_json(content, close=close)  # type: ignore[misc]
        FRAMES_SENT.labels(socket=self.socket_kind).inc()

    async def send(self, *args: Any, **kwargs: Any) -> None:
        await super().send(*args, **kwargs)  # type: ignore[misc]
        if args or kwargs.get("text_data") is not None or kwargs.get("bytes_data") is not None:
            FRAMES_SENT.labels(socket=self.socket_kind).inc()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_disconnect(message)  # type: ignore[misc]
        finally:
            if self._counted_open:
                self._counted_open = False
                SOCKETS_OPEN.labels(socket=self.socket_kind).dec()
