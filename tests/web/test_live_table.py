"""The table follows its match's socket: changes made by others over HTTP reach the page by push,
not by polling; a dropped socket resumes after the last move seen; without a socket the page
polls and says so.

The socket tests run against ``asgi_server`` (Daphne, as ``make run`` serves) and drive the
match over HTTP only; the fallback test uses pytest-django's WSGI ``live_server``, which has no
``/ws/`` endpoint at all.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.foundation.live_server import request

PASSWORD = "correct horse battery"


@dataclass
class Human:
    id: int
    name: str
    token: str


class Api:
    """The JSON API of one server, as the other people at the table use it."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.base, self.port = base, int(parts.port or 80)

    def call(self, method: str, path: str, token: str, body: Any = None) -> Any:
        status, _, data = request(self.port, method, path, body, token)
        assert status < HTTPStatus.BAD_REQUEST, (method, path, status, data)
        return data

    def register(self, username: str, name: str) -> Human:
        status, _, data = request(
            self.port,
            "POST",
            "/api/players",
            {"username": username, "password": PASSWORD, "display_name": name},
        )
        assert status == HTTPStatus.CREATED, data
        return Human(data["player"]["id"], data["player"]["name"], data["token"])

    def two_seat_match(self, creator: Human) -> int:
        """A one-round Mexican Train match: ``creator`` and an open seat."""
        body = {
            "variant": "mexican_train",
            "options": {"rounds": 1},
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        }
        return int(self.call("POST", "/api/matches", creator.token, body)["id"])

    def started_match(self, ada: Human, grace: Human) -> int:
        match_id = self.two_seat_match(ada)
        self.call("POST", f"/api/matches/{match_id}/join", grace.token, {})
        self.call("POST", f"/api/matches/{match_id}/start", ada.token)
        return match_id

    def move(self, match_id: int, humans: list[Human]) -> int | None:
        """The seat to move makes its first legal move; the match's version after it (``None``
        once the match is no longer in play)."""
        view = self.call("GET", f"/api/matches/{match_id}", humans[0].token)
        if view["status"] != "playing":
            return None
        mover = humans[view["state"]["turn"]]
        legal = self.call("GET", f"/api/matches/{match_id}/legal-moves", mover.token)
        move = {**legal["moves"][0], "version": legal["version"]}
        answer = self.call("POST", f"/api/matches/{match_id}/moves", mover.token, move)
        return int(answer["version"])


@dataclass
class Traffic:
    """What one page sent and received, in the order the browser reported it."""

    match_id: int
    events: list[tuple[str, Any]] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    def watch(self, page: Any) -> Traffic:
        match_path = f"/api/matches/{self.match_id}"

        def on_request(req: Any) -> None:
            path = urlsplit(req.url).path
            if req.method == "GET" and path == match_path:
                self.events.append(("match", None))
            elif req.method == "GET" and path == match_path + "/board.svg":
                self.events.append(("board", None))

        def on_socket(socket: Any) -> None:
            self.events.append(("socket", socket.url))
            socket.on(
                "framereceived", lambda payload: self.events.append(("frame", json.loads(payload)))
            )

        page.on("request", on_request)
        page.on("websocket", on_socket)
        page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))
        return self

    def mark(self) -> int:
        return len(self.events)

    def kinds(self, mark: int) -> list[str]:
        """What happened since ``mark``, by kind (frames by their type)."""
        return [
            f"frame:{value.get('type')}" if what == "frame" else what
            for what, value in self.events[mark:]
        ]

    def since(self, mark: int, kind: str) -> list[Any]:
        return [value for what, value in self.events[mark:] if what == kind]


def wait_for_version(page: Any, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.getElementById('table').dataset.version) >= v", arg=version
    )


def open_table(page: Any, sign_in: Any, base: str, human: Human, match_id: int) -> None:
    sign_in(page, base, token=human.token, name=human.name, player_id=human.id)
    page.goto(f"{base}/matches/{match_id}/")


@dataclass
class OpenTable:
    """Ada's two-seat match, still open, with Ada's page on it; Grace yet to join."""

    api: Api
    ada: Human
    grace: Human
    match_id: int
    page: Any
    traffic: Traffic


def ada_at_an_open_table(base: str, new_page: Any, sign_in: Any, prefix: str) -> OpenTable:
    api = Api(base)
    ada, grace = api.register(f"{prefix}-ada", "Ada"), api.register(f"{prefix}-grace", "Grace")
    match_id = api.two_seat_match(ada)
    page = new_page()
    traffic = Traffic(match_id).watch(page)
    open_table(page, sign_in, base, ada, match_id)
    return OpenTable(api, ada, grace, match_id, page, traffic)


def test_others_moves_reach_the_table_by_the_socket_without_polling(
    asgi_server: Any, new_page: Any, sign_in: Any
) -> None:
    scene = ada_at_an_open_table(asgi_server.base, new_page, sign_in, "sock")
    api, ada, grace, match_id = scene.api, scene.ada, scene.grace, scene.match_id
    page, traffic = scene.page, scene.traffic
    table = page.locator("#table")
    page.wait_for_function("document.getElementById('table').dataset.live === 'socket'")
    page.locator("#presence[data-seats='0']").wait_for()
    assert "Ada (you)" in page.locator("#presence").inner_text()
    mark = traffic.mark()

    # given the page is following the socket, when Grace joins over HTTP, then the page shows it
    api.call("POST", f"/api/matches/{match_id}/join", grace.token, {})
    page.locator("#seats li", has_text="Grace").wait_for()
    # and when Ada starts the match (over HTTP, not on this page), the table appears
    api.call("POST", f"/api/matches/{match_id}/start", ada.token)
    page.wait_for_function("document.getElementById('table').dataset.status === 'playing'")
    page.locator("#board svg").wait_for()

    # Grace opens the table in her own browser: Ada's page sees her arrive.
    grace_page = new_page()
    open_table(grace_page, sign_in, api.base, grace, match_id)
    page.locator("#presence[data-seats='0,1']").wait_for()
    assert "Grace" in page.locator("#presence").inner_text()

    # Moves by both seats, all over HTTP: Ada's page draws each.
    played = 0
    for _ in range(6):
        version = api.move(match_id, [ada, grace])
        if version is None:
            break
        wait_for_version(page, version)
        played += 1
    assert played >= 1
    assert table.get_attribute("data-live") == "socket"
    assert page.locator("#live-note").is_hidden()

    # Every fetch of the match followed a frame announcing a version the page had not drawn:
    # none was a poll, and a burst of frames cost at most one fetch per new version.
    news = False
    announced: set[int] = set()
    fetches = 0
    for what, value in traffic.events[mark:]:
        if what == "frame" and isinstance(value.get("version"), int):
            news = True
            announced.add(value["version"])
        elif what == "match":
            assert news, f"a fetch of the match with no frame before it: {traffic.kinds(mark)}"
            news = False
            fetches += 1

    assert 1 <= fetches <= len(announced)
    assert len(traffic.since(mark, "board")) <= fetches
    assert len(traffic.since(0, "socket")) == 1  # one socket, never dropped
    # Nothing the page received went to the console (frames carry this seat's view only, and
    # even that is not logged).
    assert not [line for line in traffic.console if not line.startswith("error")]


def test_a_table_opened_before_joining_keeps_its_socket_and_gets_the_hand_after_the_start(
    asgi_server: Any, new_page: Any, sign_in: Any
) -> None:
    # given: Grace opens Ada's open table before she has a seat
    api = Api(asgi_server.base)
    ada, grace = api.register("lobby-ada", "Ada"), api.register("lobby-grace", "Grace")
    match_id = api.two_seat_match(ada)
    page = new_page()
    traffic = Traffic(match_id).watch(page)
    open_table(page, sign_in, api.base, grace, match_id)
    page.wait_for_function("document.getElementById('table').dataset.live === 'socket'")

    # when: she joins on the page, and Ada starts the match over HTTP
    page.locator("#join").click()
    page.locator("#seats li", has_text="Grace").wait_for()
    api.call("POST", f"/api/matches/{match_id}/start", ada.token)

    # then: her page shows her hand, still on the socket it opened in the lobby
    page.wait_for_function("document.getElementById('table').dataset.status === 'playing'")
    page.locator("#hand button.tile").first.wait_for()
    assert page.locator("#table").get_attribute("data-live") == "socket"
    assert len(traffic.since(0, "socket")) == 1  # never closed, never reopened
    frames = traffic.since(0, "frame")
    assert {"type": "view_changed", "your_seat": 1} in frames
    assert "match_started" in [f["type"] for f in frames]
    assert not [f for f in frames if f["type"] == "closing"]


def test_a_dropped_socket_resumes_after_the_last_move_it_saw(
    asgi_server: Any, new_page: Any, sign_in: Any
) -> None:
    api = Api(asgi_server.base)
    ada, grace = api.register("drop-ada", "Ada"), api.register("drop-grace", "Grace")
    match_id = api.started_match(ada, grace)

    # Every socket the page opens goes through the test, which can cut it.
    sockets: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        entry: dict[str, Any] = {"url": ws.url, "frames": [], "route": ws}
        server = ws.connect_to_server()
        entry["server"] = server

        def forward(message: str | bytes) -> None:
            entry["frames"].append(json.loads(message))
            ws.send(message)

        server.on_message(forward)
        sockets.append(entry)

    page = new_page()
    page.route_web_socket(re.compile(r"/ws/matches/\d+"), route)
    open_table(page, sign_in, api.base, ada, match_id)
    page.wait_for_function("document.getElementById('table').dataset.live === 'socket'")

    version = api.move(match_id, [ada, grace])
    assert version is not None
    wait_for_version(page, version)
    seen = max(f["seq"] for f in sockets[0]["frames"] if f["type"] == "move")

    # when the connection drops and a move is made meanwhile
    sockets[0]["route"].close(code=1012, reason="restart")
    sockets[0]["server"].close()
    version = api.move(match_id, [ada, grace])
    assert version is not None

    # then the page reconnects with a new ticket after the last seq it saw, and shows the move
    wait_for_version(page, version)
    assert len(sockets) == 2
    first, second = (parse_qs(urlsplit(s["url"]).query) for s in sockets)
    assert "after" not in first
    assert second["after"] == [str(seen)]
    assert second["ticket"] != first["ticket"]
    seqs = [f["seq"] for s in sockets for f in s["frames"] if f["type"] == "move"]
    assert seqs == list(range(1, len(seqs) + 1))  # every move once, in order, no gap
    assert page.locator("#table").get_attribute("data-live") == "socket"


@pytest.mark.django_db(transaction=True)
def test_without_a_socket_the_table_polls_and_says_so(
    live_server: Any, new_page: Any, sign_in: Any
) -> None:
    scene = ada_at_an_open_table(live_server.url, new_page, sign_in, "poll")
    page, traffic = scene.page, scene.traffic
    page.wait_for_function("document.getElementById('table').dataset.live === 'polling'")
    assert "checks for changes every second" in page.locator("#live-note").inner_text()
    assert page.locator("#presence").is_hidden()
    mark = traffic.mark()

    scene.api.call("POST", f"/api/matches/{scene.match_id}/join", scene.grace.token, {})
    page.locator("#seats li", has_text="Grace").wait_for()
    # The news came by asking: fetches of the match with no frame to prompt them.
    assert traffic.since(mark, "match")
    assert not traffic.since(0, "frame")
