"""Opening match sockets in tests (Channels' communicator on the project's ASGI application)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from chickenfoot.asgi import application
from games.models import Player
from tests.games.factories import token_for

TIMEOUT = 5


class Closed(Exception):
    """The server closed the socket with ``code``."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


async def open_socket(
    match_id: int,
    player: Player | None = None,
    *,
    after: int | None = None,
    ticket: str | None = None,
    authorization: str | None = None,
    query: str = "",
) -> WebsocketCommunicator:
    """A connected socket on ``/ws/matches/{id}`` (as ``player``'s token unless told otherwise)."""
    params = [p for p in (query, f"after={after}" if after is not None else "") if p]
    if ticket is not None:
        params.append(f"ticket={ticket}")
    path = f"/ws/matches/{match_id}" + ("?" + "&".join(params) if params else "")
    headers = []
    if authorization is None and player is not None and ticket is None:
        authorization = f"Token {await database_sync_to_async(token_for)(player)}"
    if authorization is not None:
        headers.append((b"authorization", authorization.encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    return socket


async def next_frame(socket: WebsocketCommunicator, timeout: float = TIMEOUT) -> dict[str, Any]:
    """The next JSON frame; ``Closed`` if the server closed instead."""
    import json

    output = await socket.receive_output(timeout)
    if output["type"] == "websocket.close":
        raise Closed(output.get("code"))
    assert output["type"] == "websocket.send", output
    return json.loads(output["text"])


async def frames_until(
    socket: WebsocketCommunicator, stop: Any, timeout: float = TIMEOUT
) -> list[dict[str, Any]]:
    """Frames up to and including the first for which ``stop(frame)`` holds, within ``timeout``
    seconds in all (heartbeats do not keep a wait alive)."""
    import time

    deadline = time.monotonic() + timeout
    out = []
    while True:
        frame = await next_frame(socket, max(0.01, deadline - time.monotonic()))
        out.append(frame)
        if stop(frame):
            return out


async def close_code(socket: WebsocketCommunicator) -> int | None:
    """Read frames until the server closes the socket; its close code."""
    while True:
        try:
            await next_frame(socket)
        except Closed as closed:
            return closed.code


def moves_in(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "move"]


async def drain(socket: WebsocketCommunicator, quiet: float = 0.2) -> list[dict[str, Any]]:
    """The frames that arrive until the socket stays quiet for ``quiet`` seconds."""
    out = []
    while not await socket.receive_nothing(quiet):
        out.append(await next_frame(socket))
    return out
