"""Sockets let in to connect a few at a time, in the order they came (``SocketGate``).

When thousands of phones reconnect to a process at once, letting every connection start at once
serves none of them: each step of a connect (its channel subscribed, its credential read, its
groups joined, its ``hello`` read) waits a turn of the event loop, and every turn serves all the
connections under way, so none is done until nearly all are, and the process holds every one
of them half-built at once (past the memory a node is allowed, in a storm of 10,000:
docs/operations.md, "Sockets at scale"). ``LIVE_CONNECTING`` connections of a process connect at
once; the others wait, in order, before anything of theirs has started. A connection is through
the gate once it sends its first frame (its ``hello``, or the frame that says why it is
refused) or closes.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from django.conf import settings

#: The ASGI messages that end a socket's connect: its first frame or its close (its handshake
#: refused).
THROUGH = frozenset({"websocket.send", "websocket.close", "websocket.http.response.start"})

Scope = dict[str, Any]


class SocketGate:
    """ASGI middleware: at most ``LIVE_CONNECTING`` sockets of the process connecting at once
    (0: no limit); HTTP passes as it is."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    def _semaphore(self, limit: int) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(limit)
        return slots

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        limit = settings.LIVE_CONNECTING
        if scope["type"] != "websocket" or limit <= 0:
            await self.app(scope, receive, send)
            return
        slots = self._semaphore(limit)
        await slots.acquire()
        held = True

        def release() -> None:
            nonlocal held
            if held:
                held = False
                slots.release()

        async def sent(message: dict[str, Any]) -> None:
            if message["type"] in THROUGH:
                release()
            await send(message)

        try:
            await self.app(scope, receive, sent)
        finally:
            release()
