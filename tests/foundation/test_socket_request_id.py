"""A WebSocket connection's request id (chickenfoot/request_id_middleware.py,
``SocketRequestIdMiddleware``, around the sockets' router in chickenfoot/asgi.py)."""

from __future__ import annotations

import logging
import re

import pytest
from channels.generic.websocket import WebsocketConsumer
from channels.testing import WebsocketCommunicator

from chickenfoot.asgi import application
from chickenfoot.request_id import RequestIdFilter, request_id_current
from chickenfoot.request_id_middleware import SocketRequestIdMiddleware
from games.live.gate import SocketGate

logger = logging.getLogger(__name__)


class Greeter(WebsocketConsumer):
    """Logs one line when a socket connects, and says the id it was served under."""

    def connect(self) -> None:
        logger.info("a socket connected")
        self.accept()
        self.send(text_data=request_id_current() or "")


async def served_under(headers: list[tuple[bytes, bytes]]) -> str:
    socket = WebsocketCommunicator(SocketRequestIdMiddleware(Greeter.as_asgi()), "/ws/x", headers)
    connected, _ = await socket.connect()
    assert connected
    said = await socket.receive_from()
    await socket.disconnect()
    return said


# Channels closes stale database connections around a sync consumer's handlers: allowed here
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_is_served_under_its_sane_request_id(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.handler.addFilter(RequestIdFilter())
    with caplog.at_level(logging.INFO, logger=__name__):
        assert await served_under([(b"x-request-id", b"socket-9")]) == "socket-9"
    assert [record.request_id for record in caplog.records] == ["socket-9"]  # type: ignore[attr-defined]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_without_a_sane_id_gets_a_fresh_one() -> None:
    assert re.fullmatch(r"[0-9a-f]{32}", await served_under([]))
    assert re.fullmatch(r"[0-9a-f]{32}", await served_under([(b"x-request-id", b"no way")]))
    assert request_id_current() is None


def test_the_sockets_router_is_wrapped() -> None:
    gate = application.application_mapping["websocket"]
    assert isinstance(gate, SocketGate)  # games/live/gate.py: a few connecting at a time
    router = gate.app
    assert isinstance(router, SocketRequestIdMiddleware)
