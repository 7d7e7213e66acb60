"""Full matches between human clients over real HTTP, against gunicorn on PostgreSQL.

    python -m benchmarks.api [--clients 8] [--seconds 30] [--workers 4] [--threads 2]
                             [--channels-redis redis://127.0.0.1:6379/11]
                             [--login-flood [--flood-seconds 15] [--flood-rate 20]
                              [--cache-redis redis://127.0.0.1:6379/11] [--no-hashing-bounds]]

Creates a throwaway database (``DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/chickenfoot_bench``; dropped at the end), migrates it, and
starts gunicorn on a free loopback port. Each client thread registers four players, then plays
Chicken Foot matches (four seats, double-9, every round) back to back: for the seat to move it
asks the legal-moves endpoint, picks one with a seeded RNG and submits it with the version it
answers. Every fifth move it also times a trivial authenticated GET (``/api/players/me``) on
the same server under the same load. It stops at the time budget or the request cap. With
``--channels-redis`` (default: ``BENCH_REDIS_URL`` when set) every move is also published to the
sockets' channel layer on that Redis, as in production (without it the layer is in memory).

The last line printed is one JSON object: ``moves_per_s``, ``move_p50_ms``, ``move_p99_ms``,
``get_p50_ms``, ``move10_p50_ms`` and ``move200_p50_ms`` (the 10th and 200th move of each
match), with counts; the CPU spent per move (each move also costs one legal-moves request and a
fifth of a GET) by the gunicorn processes (``server_cpu_ms_per_move``), by the PostgreSQL
backends serving them (``db_cpu_ms_per_move``, when the database runs on this machine), the two
together (``server_db_cpu_ms_per_move``) and by the clients; ``cpu_bound_moves_per_s``, the rate
the machine's cores would sustain at that CPU per move if the benchmark had them to itself (a
shared machine's other load slows ``moves_per_s``, not this); and the machine's load averages
before and after. Needs PostgreSQL; loopback traffic only.

``--login-flood`` then times the same GET, 20 a second sent open-loop, for ``--flood-seconds``
with the server idle and as long again during a flood of ``--flood-rate`` anonymous log-ins a
second from 1,000 rotating addresses, in alternating 5-second windows
(``benchmarks/login_flood.py``), and adds ``idle_get_p50_ms``, ``flood_get_p50_ms``, their ratio
``flood_to_idle``, the server's share of a core in each (``idle_server_cores``,
``flood_server_cores``) and what the flood was answered (``flood_answers``). For it the server
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
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from benchmarks import login_flood
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
        self.by_index: dict[int, list[float]] = {EARLY: [], LATE: []}
        self.matches_finished = 0
        self.long_matches = 0
        self.errors: list[str] = []


def expect(status: int, wanted: int, body: Any, what: str) -> Any:
    if status != wanted:
        raise RuntimeError(f"{what}: HTTP {status}: {body}")
    return body


def register(port: int, index: int, run_id: str, tokens: list[list[str]]) -> None:
    """Client ``index``'s four players (before the clock starts: hashing passwords is slow);
    a registration answered ``busy`` (too many passwords hashing) is sent again when it says."""
    client = Client(port)
    for seat in range(SEATS):
        name = f"b{run_id}c{index}s{seat}"
        for _ in range(120):
            status, body, _ = client.call(
                "POST", "/api/players", {"username": name, "password": f"pw-{run_id}-{name}-long"}
            )
            if status != 429 or body.get("code") != "busy":
                break
            time.sleep(1)
        tokens[index].append(expect(status, 201, body, "register")["token"])


def play(
    port: int, index: int, tokens: list[str], deadline: float, cap: int, results: Results
) -> None:
    """One client: play whole matches between its four players until the deadline."""
    client = Client(port)
    rng = random.Random(index)
    moves: list[float] = []
    gets: list[float] = []
    by_index: dict[int, list[float]] = {EARLY: [], LATE: []}
    finished = 0
    long_matches = 0
    try:
        while time.perf_counter() < deadline and client.requests < cap:
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
            turn = expect(status, 200, body, "start")["state"]["turn"]
            number = 0
            while turn is not None:
                if time.perf_counter() >= deadline or client.requests >= cap:
                    return
                status, legal, _ = client.call(
                    "GET", f"/api/matches/{match_id}/legal-moves", None, tokens[turn]
                )
                expect(status, 200, legal, "legal moves")
                move = rng.choice(legal["moves"])
                status, body, elapsed = client.call(
                    "POST",
                    f"/api/matches/{match_id}/moves",
                    {**move, "version": legal["version"]},
                    tokens[turn],
                )
                expect(status, 201, body, "move")
                number += 1
                moves.append(elapsed)
                for index, values in by_index.items():
                    if abs(number - index) <= WINDOW:
                        values.append(elapsed)
                if number == LATE:
                    long_matches += 1
                turn = body["state"]["turn"]
                if body["state"]["status"] != "playing":
                    turn = None
                if number % 5 == 0:
                    status, me, get_ms = client.call("GET", "/api/players/me", None, tokens[0])
                    expect(status, 200, me, "me")
                    gets.append(get_ms)
            finished += 1
    except Exception as exc:  # noqa: BLE001 - reported, and the run fails
        with results.lock:
            results.errors.append(f"client {index}: {type(exc).__name__}: {exc}")
    finally:
        with results.lock:
            results.moves += moves
            results.gets += gets
            for key, values in by_index.items():
                results.by_index[key] += values
            results.matches_finished += finished
            results.long_matches += long_matches


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


def process_tree_cpu(root: int) -> float:
    """CPU seconds (user + system) used so far by process ``root`` and its children."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if root in (pid, ppid):
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


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


def wait_for_server(port: int, server: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited during startup")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/health")
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer /api/health in time")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-requests", type=int, default=50_000, help="per client")
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
    args = parser.parse_args()
    if args.login_flood and not args.cache_redis:
        parser.error(
            "--login-flood needs --cache-redis (or BENCH_REDIS_URL): the hashes of "
            "every worker are counted together there"
        )

    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or DEFAULT_URL
    db_name = urlsplit(url).path.lstrip("/")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")} | {
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "chickenfoot.settings",
        "SECRET_KEY": secrets.token_hex(16),
        "LOG_LEVEL": "WARNING",
        "RATE_LIMITS": "off",  # the clients play faster than people, all from 127.0.0.1
    }
    python = sys.executable
    run_id = secrets.token_hex(3)
    if args.channels_redis:
        env |= {"CHANNELS_REDIS_URL": args.channels_redis, "CHANNELS_PREFIX": f"bench-{run_id}"}
    if args.login_flood:
        env = flood_env(env, args.cache_redis, bounds=not args.no_hashing_bounds)
    log(f"benchmark: database {db_name}")
    admin(url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    admin(url, f'CREATE DATABASE "{db_name}"')
    server = None
    try:
        subprocess.run(  # noqa: S603 - our interpreter, a fixed command
            [python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        port = free_port()
        server = subprocess.Popen(  # noqa: S603 - our interpreter, a fixed command
            [
                python,
                "-m",
                "gunicorn",
                "chickenfoot.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(args.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(args.threads),
                "--keep-alive",
                "30",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        wait_for_server(port, server)
        log(
            f"benchmark: gunicorn on 127.0.0.1:{port} ({args.workers} workers x "
            f"{args.threads} threads); {args.clients} clients for {args.seconds:.0f} s"
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
        db_cpu = backend_cpu(url, db_name)
        server_cpu = process_tree_cpu(server.pid)
        client_cpu = time.process_time()
        load_before = os.getloadavg()[0]
        started = time.perf_counter()
        deadline = started + args.seconds
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
            thread.join(timeout=args.seconds + 60)
        elapsed = time.perf_counter() - started
        server_cpu = process_tree_cpu(server.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        db_after = backend_cpu(url, db_name) if db_cpu is not None else None
        # A backend that ended during the run took its CPU with it: the figure is a floor.
        db_used = (
            sum(cpu - db_cpu.get(pid, 0.0) for pid, cpu in db_after.items())
            if db_cpu is not None and db_after is not None
            else None
        )
        load_after = os.getloadavg()
        flood: dict[str, Any] = {}
        if args.login_flood:
            log(
                f"benchmark: GETs for {args.flood_seconds:.0f} s idle, then as long during "
                f"{args.flood_rate:g} log-ins a second from {login_flood.ADDRESSES} addresses"
            )
            flood, flood_errors = login_flood.measure(
                port,
                tokens[0][0],
                seconds=args.flood_seconds,
                rate=args.flood_rate,
                run_id=run_id,
                percentile=percentile,
                server_cpu=lambda: process_tree_cpu(server.pid),  # type: ignore[union-attr]
            )
            flood |= {
                "hashing_bounds": not args.no_hashing_bounds,
                "load_avg_after_flood": [round(value, 2) for value in os.getloadavg()],
            }
            results.errors += flood_errors
    finally:
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

    server_db = per_move(server_cpu + db_used if db_used is not None else None)
    client_ms = per_move(client_cpu)
    summary = {
        "moves_per_s": round(count / elapsed, 1),
        "move_p50_ms": move_p50,
        "move_p99_ms": percentile(results.moves, 99),
        "get_p50_ms": get_p50,
        "move10_p50_ms": early,
        "move200_p50_ms": late,
        "move_to_get": round(move_p50 / get_p50, 2) if move_p50 and get_p50 else None,
        "move200_to_move10": round(late / early, 2) if late and early else None,
        "moves": len(results.moves),
        "server_cpu_ms_per_move": per_move(server_cpu),
        "db_cpu_ms_per_move": per_move(db_used),
        "server_db_cpu_ms_per_move": server_db,
        "client_cpu_ms_per_move": client_ms,
        "cpu_bound_moves_per_s": round(CORES * 1000 / (server_db + client_ms), 1)
        if server_db and client_ms is not None
        else None,
        "cores": CORES,
        "channel_layer": "redis" if args.channels_redis else "memory",
        "load_avg_1m": [round(load_before, 2), round(load_after[0], 2)],
        "load_avg_after": [round(value, 2) for value in load_after],
        "matches_finished": results.matches_finished,
        "long_matches": results.long_matches,
        "clients": args.clients,
        "workers": args.workers,
        "threads": args.threads,
        "seconds": round(elapsed, 1),
        "errors": len(results.errors),
        **flood,
    }
    sys.stdout.write(json.dumps(summary) + "\n")
    return 1 if results.errors else 0


if __name__ == "__main__":
    sys.exit(main())
