"""docs/api.md's socket client, run against real Daphne servers that drop it mid-match.

Two servers share one SQLite file (the embedded default): A serves the client's socket and the
moves, B takes moves while A is down. The client must end with every move once, in order,
though A was stopped and started again in the middle of the match.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def docs_example() -> dict[str, Any]:
    """The Python block of docs/api.md's Live section, executed: its names."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text[text.index("## Live") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    names: dict[str, Any] = {}
    exec(compile(code.group(1), "docs/api.md#live", "exec"), names)  # noqa: S102 - our own docs
    return names


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``daphne chickenfoot.asgi:application`` on a port, on the given environment."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env, self.port = env, free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - our own server
            [
                *(sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)),
                "chickenfoot.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "daphne exited"
            try:
                urllib.request.urlopen(self.url + "/api/health", timeout=1)  # noqa: S310
                return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise AssertionError("daphne did not answer within 30 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite3'}",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMITS": "off",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    pair = (Server(env), Server(env))
    try:
        for server in pair:
            server.start()
        yield pair
    finally:
        for server in pair:
            server.stop()


def call(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(  # noqa: S310 - loopback
        base + path, data=data, method=method, headers=headers
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return json.loads(response.read() or b"null")


def play_one(base: str, tokens: list[str], match_id: int, rng: random.Random) -> bool:
    """One random legal move for the seat to move; ``False`` once the match is over."""
    view = call(base, "GET", f"/api/matches/{match_id}", tokens[0])
    if view["status"] != "playing":
        return False
    turn = view["state"]["turn"]
    legal = call(base, "GET", f"/api/matches/{match_id}/legal-moves", tokens[turn])
    move = rng.choice(legal["moves"])
    body = {**move, "version": legal["version"]}
    call(base, "POST", f"/api/matches/{match_id}/moves", tokens[turn], body)
    return True


def test_the_docs_client_resumes_across_a_server_restart(servers: tuple[Server, Server]) -> None:
    a, b = servers
    follow = docs_example()["follow"]
    password = "correct horse battery"
    tokens = [
        call(a.url, "POST", "/api/players", body={"username": name, "password": password})["token"]
        for name in ("ada", "grace")
    ]
    match = call(
        a.url,
        "POST",
        "/api/matches",
        tokens[0],
        {
            "variant": "chickenfoot",
            "options": {"rounds": 1, "hand_size": 9},
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        },
    )
    call(a.url, "POST", f"/api/matches/{match['id']}/join", tokens[1])
    call(a.url, "POST", f"/api/matches/{match['id']}/start", tokens[0])
    frames: list[dict[str, Any]] = []
    rng = random.Random(11)

    async def handle(frame: dict[str, Any]) -> None:
        frames.append(frame)

    async def scenario() -> None:
        ws_base = a.url.replace("http://", "ws://")
        follower = asyncio.create_task(follow(ws_base, tokens[0], match["id"], handle))
        await until(lambda: any(f["type"] == "hello" for f in frames))
        for _ in range(6):  # on A, live
            await asyncio.to_thread(play_one, a.url, tokens, match["id"], rng)
        await until(lambda: seqs() and seqs()[-1] == 6)
        await asyncio.to_thread(a.stop)  # the connection drops
        for _ in range(6):  # on B while A is down: the client must catch these up
            await asyncio.to_thread(play_one, b.url, tokens, match["id"], rng)
        await asyncio.to_thread(a.start)
        await until(lambda: sum(f["type"] == "hello" for f in frames) == 2)
        while await asyncio.to_thread(play_one, a.url, tokens, match["id"], rng):
            pass
        await asyncio.wait_for(follower, 30)  # returns on the 4000 close

    def seqs() -> list[int]:
        return [f["seq"] for f in frames if f["type"] == "move"]

    # A thread of its own: the suite's main thread may hold an event loop already.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()

    played = call(b.url, "GET", f"/api/matches/{match['id']}/log?limit=200", tokens[0])["moves"]
    assert seqs() == [move["seq"] for move in played] == list(range(1, len(played) + 1))
    assert len(played) > 12
    assert [f["type"] for f in frames[-2:]] == ["match_over", "closing"]
    assert frames[-1]["code"] == 4000


async def until(condition: Any, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.02)
