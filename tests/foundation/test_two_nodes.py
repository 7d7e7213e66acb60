"""Two nodes on one PostgreSQL and one Redis (CI: ``CELERY_WORKER_EXPECTED=1``).

Node A listens on 127.0.0.2 and node B on 127.0.0.3 (Linux routes all of 127.0.0.0/8 to the
loopback device): each has a granian (the API, deploy/serve.py), a Daphne (the match sockets)
and a Celery worker, all with the same queue and channel prefix of this module's own, on the
database the tests write to and a redis-server of this module's own (``tests.processes``). One
beat sends the sweep. docs/operations.md, "More than one node", is what this shows:

- a move submitted through node A's API reaches a socket held on node B's Daphne (the channel
  layer is Redis: any Daphne hears every commit);
- killing node A's worker (SIGKILL) while matches of bots only play leaves every match to node
  B's worker, which finishes them all, each move applied once;
- one beat sends each sweep once, to one worker: two workers do not double the sweeps.

Every process is this module's own, stopped by its PID (or process group) when the module ends.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from games.models import Match
from tests.foundation.live_server import PYTHON, Served, production_server, request, serving
from tests.games.helpers import assert_played_exactly_once, moves_of
from tests.processes import WORKER_MARKS, Stack, free_port, own_redis_and_celery, stop, wait_for

pytestmark = WORKER_MARKS

NODE_A, NODE_B = "127.0.0.2", "127.0.0.3"
#: The beat of this module: a sweep every second, for bot turns waiting two seconds.
SWEEP_EVERY, STALE_AFTER = 1, 2
BIN = Path(PYTHON).parent
SWEEP_RECEIVED = re.compile(r"Task games\.tasks\.sweep\[([0-9a-f-]+)\] received")
BOT_TURN_RECEIVED = re.compile(r"Task games\.tasks\.bot_play_turn\[[0-9a-f-]+\] received")
BOT_TURN_DONE = re.compile(
    r"Task games\.tasks\.bot_play_turn\[[0-9a-f-]+\] (succeeded|retry|raised)"
)
BEAT_SENT = "Sending due task sweep (games.tasks.sweep)"


@dataclass
class Node:
    address: str
    web: Served
    sockets: Served
    worker: subprocess.Popen[bytes]
    worker_log: Path

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """An API request to this node's granian; its status and JSON body."""
        status, _, data = request(self.web.port, method, path, body, token, host=self.address)
        return status, data

    def worker_text(self) -> str:
        return self.worker_log.read_text(errors="replace")


#: A node's granian and Daphne.
Servers = tuple[Served, Served]


@dataclass
class Nodes:
    a: Node
    b: Node
    stack: Stack
    beat_log: Path
    beat_started: float


def servers(address: str, name: str, stack: Stack, stop_later: contextlib.ExitStack) -> Servers:
    """A node's granian and Daphne, on ``address``; stopped when ``stop_later`` closes."""
    env, workdir = stack.celery.env, stack.celery.workdir
    web_port, sockets_port = free_port(), free_port()
    web = stop_later.enter_context(
        serving(
            production_server(web_port, host=address, workers=1, threads=4),
            port=web_port,
            env=env,
            log=workdir / f"granian-{name}.log",
            host=address,
        )
    )
    sockets = stop_later.enter_context(
        serving(
            [
                *(str(BIN / "daphne"), "-b", address, "-p", str(sockets_port)),
                "chickenfoot.asgi:application",
            ],
            port=sockets_port,
            env=env,
            log=workdir / f"daphne-{name}.log",
            host=address,
        )
    )
    return web, sockets


@pytest.fixture(scope="module")
def nodes(django_db_setup: None) -> Iterator[Nodes]:
    prefix = f"two-nodes-{secrets.token_hex(3)}"
    with (
        own_redis_and_celery(
            CELERY_QUEUE=prefix,
            CHANNELS_PREFIX=prefix,
            SWEEP_INTERVAL_SECONDS=str(SWEEP_EVERY),
            BOT_TURN_STALE_SECONDS=str(STALE_AFTER),
            ALLOWED_HOSTS=f"{NODE_A},{NODE_B}",
            RATE_LIMITS="off",
        ) as stack,
        contextlib.ExitStack() as stop_later,
    ):
        # (leaving: the servers first, then the workers and beat, then the Redis)
        # Each node's servers start in a thread of their own while the workers start here.
        with ThreadPoolExecutor(2) as pool:
            starting = {
                (address, name): pool.submit(
                    servers, address, name, stack, stop_later.enter_context(contextlib.ExitStack())
                )
                for address, name in ((NODE_A, "a"), (NODE_B, "b"))
            }
            # Without -Q: both queues, the main one and the bots' (the matches of bots only).
            workers = {}
            for name in ("a", "b"):
                workers[name] = (stack.celery.worker(f"node-{name}"), stack.celery.logs[-1])
            a, b = (
                Node(address, *future.result(), *workers[name])
                for (address, name), future in starting.items()
            )
        beat_started = time.monotonic()
        stack.celery.beat()
        yield Nodes(a, b, stack, stack.celery.logs[-1], beat_started)


def register(node: Node, username: str) -> str:
    status, body = node.call(
        "POST", "/api/players", {"username": username, "password": "correct horse battery"}
    )
    assert status == HTTPStatus.CREATED, body
    return str(body["token"])


def test_a_move_through_web_node_a_reaches_a_socket_on_daphne_node_b(nodes: Nodes) -> None:
    a, b = nodes.a, nodes.b
    # given: a match of two people, made, joined and started through node A
    tokens = [register(a, "ada"), register(a, "bob")]
    status, match = a.call(
        "POST",
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"rounds": 1},
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        },
        tokens[0],
    )
    assert status == HTTPStatus.CREATED, match
    path = f"/api/matches/{match['id']}"
    assert a.call("POST", f"{path}/join", None, tokens[1])[0] == HTTPStatus.OK
    assert a.call("POST", f"{path}/start", None, tokens[0])[0] == HTTPStatus.OK

    # and: ada's socket open on node B's Daphne
    with connect(
        f"ws://{b.address}:{b.sockets.port}/ws/matches/{match['id']}",
        additional_headers={"Authorization": f"Token {tokens[0]}"},
        open_timeout=30,
    ) as socket_:
        hello = json.loads(socket_.recv(timeout=30))
        assert hello["type"] == "hello"

        # when: the seat to move plays through node A's API
        status, view = a.call("GET", path, None, tokens[0])
        assert status == HTTPStatus.OK, view
        turn = view["state"]["turn"]
        status, legal = a.call("GET", f"{path}/legal-moves", None, tokens[turn])
        assert status == HTTPStatus.OK, legal
        move = {**legal["moves"][0], "version": legal["version"]}
        status, body = a.call("POST", f"{path}/moves", move, tokens[turn])
        assert status == HTTPStatus.CREATED, body

        # then: node B's socket has the move frame
        frames = []
        while not any(frame["type"] == "move" for frame in frames):
            frames.append(json.loads(socket_.recv(timeout=30)))
    (frame,) = [frame for frame in frames if frame["type"] == "move"]
    assert frame["seq"] == hello["seq"] + 1
    assert frame["seat"] == turn
    # and the move went through A's granian only, the socket through B's Daphne only
    assert f"POST {path}/moves" in a.web.log_text()
    assert f"{path}/moves" not in b.web.log_text()


def sweeps_received(node: Node) -> list[str]:
    return SWEEP_RECEIVED.findall(node.worker_text())


def test_one_beat_sends_each_sweep_to_one_of_the_two_workers_once(nodes: Nodes) -> None:
    # given: one beat and two workers consuming the same queue
    # when: beat has sent a few sweeps and the workers have taken them
    try:
        wait_for(
            lambda: (
                nodes.beat_log.read_text(errors="replace").count(BEAT_SENT) >= 6
                and len(sweeps_received(nodes.a) + sweeps_received(nodes.b)) >= 5
            ),
            90,
            "beat's sweeps to reach the workers",
            interval=0.5,
        )
    except AssertionError as timed_out:
        raise AssertionError(nodes.stack.celery.tail(30)) from timed_out

    # then: each sweep beat sent was run by one worker, once: no more sweeps ran than beat sent,
    # and beat sent at most one per interval
    received = sweeps_received(nodes.a) + sweeps_received(nodes.b)
    sent = nodes.beat_log.read_text(errors="replace").count(BEAT_SENT)
    alive = time.monotonic() - nodes.beat_started
    twice = [task for task, times in Counter(received).items() if times > 1]
    assert not twice, f"sweeps run twice: {twice}"
    assert len(received) <= sent
    assert sent <= alive / SWEEP_EVERY + 1, (sent, alive)


def bot_turn_running(node: Node) -> bool:
    text = node.worker_text()
    return len(BOT_TURN_RECEIVED.findall(text)) > len(BOT_TURN_DONE.findall(text))


def test_killing_worker_node_a_leaves_every_bot_match_to_worker_node_b(nodes: Nodes) -> None:
    a, b = nodes.a, nodes.b
    # given: four matches of bots only (two owners, two each), started through node A
    owners = [register(a, f"owner{n}") for n in range(2)]
    ids = []
    for token in owners:
        for levels in ((1, 2, 3, 1), (2, 1, 1, 3)):
            status, match = a.call(
                "POST",
                "/api/matches",
                {
                    "variant": "mexican_train",
                    "options": {"rounds": 2},
                    "seats": [{"kind": "bot", "level": level} for level in levels],
                },
                token,
            )
            assert status == HTTPStatus.CREATED, match
            started = a.call("POST", f"/api/matches/{match['id']}/start", None, token)
            assert started[0] == HTTPStatus.OK, started
            ids.append(match["id"])
    matches = list(Match.objects.filter(pk__in=ids).order_by("pk"))

    # when: both workers have played bot turns, worker A is SIGKILLed in the middle of one
    # (a solo worker takes one message at a time: one received and not yet done is running)
    wait_for(
        lambda: BOT_TURN_RECEIVED.search(b.worker_text()) and bot_turn_running(a),
        60,
        "both workers to play bot turns, and worker A in the middle of one",
        interval=0.05,
    )
    stop(a.worker, signal.SIGKILL)
    killed_after = {match.pk: moves_of(match) for match in matches}
    b_log_at_kill = len(b.worker_text())
    playing = Match.objects.filter(pk__in=ids, status=Match.Status.PLAYING).count()
    assert playing, "every match ended before the kill: play longer matches"

    # then: worker B finishes every match (the sweeper queues again the turns A held), and
    # every move of each is applied exactly once
    wait_for(
        lambda: Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED).count() == len(ids),
        150,
        "every match of bots to finish on worker B",
        interval=0.5,
    )
    assert a.worker.poll() == -signal.SIGKILL
    for match in matches:
        assert_played_exactly_once(match)
    assert sum(moves_of(match) for match in matches) > sum(killed_after.values())
    assert BOT_TURN_RECEIVED.search(b.worker_text()[b_log_at_kill:])
