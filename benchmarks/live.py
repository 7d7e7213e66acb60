"""Live latency: a bot's reply on the human's socket, and one event reaching 100 spectators.

    python -m benchmarks.live [--replies 200] [--spectators 100] [--events 40]
                              [--bot-only-load 20]

The production shape on this machine: a throwaway PostgreSQL database (``DATABASE_URL``,
default ``postgres://postgres@127.0.0.1:5432/chickenfoot_live_bench``; dropped at the end),
Redis for the broker and the channel layer (``REDIS_URL``, default
``redis://127.0.0.1:6379/11``, with a queue and key prefix of the run's own), gunicorn serving
HTTP, Daphne serving the sockets and the Celery workers as docker-compose.yml runs them: one
(prefork, concurrency 2) on the main queue, and one for the matches of bots only on
``<queue>.bots`` (concurrency 1, at ``nice`` 10).

1. **Bot reply.** Matches of a human and three bots (levels 1, 2 and 3): the human's client
   listens on its socket and, when a ``turn`` frame says it is to move, sends a legal move
   over HTTP. The time from the move's answer until the socket has the bot's reply (the next
   move frame, by a bot) is one sample: the worker's pick-up, the bot's move, the commit, the
   publish and the socket's read of the log.
   With ``--bot-only-load N``, the replies are timed again in alternating blocks: without
   matches of bots only, then while N matches of four strong bots (level 4, Mexican Train),
   each started by a player of its own, play (abandoned after the block), so that a shared
   machine's other load falls on both alike.
2. **Fan-out.** 100 organiser sockets watch a match of two humans; each move's time is from its
   answer until the last of the 100 sockets has its frame.

The last line printed is one JSON object: ``bot_reply_p50_ms``, ``bot_reply_p99_ms``,
``fanout_100_p50_ms``, ``fanout_100_p99_ms``, with counts and the load average. With
``--bot-only-load N`` it adds ``idle_bot_reply_p50_ms``, ``idle_bot_reply_p95_ms``,
``loaded_bot_reply_p50_ms``, ``loaded_bot_reply_p95_ms``, ``loaded_to_idle_p95``
(the target: at most 2), and what the load did meanwhile: ``bot_only_matches``,
``bot_only_moves`` (the moves they played while the loaded replies were timed) and
``bot_only_playing`` (the fewest still playing at the end of a block: the load lasted).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import websockets

from benchmarks.api import ROOT, Client, admin, expect, free_port, log, percentile, wait_for_server

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/chickenfoot_live_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/11"


#: The matches of the load: four strong bots (they search, 150 ms a move) at a long game.
BOT_ONLY_MATCH = {
    "variant": "mexican_train",
    "options": {"max_pip": 12},
    "seats": [{"kind": "bot", "level": 4}] * 4,
}


class Stack:
    """gunicorn, Daphne and the Celery workers on one database and one Redis."""

    def __init__(self, env: dict[str, str], queue: str) -> None:
        self.env, self.queue = env, queue
        self.http_port, self.ws_port = free_port(), free_port()
        self.processes: list[subprocess.Popen[bytes]] = []

    def _spawn(self, *argv: str, nice: int = 0) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(  # noqa: S603 - our interpreter, fixed commands
            [sys.executable, "-m", *argv],
            cwd=ROOT,
            env=self.env,
            preexec_fn=(lambda: os.nice(nice)) if nice else None,
        )
        self.processes.append(process)
        return process

    def start(self) -> None:
        web = self._spawn(
            *("gunicorn", "chickenfoot.wsgi:application", "--bind"),
            f"127.0.0.1:{self.http_port}",
            *("--workers", "2", "--worker-class", "gthread", "--threads", "4"),
            *("--keep-alive", "30", "--log-level", "warning"),
        )
        sockets = self._spawn(
            *("daphne", "-b", "127.0.0.1", "-p", str(self.ws_port), "-v", "0"),
            "chickenfoot.asgi:application",
        )
        self._spawn(
            *("celery", "-A", "chickenfoot", "worker", "-Q", self.queue, "-n"),
            f"{self.queue}@bench",
            *("--concurrency", "2", "--pool", "prefork", "--loglevel", "WARNING"),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
        )
        # The matches of bots only: a worker of their own, one process, at a lower CPU priority.
        self._spawn(
            *("celery", "-A", "chickenfoot", "worker", "-Q", f"{self.queue}.bots", "-n"),
            f"{self.queue}-bots@bench",
            *("--concurrency", "1", "--pool", "prefork", "--loglevel", "WARNING"),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
            nice=10,
        )
        wait_for_server(self.http_port, web)
        wait_for_server(self.ws_port, sockets)
        time.sleep(2)  # the worker connects to the broker

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def register(client: Client, name: str) -> str:
    status, body, _ = client.call(
        "POST", "/api/players", {"username": name, "password": f"pw-{name}-long-enough"}
    )
    return expect(status, 201, body, "register")["token"]


async def call(client: Client, *args: Any) -> tuple[int, Any, float]:
    return await asyncio.to_thread(client.call, *args)


async def bot_replies(stack: Stack, token: str, wanted: int) -> list[float]:
    """Play human-and-three-bots matches until ``wanted`` bot replies were timed."""
    client = Client(stack.http_port)
    rng = random.Random(1)
    samples: list[float] = []
    while len(samples) < wanted:
        seats = [{"kind": "creator"}] + [{"kind": "bot", "level": n} for n in (1, 2, 3)]
        status, body, _ = await call(
            client,
            "POST",
            "/api/matches",
            {"variant": "chickenfoot", "options": {"max_pip": 9, "rounds": 2}, "seats": seats},
            token,
        )
        match_id = expect(status, 201, body, "create")["id"]
        url = f"ws://127.0.0.1:{stack.ws_port}/ws/matches/{match_id}"
        headers = {"Authorization": f"Token {token}"}
        async with websockets.connect(url, additional_headers=headers) as socket:
            expect(json.loads(await socket.recv())["type"] == "hello", True, None, "hello")
            status, body, _ = await call(
                client, "POST", f"/api/matches/{match_id}/start", None, token
            )
            expect(status, 200, body, "start")
            sent_at: float | None = None
            try:
                async for text in socket:
                    frame = json.loads(text)
                    if frame["type"] == "move" and frame["seat"] != 0 and sent_at is not None:
                        samples.append((time.perf_counter() - sent_at) * 1000)
                        sent_at = None
                    elif frame["type"] == "turn" and frame["seat"] == 0:
                        status, legal, _ = await call(
                            client, "GET", f"/api/matches/{match_id}/legal-moves", None, token
                        )
                        expect(status, 200, legal, "legal moves")
                        if not legal["moves"] or legal["version"] != frame["version"]:
                            continue  # a newer frame is on its way
                        move = {**rng.choice(legal["moves"]), "version": legal["version"]}
                        status, body, _ = await call(
                            client, "POST", f"/api/matches/{match_id}/moves", move, token
                        )
                        expect(status, 201, body, "move")
                        answered = time.perf_counter()
                        if body["state"]["turn"] != 0 and body["state"]["status"] == "playing":
                            sent_at = answered  # a bot is to reply
                    if len(samples) >= wanted:
                        break
            except websockets.ConnectionClosed as closed:
                if closed.rcvd is None or closed.rcvd.code != 4000:  # 4000: the match is over
                    raise
    return samples


async def bot_only_players(stack: Stack, run_id: str, n: int) -> list[str]:
    """The tokens of ``n`` players, each to start one match of bots only."""
    client = Client(stack.http_port)
    return [register(client, f"l{run_id}{index}") for index in range(n)]


async def bot_only_start(stack: Stack, tokens: list[str]) -> list[int]:
    """Start a match of four strong bots for each of ``tokens``."""
    client = Client(stack.http_port)
    matches = []
    for token in tokens:
        status, body, _ = await call(client, "POST", "/api/matches", BOT_ONLY_MATCH, token)
        match_id = expect(status, 201, body, "create a match of bots")["id"]
        status, body, _ = await call(client, "POST", f"/api/matches/{match_id}/start", None, token)
        expect(status, 200, body, "start a match of bots")
        matches.append(match_id)
    return matches


async def bot_only_progress(stack: Stack, matches: list[int], tokens: list[str]) -> tuple[int, int]:
    """The bot-only matches' moves so far (their versions, added up), and how many still play."""
    client = Client(stack.http_port)
    versions, playing = 0, 0
    for match_id, token in zip(matches, tokens, strict=True):
        status, body, _ = await call(client, "GET", f"/api/matches/{match_id}", None, token)
        view = expect(status, 200, body, "watch a match of bots")
        versions += view["version"]
        playing += view["status"] == "playing"
    return versions, playing


async def bot_only_stop(stack: Stack, matches: list[int], tokens: list[str]) -> None:
    """Abandon the matches: their queued turns find nothing to do."""
    client = Client(stack.http_port)
    for match_id, token in zip(matches, tokens, strict=True):
        status, body, _ = await call(
            client, "POST", f"/api/matches/{match_id}/abandon", None, token
        )
        expect(status, 200, body, "abandon a match of bots")


#: Blocks of replies timed in turn without and with the matches of bots only.
BLOCKS = 5


async def idle_and_loaded(
    stack: Stack, token: str, owners: list[str], wanted: int
) -> tuple[list[float], list[float], dict[str, int]]:
    """``wanted`` bot replies with no match of bots only, and ``wanted`` while one per owner
    plays, timed in alternating blocks (the matches started before each loaded block and
    abandoned after it), so that a shared machine's other load falls on both alike. Whatever
    worker plays the matches of bots only, the idle blocks have none to play."""
    idle: list[float] = []
    loaded: list[float] = []
    moves, playing = 0, len(owners)
    block = max(1, -(-wanted // BLOCKS))
    while len(loaded) < wanted:
        idle += await bot_replies(stack, token, min(block, wanted - len(idle)))
        matches = await bot_only_start(stack, owners)
        try:
            await asyncio.sleep(2)  # the load under way
            before, _ = await bot_only_progress(stack, matches, owners)
            loaded += await bot_replies(stack, token, min(block, wanted - len(loaded)))
            after, still = await bot_only_progress(stack, matches, owners)
            moves, playing = moves + after - before, min(playing, still)
        finally:
            await bot_only_stop(stack, matches, owners)
        await asyncio.sleep(1)  # their last turns in flight end
    return idle, loaded, {"bot_only_moves": moves, "bot_only_playing": playing}


async def fanout(
    stack: Stack, tokens: list[str], organiser: str, n: int, events: int
) -> list[float]:
    """Times for one move of a two-human match to reach all ``n`` organiser sockets."""
    client = Client(stack.http_port)
    rng = random.Random(2)
    status, body, _ = await call(
        client,
        "POST",
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"max_pip": 9},
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        },
        tokens[0],
    )
    match_id = expect(status, 201, body, "create")["id"]
    expect(
        (await call(client, "POST", f"/api/matches/{match_id}/join", None, tokens[1]))[0],
        200,
        None,
        "join",
    )
    expect(
        (await call(client, "POST", f"/api/matches/{match_id}/start", None, tokens[0]))[0],
        200,
        None,
        "start",
    )
    url = f"ws://127.0.0.1:{stack.ws_port}/ws/matches/{match_id}"
    headers = {"Authorization": f"Token {organiser}"}
    sockets = []
    for _ in range(n):
        sockets.append(await websockets.connect(url, additional_headers=headers, max_queue=None))
    for socket in sockets:
        json.loads(await socket.recv())  # hello

    async def first_move(socket: Any, seq: int) -> float:
        while True:
            frame = json.loads(await socket.recv())
            if frame["type"] == "move" and frame["seq"] == seq:
                return time.perf_counter()

    samples = []
    try:
        for seq in range(1, events + 1):  # two humans, no bots: one move per event
            status, view, _ = await call(client, "GET", f"/api/matches/{match_id}", None, tokens[0])
            if view["status"] != "playing":
                break
            turn = view["state"]["turn"]
            status, legal, _ = await call(
                client, "GET", f"/api/matches/{match_id}/legal-moves", None, tokens[turn]
            )
            waiting = [asyncio.ensure_future(first_move(s, seq)) for s in sockets]
            move = {**rng.choice(legal["moves"]), "version": legal["version"]}
            status, body, _ = await call(
                client, "POST", f"/api/matches/{match_id}/moves", move, tokens[turn]
            )
            expect(status, 201, body, "move")
            answered = time.perf_counter()
            arrived = await asyncio.wait_for(asyncio.gather(*waiting), 30)
            samples.append((max(arrived) - answered) * 1000)
    finally:
        for socket in sockets:
            await socket.close()
    return samples


async def run(stack: Stack, run_id: str, args: argparse.Namespace) -> dict[str, Any]:
    client = Client(stack.http_port)
    human = register(client, f"h{run_id}")
    replies = await bot_replies(stack, human, args.replies)
    log(f"benchmark: {len(replies)} bot replies timed")
    loaded: dict[str, Any] = {}
    if args.bot_only_load:
        owners = await bot_only_players(stack, run_id, args.bot_only_load)
        idle, under_load, load = await idle_and_loaded(stack, human, owners, args.replies)
        log(f"benchmark: {len(under_load)} bot replies timed beside {len(owners)} bot matches")
        idle_p95, loaded_p95 = percentile(idle, 95), percentile(under_load, 95)
        loaded = {
            "idle_bot_reply_p50_ms": percentile(idle, 50),
            "idle_bot_reply_p95_ms": idle_p95,
            "loaded_bot_reply_p50_ms": percentile(under_load, 50),
            "loaded_bot_reply_p95_ms": loaded_p95,
            "loaded_to_idle_p95": round(loaded_p95 / idle_p95, 2)
            if idle_p95 and loaded_p95
            else None,
            "idle_bot_replies": len(idle),
            "loaded_bot_replies": len(under_load),
            "bot_only_matches": len(owners),
            **load,
        }
    players = [register(client, f"p{run_id}{i}") for i in range(2)]
    organiser = register(client, f"o{run_id}")
    organiser_promote(stack.env, f"o{run_id}")
    spread = await fanout(stack, players, organiser, args.spectators, args.events)
    log(f"benchmark: {len(spread)} events to {args.spectators} spectators timed")
    return {
        "bot_reply_p50_ms": percentile(replies, 50),
        "bot_reply_p99_ms": percentile(replies, 99),
        "fanout_100_p50_ms": percentile(spread, 50),
        "fanout_100_p99_ms": percentile(spread, 99),
        "bot_replies": len(replies),
        "fanout_events": len(spread),
        "spectators": args.spectators,
        **loaded,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument(
        "--bot-only-load",
        type=int,
        default=0,
        help="time the bot replies again while this many matches of strong bots only play",
    )
    args = parser.parse_args()

    with bench_run(DEFAULT_URL, "live") as bench:
        bench.stack.start()
        summary = asyncio.run(run(bench.stack, bench.run_id, args))
    summary["load_avg_1m"] = bench.load_avg()
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


@dataclass
class BenchRun:
    """A benchmark's throwaway database and Redis prefix, and the stack on them (not started)."""

    url: str
    redis_url: str
    queue: str
    run_id: str
    env: dict[str, str]
    stack: Stack
    load_before: float

    def load_avg(self) -> list[float]:
        """The 1-minute load average when the run began, and now."""
        return [round(self.load_before, 2), round(os.getloadavg()[0], 2)]


@contextmanager
def bench_run(default_url: str, name: str) -> Iterator[BenchRun]:
    """A fresh, migrated database (``BENCH_DATABASE_URL`` or ``default_url``) and a queue and key
    prefix of the run's own on Redis (``BENCH_REDIS_URL``); the stack is stopped and the
    database and keys removed on the way out."""
    url = os.environ.get("BENCH_DATABASE_URL") or default_url
    redis_url = os.environ.get("BENCH_REDIS_URL") or DEFAULT_REDIS
    db_name = urlsplit(url).path.lstrip("/")
    run_id = secrets.token_hex(3)
    queue = f"{name}-bench-{run_id}"
    env = stack_env(url, redis_url, queue)
    log(f"benchmark: database {db_name}, redis {redis_url}, queue {queue}")
    admin(url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    admin(url, f'CREATE DATABASE "{db_name}"')
    stack = Stack(env, queue)
    bench = BenchRun(url, redis_url, queue, run_id, env, stack, os.getloadavg()[0])
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        yield bench
    finally:
        stack.stop()
        admin(url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        clean_redis(redis_url, queue)


def stack_env(url: str, redis_url: str, queue: str) -> dict[str, str]:
    """The environment of a ``Stack`` on database ``url`` and Redis ``redis_url``, with a queue
    and key prefix of its own."""
    return {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")} | {
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "CELERY_QUEUE": queue,
        "CHANNELS_PREFIX": queue,
        "DJANGO_SETTINGS_MODULE": "chickenfoot.settings",
        "SECRET_KEY": secrets.token_hex(16),
        "LOG_LEVEL": "WARNING",
        "RATE_LIMITS": "off",  # the clients play faster than people, all from 127.0.0.1
    }


def organiser_promote(env: dict[str, str], username: str) -> None:
    """Make player ``username`` an organiser (as an administrator would)."""
    promote = (
        "from games.models import Player; "
        f"Player.objects.filter(user__username={username!r}).update(is_organiser=True)"
    )
    subprocess.run(  # noqa: S603 - our interpreter, a fixed command
        [sys.executable, "manage.py", "shell", "-c", promote], cwd=ROOT, env=env, check=True
    )


def clean_redis(url: str, prefix: str) -> None:
    """Delete the keys of a run's queue and channel prefix."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        for key in client.scan_iter(f"*{prefix}*"):
            client.delete(key)
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
