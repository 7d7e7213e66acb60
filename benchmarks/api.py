"""Full matches between human clients over real HTTP, against a WSGI server on PostgreSQL.

    python -m benchmarks.api [--clients 8] [--seconds 30] [--warmup-seconds 2]
                             [--server granian|gthread|sync] [--workers 2] [--threads 2]
                             [--proxy none|nginx] [--cpu-requests 300]
                             [--channels-redis redis://127.0.0.1:6379/11]
                             [--login-flood [--flood-seconds 15] [--flood-rate 20]
                              [--cache-redis redis://127.0.0.1:6379/11] [--no-hashing-bounds]]

Creates a throwaway database (``DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/chickenfoot_bench``; dropped at the end), migrates it, and
starts the WSGI server on a free loopback port (``benchmarks/serving.py``: production's granian
by default), with nginx in front with ``--proxy nginx``. Each client thread registers four
players, then plays Chicken Foot matches (four seats, double-9, every round) back to back: for
the seat to move it asks the legal-moves endpoint, picks one with a seeded RNG and submits it
with the version it answers. After every fifth move it also times a GET on the same server
under the same load: a trivial authenticated one (``GET /api/players/me``) and the match view
(``GET /api/matches/{id}``) in turn. The clients play ``--warmup-seconds`` untimed first, then
until the time budget or the request cap. With ``--channels-redis`` (default:
``BENCH_REDIS_URL`` when set) every move is also published to the sockets' channel layer on
that Redis, as in production (without it the layer is in memory). After the play, one client
sends ``--cpu-requests`` legal-moves GETs, then as many match views, of a match in play, one at
a time, for the server's CPU per request of each.

The last line printed is one JSON object (``KEYS``; docs/api.md, "Benchmark", describes each):
latencies and counts, the CPU per move of each process group (the server, PostgreSQL's backends,
Redis, nginx, the clients), the CPU per request of the two GETs alone, the load average and the
other processes' CPU with ``loaded``, and ``targets``. Needs PostgreSQL; loopback traffic only.

``--login-flood`` then times the same GET, 20 a second sent open-loop, for ``--flood-seconds``
with the server idle and as long again during a flood of ``--flood-rate`` anonymous log-ins a
second from 1,000 rotating addresses, in alternating 5-second windows
(``benchmarks/login_flood.py``), and adds ``idle_get_p50_ms``, ``flood_get_p50_ms``, their ratio
``flood_to_idle``, the server's share of a core in each (``idle_server_cores``,
``flood_server_cores``), what the flood was answered (``flood_answers``), and how the players'
own log-ins fared meanwhile: as known devices (``known_device_login_success``,
``known_device_login_p95_ms``) and without a device credential (``unknown_login_success``);
``login_flood.KEYS`` lists what it adds, ``targets`` judges three of them. For it the server
runs as in production where hashing is concerned: the production password hasher, the hashing
bounds at their defaults
(``--no-hashing-bounds`` turns them off, for comparison), the log-in throttle and the lockout on,
its cache (which counts the hashes of every worker together) on Redis (``--cache-redis``,
default ``BENCH_REDIS_URL``), one trusted proxy (the flood's addresses come as
``X-Forwarded-For``); the other throttles are off, since the clients play faster than people.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from benchmarks import login_flood, serving
from benchmarks.http_client import Client

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/chickenfoot_bench"
SEATS = 4
OPTIONS = {"max_pip": 9}
#: Which moves of a match the flat-cost check compares: each with the five before and after it
#: (eleven samples a match, so that a handful of long matches give a steady median).
EARLY, LATE = 10, 200
WINDOW = 5
CORES = os.cpu_count() or 1
#: The request the latency comparison times against a move (``get_p50_ms``).
GET_REQUEST = "GET /api/players/me"
#: Moves played into a fresh match for the CPU phases when no client left one in play.
MID_ROUND = 20
#: A machine is ``loaded`` when its 1-minute load average at the start is above this per core,
#: or when other processes used more than this many cores during the run.
LOADED_AVG_PER_CORE = 0.5
LOADED_OTHER_CORES = 0.1
#: The keys of the JSON line of every run (docs/api.md describes each; CI checks them with
#: ``benchmarks.keys``). ``--login-flood`` adds its own.
KEYS = (
    *("moves_per_s", "move_p50_ms", "move_p99_ms", "get_request", "get_p50_ms"),
    *("match_view_p50_ms", "move10_p50_ms", "move200_p50_ms", "move_to_get"),
    *("move200_to_move10", "moves", "requests", "server_cpu_ms_per_move"),
    *("db_cpu_ms_per_move", "redis_cpu_ms_per_move", "proxy_cpu_ms_per_move"),
    *("server_db_cpu_ms_per_move", "server_to_db_cpu", "client_cpu_ms_per_move"),
    *("server_proxy_cpu_ms_per_request", "cpu_bound_moves_per_s", "legal_moves_cpu_ms"),
    *("match_view_cpu_ms", "legal_moves_proxy_cpu_ms", "match_view_proxy_cpu_ms"),
    *("match_view_to_legal_moves", "cpu_requests", "cores", "server"),
    *("proxy", "channel_layer", "load_avg_1m", "load_avg_after", "other_cpu_cores", "loaded"),
    *("matches_finished", "long_matches", "clients", "workers", "threads", "seconds", "errors"),
    *("targets.server_to_db_cpu", "targets.match_view_to_legal_moves"),
    *("targets.moves_per_s", "targets.move_to_get"),
)


def log(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def admin(url: str, sql: str) -> None:
    """Run ``sql`` on the server's maintenance database (autocommit)."""
    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True, connect_timeout=3) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return round(ordered[index], 2)


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.moves: list[float] = []
        self.gets: list[float] = []
        self.views: list[float] = []
        self.requests = 0
        #: (match id, the token of the seat to move) of each match left in play at the deadline
        self.in_play: list[tuple[int, str]] = []
        self.by_index: dict[int, list[float]] = {EARLY: [], LATE: []}
        self.matches_finished = 0
        self.long_matches = 0
        self.errors: list[str] = []


def expect(status: int, wanted: int, body: Any, what: str) -> Any:
    if status != wanted:
        raise RuntimeError(f"{what}: HTTP {status}: {body}")
    return body


def account(run_id: str, index: int, seat: int) -> tuple[str, str]:
    """The username and password of client ``index``'s player at ``seat``."""
    name = f"b{run_id}c{index}s{seat}"
    return name, f"pw-{run_id}-{name}-long"


def register(port: int, index: int, run_id: str, tokens: list[list[str]]) -> None:
    """Client ``index``'s four players (before the clock starts: hashing passwords is slow);
    a registration answered ``busy`` (too many passwords hashing) is sent again when it says."""
    client = Client(port)
    for seat in range(SEATS):
        name, password = account(run_id, index, seat)
        for _ in range(120):
            status, body, _ = client.call(
                "POST", "/api/players", {"username": name, "password": password}
            )
            if status != 429 or body.get("code") != "busy":
                break
            time.sleep(1)
        tokens[index].append(expect(status, 201, body, "register")["token"])


def new_match(client: Client, tokens: list[str]) -> tuple[int, int]:
    """A four-seat match between ``tokens``' players, started: its id and the seat to move."""
    seats = [{"kind": "creator"}] + [{"kind": "open"}] * (SEATS - 1)
    status, body, _ = client.call(
        "POST",
        "/api/matches",
        {"variant": "chickenfoot", "options": OPTIONS, "seats": seats},
        tokens[0],
    )
    match_id = expect(status, 201, body, "create")["id"]
    for seat in range(1, SEATS):
        status, body, _ = client.call(
            "POST", f"/api/matches/{match_id}/join", {"position": seat}, tokens[seat]
        )
        expect(status, 200, body, "join")
    status, body, _ = client.call("POST", f"/api/matches/{match_id}/start", None, tokens[0])
    return match_id, expect(status, 200, body, "start")["state"]["turn"]


def take_turn(
    client: Client, match_id: int, token: str, rng: random.Random
) -> tuple[int | None, float]:
    """The seat to move asks for its legal moves and plays one: the next seat to move (``None``
    once the match is over) and the move's time (ms)."""
    status, legal, _ = client.call("GET", f"/api/matches/{match_id}/legal-moves", None, token)
    expect(status, 200, legal, "legal moves")
    move = rng.choice(legal["moves"])
    status, body, elapsed = client.call(
        "POST", f"/api/matches/{match_id}/moves", {**move, "version": legal["version"]}, token
    )
    expect(status, 201, body, "move")
    state = body["state"]
    return (state["turn"] if state["status"] == "playing" else None), elapsed


def play(
    port: int, index: int, tokens: list[str], deadline: float, cap: int, results: Results
) -> None:
    """One client: play whole matches between its four players until the deadline."""
    client = Client(port)
    rng = random.Random(index)
    moves: list[float] = []
    gets: list[float] = []
    views: list[float] = []
    by_index: dict[int, list[float]] = {EARLY: [], LATE: []}
    finished = 0
    long_matches = 0
    try:
        while time.perf_counter() < deadline and client.requests < cap:
            match_id, turn = new_match(client, tokens)
            number = 0
            while turn is not None:
                if time.perf_counter() >= deadline or client.requests >= cap:
                    with results.lock:
                        results.in_play.append((match_id, tokens[turn]))
                    return
                turn, elapsed = take_turn(client, match_id, tokens[turn], rng)
                number += 1
                moves.append(elapsed)
                for index, values in by_index.items():
                    if abs(number - index) <= WINDOW:
                        values.append(elapsed)
                if number == LATE:
                    long_matches += 1
                if number % 5 == 0:
                    # a fifth of a GET a move: /players/me and the match view in turn
                    path = "/api/players/me" if number % 10 else f"/api/matches/{match_id}"
                    status, body, get_ms = client.call("GET", path, None, tokens[0])
                    expect(status, 200, body, path)
                    (gets if number % 10 else views).append(get_ms)
            finished += 1
    except Exception as exc:  # noqa: BLE001 - reported, and the run fails
        with results.lock:
            results.errors.append(f"client {index}: {type(exc).__name__}: {exc}")
    finally:
        with results.lock:
            results.moves += moves
            results.gets += gets
            results.views += views
            for key, values in by_index.items():
                results.by_index[key] += values
            results.matches_finished += finished
            results.long_matches += long_matches
            results.requests += client.requests


def flood_env(env: dict[str, str], cache_redis: str, *, bounds: bool) -> dict[str, str]:
    """The server's environment for ``--login-flood``: production's hashing, limits that stop
    no benchmark client (they play from one address, faster than people), one trusted proxy."""
    dropped = ("RATE_LIMITS", "PASSWORD_HASHES_", "THROTTLE_")
    env = {key: value for key, value in env.items() if not key.startswith(dropped)}
    off = ("REGISTER", "MATCH_CREATE", "MATCH_CREATE_ADDRESS", "MOVE", "MOVE_ADDRESS")
    env |= {f"THROTTLE_{scope}": "off" for scope in off}
    env |= {"CACHE_REDIS_URL": cache_redis, "NUM_PROXIES": "1"}
    if not bounds:
        env |= {"PASSWORD_HASHES_PER_SECOND": "0", "PASSWORD_HASHES_AT_ONCE": "0"}
    return env


def backend_cpu(url: str, db_name: str) -> dict[int, float] | None:
    """CPU seconds used so far by each PostgreSQL backend connected to ``db_name``.

    ``None`` when the server's processes are not on this machine (their ``/proc`` is not ours).
    """
    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True, connect_timeout=3) as conn:
        pids = [
            row[0]
            for row in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", [db_name]
            ).fetchall()
        ]
    tick = os.sysconf("SC_CLK_TCK")
    used: dict[int, float] = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        used[pid] = (int(fields[11]) + int(fields[12])) / tick
    return used


class DatabaseCpu:
    """The CPU of the PostgreSQL backends connected to one database, between ``start`` and
    ``stop`` (a backend that ended in between took its CPU with it: the figure is a floor)."""

    def __init__(self, url: str, db_name: str) -> None:
        self.url, self.db_name = url, db_name
        self.before: dict[int, float] | None = None

    def start(self) -> None:
        self.before = backend_cpu(self.url, self.db_name)

    def stop(self) -> float | None:
        if self.before is None:
            return None
        after = backend_cpu(self.url, self.db_name)
        if after is None:
            return None
        return sum(cpu - self.before.get(pid, 0.0) for pid, cpu in after.items())


def run_clients(
    port: int, tokens: list[list[str]], deadline: float, args: argparse.Namespace, results: Results
) -> None:
    """Every client plays, each in a thread of its own, until the deadline."""
    threads = [
        threading.Thread(
            target=play,
            args=(port, i, tokens[i], deadline, args.max_requests, results),
            daemon=True,
        )
        for i in range(args.clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.perf_counter()) + 60)


def wait_for_server(port: int, server: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server exited during startup")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/health")
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the server did not answer /api/health in time")


def match_in_play(port: int, tokens: list[str], results: Results) -> tuple[int, str]:
    """A match in play with a realistic state, and the token of the seat to move: a client's
    last match, or else one played to the middle of its first round."""
    if results.in_play:
        return results.in_play[0]
    client = Client(port)
    rng = random.Random(0)
    match_id, turn = new_match(client, tokens)
    for _ in range(MID_ROUND):
        upcoming, _ = take_turn(client, match_id, tokens[turn], rng)
        if upcoming is None:
            break
        turn = upcoming
    client.close()
    return match_id, tokens[turn]


def cpu_per_request(
    port: int, path: str, token: str, count: int, meter: serving.Meter
) -> dict[str, float | None]:
    """The CPU (ms) per request of each of ``meter``'s process groups, over ``count`` GETs of
    ``path`` sent one at a time."""
    client = Client(port)
    status, body, _ = client.call("GET", path, None, token)  # connected, and a first answer
    expect(status, 200, body, path)
    meter.start()
    for _ in range(count):
        status, body, _ = client.call("GET", path, None, token)
        expect(status, 200, body, path)
    used = meter.stop()
    client.close()
    return {
        name: round(cpu * 1000 / count, 3) if cpu is not None else None
        for name, cpu in used.items()
    }


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    return round(numerator / denominator, 2) if numerator and denominator else None


def targets(summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The issue's targets, each with its value, its bound and whether it is met."""
    wanted = {
        "server_to_db_cpu": ("at_most", 3),
        "match_view_to_legal_moves": ("at_most", 2),
        "moves_per_s": ("at_least", 200),
        "move_to_get": ("at_most", 3),
    }
    met: dict[str, dict[str, Any]] = {}
    for key, (bound, limit) in wanted.items():
        value = summary.get(key)
        ok = None if value is None else (value <= limit if bound == "at_most" else value >= limit)
        met[key] = {"value": value, bound: limit, "met": ok}
    return met


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--warmup-seconds",
        type=float,
        default=2.0,
        help="the clients play this long, untimed, before the timed play",
    )
    parser.add_argument("--server", choices=serving.SERVERS, default="granian")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2, help="per worker (not --server sync)")
    parser.add_argument("--proxy", choices=serving.PROXIES, default="none")
    parser.add_argument("--max-requests", type=int, default=50_000, help="per client")
    parser.add_argument(
        "--cpu-requests",
        type=int,
        default=300,
        help="legal-moves GETs, then as many match views, timed for CPU after the play",
    )
    parser.add_argument(
        "--channels-redis",
        metavar="URL",
        default=os.environ.get("BENCH_REDIS_URL") or None,
        help="publish each move to the sockets' channel layer on this Redis, as in production "
        "(default: BENCH_REDIS_URL when set)",
    )
    parser.add_argument(
        "--login-flood",
        action="store_true",
        help="then time GETs idle and during a flood of log-ins from rotating addresses",
    )
    parser.add_argument("--flood-seconds", type=float, default=15.0, help="each of the two")
    parser.add_argument("--flood-rate", type=float, default=20.0, help="log-ins a second")
    parser.add_argument(
        "--cache-redis",
        metavar="URL",
        default=os.environ.get("BENCH_REDIS_URL") or None,
        help="the server's cache for --login-flood (default: BENCH_REDIS_URL when set)",
    )
    parser.add_argument(
        "--no-hashing-bounds",
        action="store_true",
        help="with --login-flood: the server without its password-hashing bounds (before)",
    )
    return parser


def parse_args() -> argparse.Namespace:
    parser = build_parser()
    args = parser.parse_args()
    if args.login_flood and not args.cache_redis:
        parser.error(
            "--login-flood needs --cache-redis (or BENCH_REDIS_URL): the hashes of "
            "every worker are counted together there"
        )
    if args.login_flood and args.proxy != "none":
        parser.error("--login-flood sends its own X-Forwarded-For: it runs without --proxy")
    return args


def main() -> int:
    args = parse_args()
    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or DEFAULT_URL
    db_name = urlsplit(url).path.lstrip("/")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")} | {
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "chickenfoot.settings",
        "SECRET_KEY": secrets.token_hex(16),
        "LOG_LEVEL": "WARNING",
        "RATE_LIMITS": "off",  # the clients play faster than people, all from 127.0.0.1
    }
    if args.proxy != "none":
        env["NUM_PROXIES"] = "1"
    python = sys.executable
    run_id = secrets.token_hex(3)
    if args.channels_redis:
        env |= {"CHANNELS_REDIS_URL": args.channels_redis, "CHANNELS_PREFIX": f"bench-{run_id}"}
    if args.login_flood:
        env = flood_env(env, args.cache_redis, bounds=not args.no_hashing_bounds)
    setup_name = serving.describe(args.server, args.workers, args.threads)
    log(f"benchmark: database {db_name}")
    admin(url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    admin(url, f'CREATE DATABASE "{db_name}"')
    server = None
    proxy = None
    try:
        subprocess.run(  # noqa: S603 - our interpreter, a fixed command
            [python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        app_port = free_port()
        server = subprocess.Popen(  # noqa: S603 - our interpreter, a fixed command
            serving.server_command(python, args.server, app_port, args.workers, args.threads),
            cwd=ROOT,
            env=env,
        )
        wait_for_server(app_port, server)
        port = app_port
        if args.proxy == "nginx":
            port = free_port()
            proxy = serving.start_nginx(port, app_port)
            wait_for_server(port, proxy.process)
        server_pid = server.pid
        probes: dict[str, Callable[[], float | None]] = {
            "server": lambda: serving.process_tree_cpu(server_pid),
            "client": time.process_time,
            "machine": serving.machine_busy,
        }
        if proxy is not None:
            proxy_pid = proxy.process.pid
            probes["proxy"] = lambda: serving.process_tree_cpu(proxy_pid)
        redis_pid = serving.redis_pid(args.channels_redis) if args.channels_redis else None
        if redis_pid is not None:
            probes["redis"] = lambda: serving.pid_cpu(redis_pid)  # type: ignore[arg-type]
        log(
            f"benchmark: {setup_name} on 127.0.0.1:{app_port}"
            + (f", behind nginx on 127.0.0.1:{port}" if proxy else "")
            + f"; {args.clients} clients for {args.seconds:.0f} s"
        )
        tokens: list[list[str]] = [[] for _ in range(args.clients)]
        setup = [
            threading.Thread(target=register, args=(port, i, run_id, tokens))
            for i in range(args.clients)
        ]
        for thread in setup:
            thread.start()
        for thread in setup:
            thread.join(timeout=120)
        results = Results()
        if args.warmup_seconds > 0:
            # every worker's first requests import and build what later ones reuse
            warm = Results()
            run_clients(port, tokens, time.perf_counter() + args.warmup_seconds, args, warm)
            results.errors += warm.errors
        meter = serving.Meter(probes)
        db_meter = DatabaseCpu(url, db_name)
        db_meter.start()
        meter.start()
        load_before = os.getloadavg()[0]
        started = time.perf_counter()
        run_clients(port, tokens, started + args.seconds, args, results)
        elapsed = time.perf_counter() - started
        used = meter.stop()
        db_used = db_meter.stop()
        load_after = os.getloadavg()
        phases: dict[str, Any] = {}
        if args.cpu_requests > 0 and not results.errors:
            match_id, token = match_in_play(port, tokens[0], results)
            groups = {name: probes[name] for name in ("server", "proxy") if name in probes}
            for name, path in (
                ("legal_moves", f"/api/matches/{match_id}/legal-moves"),
                ("match_view", f"/api/matches/{match_id}"),
            ):
                used_by = cpu_per_request(
                    port, path, token, args.cpu_requests, serving.Meter(groups)
                )
                phases[f"{name}_cpu_ms"] = used_by["server"]
                phases[f"{name}_proxy_cpu_ms"] = used_by.get("proxy")
            phases["cpu_requests"] = args.cpu_requests
        flood: dict[str, Any] = {}
        if args.login_flood:
            log(
                f"benchmark: GETs for {args.flood_seconds:.0f} s idle, then as long during "
                f"{args.flood_rate:g} log-ins a second from {login_flood.ADDRESSES} addresses"
            )
            flood, flood_errors = login_flood.measure(
                port,
                tokens[0][0],
                [account(run_id, i, seat) for i in range(args.clients) for seat in range(SEATS)],
                seconds=args.flood_seconds,
                rate=args.flood_rate,
                run_id=run_id,
                percentile=percentile,
                server_cpu=lambda: serving.process_tree_cpu(server_pid),
            )
            flood |= {
                "hashing_bounds": not args.no_hashing_bounds,
                "load_avg_after_flood": [round(value, 2) for value in os.getloadavg()],
            }
            results.errors += flood_errors
    finally:
        if proxy is not None:
            proxy.stop()
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        admin(url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    for error in results.errors:
        log(f"benchmark: {error}")
    move_p50 = percentile(results.moves, 50)
    get_p50 = percentile(results.gets, 50)
    early = percentile(results.by_index[EARLY], 50)
    late = percentile(results.by_index[LATE], 50)
    count = len(results.moves)

    def per_move(seconds: float | None) -> float | None:
        return round(seconds * 1000 / count, 2) if count and seconds is not None else None

    server_used, client_used = used["server"] or 0.0, used["client"] or 0.0
    ours = server_used + client_used + (db_used or 0.0)
    ours += (used.get("redis") or 0.0) + (used.get("proxy") or 0.0)
    # (clipped: the kernel's per-core counters lag a little behind a short run)
    other_cores = round(min(CORES, max(0.0, (used["machine"] or 0.0) - ours) / elapsed), 2)
    server_db = per_move(server_used + db_used if db_used is not None else None)
    client_ms = per_move(client_used)
    summary: dict[str, Any] = {
        "moves_per_s": round(count / elapsed, 1),
        "move_p50_ms": move_p50,
        "move_p99_ms": percentile(results.moves, 99),
        "get_request": GET_REQUEST,
        "get_p50_ms": get_p50,
        "match_view_p50_ms": percentile(results.views, 50),
        "move10_p50_ms": early,
        "move200_p50_ms": late,
        "move_to_get": ratio(move_p50, get_p50),
        "move200_to_move10": ratio(late, early),
        "moves": len(results.moves),
        "requests": results.requests,
        "server_cpu_ms_per_move": per_move(server_used),
        "db_cpu_ms_per_move": per_move(db_used),
        "redis_cpu_ms_per_move": per_move(used.get("redis")),
        "proxy_cpu_ms_per_move": per_move(used.get("proxy")),
        "server_db_cpu_ms_per_move": server_db,
        "server_to_db_cpu": ratio(server_used, db_used),
        "client_cpu_ms_per_move": client_ms,
        "server_proxy_cpu_ms_per_request": round(
            (server_used + (used.get("proxy") or 0.0)) * 1000 / results.requests, 3
        )
        if results.requests
        else None,
        "cpu_bound_moves_per_s": round(CORES * 1000 / (server_db + client_ms), 1)
        if server_db and client_ms is not None
        else None,
        "legal_moves_cpu_ms": phases.get("legal_moves_cpu_ms"),
        "match_view_cpu_ms": phases.get("match_view_cpu_ms"),
        "legal_moves_proxy_cpu_ms": phases.get("legal_moves_proxy_cpu_ms"),
        "match_view_proxy_cpu_ms": phases.get("match_view_proxy_cpu_ms"),
        "match_view_to_legal_moves": ratio(
            phases.get("match_view_cpu_ms"), phases.get("legal_moves_cpu_ms")
        ),
        "cpu_requests": phases.get("cpu_requests", 0),
        "cores": CORES,
        "server": setup_name,
        "proxy": args.proxy,
        "channel_layer": "redis" if args.channels_redis else "memory",
        "load_avg_1m": [round(load_before, 2), round(load_after[0], 2)],
        "load_avg_after": [round(value, 2) for value in load_after],
        "other_cpu_cores": other_cores,
        "loaded": load_before > LOADED_AVG_PER_CORE * CORES or other_cores > LOADED_OTHER_CORES,
        "matches_finished": results.matches_finished,
        "long_matches": results.long_matches,
        "clients": args.clients,
        "workers": args.workers,
        "threads": args.threads,
        "seconds": round(elapsed, 1),
        "errors": len(results.errors),
        **flood,
    }
    summary["targets"] = targets(summary)
    if args.login_flood:
        summary["targets"] |= login_flood.targets(summary)
    sys.stdout.write(json.dumps(summary) + "\n")
    return 1 if results.errors else 0


if __name__ == "__main__":
    sys.exit(main())
