"""games/live/gate.py: a serving process lets ``LIVE_CONNECTING`` sockets connect at once, the
others waiting in the order they came; a socket is through once it sends its first frame or
closes, whatever becomes of it after; HTTP is not held."""

from __future__ import annotations

import asyncio
from typing import Any

from django.test import override_settings

from games.live.gate import SocketGate
from tests.own_loop import on_own_loop


class Sockets:
    """An application whose sockets connect slowly, then say hello (or fail, or close) and stay
    open until told to go."""

    def __init__(self) -> None:
        self.connecting = 0
        self.most = 0
        self.began: list[int] = []
        self.leave = asyncio.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200})
            return
        number = scope["number"]
        self.began.append(number)
        self.connecting += 1
        self.most = max(self.most, self.connecting)
        await send({"type": "websocket.accept"})
        await asyncio.sleep(0.01)  # the credential, the groups, the hello read
        self.connecting -= 1
        if scope.get("fails"):
            raise RuntimeError("the connect failed")
        if scope.get("refused"):
            await send({"type": "websocket.close", "code": 4401})
            return
        await send({"type": "websocket.send", "text": "hello"})
        await self.leave.wait()  # open until the test ends


async def nothing() -> dict[str, Any]:
    return {"type": "websocket.connect"}


async def dropped(message: dict[str, Any]) -> None:
    pass


def connect_all(scopes: list[dict[str, Any]], limit: int) -> Sockets:
    """Connect every socket of ``scopes`` through the gate at once; wait until all are through
    (their hello sent, refused or failed); the application's record of it."""

    async def go() -> Sockets:
        sockets = Sockets()
        gate = SocketGate(sockets)
        with override_settings(LIVE_CONNECTING=limit):
            tasks = [
                asyncio.ensure_future(gate({"type": "websocket", **s}, nothing, dropped))
                for s in scopes
            ]
            for _ in range(500):
                if len(sockets.began) == len(scopes) and sockets.connecting == 0:
                    break
                await asyncio.sleep(0.01)
            sockets.leave.set()
            results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(r is None or isinstance(r, RuntimeError) for r in results)
        return sockets

    return on_own_loop(go)


def test_at_most_the_limit_connect_at_once_in_the_order_they_came() -> None:
    sockets = connect_all([{"number": n} for n in range(12)], limit=3)
    assert sockets.most == 3
    assert sockets.began == list(range(12))  # first come, first let in


def test_a_socket_is_through_at_its_first_frame_not_its_close() -> None:
    """The sockets let in first stay open; the others connect all the same (with a limit of 1,
    twelve sockets could never connect if a slot were held for a socket's life)."""
    sockets = connect_all([{"number": n} for n in range(12)], limit=1)
    assert sockets.most == 1
    assert len(sockets.began) == 12


def test_a_refused_or_failed_connect_gives_its_place_back() -> None:
    scopes = [
        {"number": 0, "fails": True},
        {"number": 1, "refused": True},
        *({"number": n} for n in range(2, 6)),
    ]
    sockets = connect_all(scopes, limit=1)
    assert sockets.began == list(range(6))


def test_without_a_limit_every_socket_connects_at_once() -> None:
    sockets = connect_all([{"number": n} for n in range(8)], limit=0)
    assert sockets.most == 8


def test_http_is_not_held() -> None:
    """With every place taken by a socket still connecting, an HTTP request passes at once."""

    async def go() -> list[dict[str, Any]]:
        answers: list[dict[str, Any]] = []

        async def record(message: dict[str, Any]) -> None:
            answers.append(message)

        stuck = asyncio.Event()

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            if scope["type"] == "websocket":
                await stuck.wait()
                return
            await send({"type": "http.response.start", "status": 200})

        gate = SocketGate(app)
        with override_settings(LIVE_CONNECTING=1):
            socket = asyncio.ensure_future(gate({"type": "websocket"}, nothing, dropped))
            await asyncio.sleep(0.01)
            await asyncio.wait_for(gate({"type": "http"}, nothing, record), 1)
            stuck.set()
            await socket
        return answers

    assert on_own_loop(go) == [{"type": "http.response.start", "status": 200}]
