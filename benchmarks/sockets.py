"""Sockets at mobile scale: many phones connected to one node, moves reaching every seat, and a
reconnect storm.

    python -m benchmarks.sockets [--sockets 10000] [--moves-per-s 200] [--seconds 60]
                                 [--idle-seconds 30] [--spread 10] [--heartbeat 25]
                                 [--server uvicorn|daphne|granian] [--asgi-workers 2]
                                 [--load-processes 2] [--movers 2] [--mover-threads 64]
                                 [--connect-rate 250] [--web-nice 10] [--sockets-nice -5]

The production shape on this machine: a throwaway PostgreSQL database (``BENCH_DATABASE_URL``,
default ``postgres://postgres@127.0.0.1:5432/chickenfoot_sockets_bench``; dropped at the end),
Redis for the channel layer, the cache and the broker (``BENCH_REDIS_URL``, default
``redis://127.0.0.1:6379/11``, with a queue and key prefix of the run's own), the API on granian
as the Dockerfile serves it (``deploy/serve.py``, at nice ``--web-nice``: compose's lower CPU
weight for it), the sockets on the ASGI server ``--server``
(production's: uvicorn in two processes, as docker-compose.yml's ``asgi`` runs it with
``deploy/serve_sockets.py``, at nice ``--sockets-nice``: compose's higher CPU weight for it) and
one Celery worker.
Every serving process and load generator raises its open-file limit to the hard limit
(a socket is a file; docs/operations.md, "Sockets at scale").

Half the sockets are players' ``/ws/me/`` sockets, half their sockets on matches of 2, 3 and 4
seats in turn (``benchmarks/socket_seed.py``: one player holds one of each), held by
``--load-processes`` generator processes (``benchmarks/socket_load.py``: uvloop and
``websockets``' sans-I/O client protocol; the app's behaviour: token header, the server's
heartbeat every ``--heartbeat`` seconds, ``LIVE_HEARTBEAT_SECONDS``). Then, in turn:

1. **Idle.** Every socket connected, nothing played: the CPU of the socket-serving processes
   over ``--idle-seconds`` (at least one heartbeat), per 1,000 sockets.
2. **Moves.** ``--movers`` processes (``benchmarks/socket_moves.py``) play ``--moves-per-s``
   moves a second through the API, for ``--seconds``: each ``move`` frame at every seat is timed
   from the move's ``created_at`` (written in the transaction that commits it) to its arrival,
   and the moves accepted in that time counted (``moves_per_s``: the rate the times are at).
3. **Reconnect storm.** While the moves go on, every socket is dropped at once and reconnects
   at a random moment within ``--spread`` seconds, a match socket resuming with
   ``?after=<its last seq>``: the seconds until every one is back and caught up, and the
   socket-serving processes' CPU per socket back.
4. **Drain.** The moves stop; each match socket must end with its match's last seq (waiting at
   most two heartbeats): a seq missing is a lost frame, one had twice a duplicate.

The last line printed is one JSON object (``KEYS``; docs/operations.md, "Sockets at scale",
describes each) with ``targets``, each met or not, and the load average before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import psycopg

from benchmarks import serving
from benchmarks.api import ROOT, DatabaseCpu, free_port, log, percentile, wait_for_server
from benchmarks.live import Stack, bench_run

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/chickenfoot_sockets_bench"
SERVE_SOCKETS = ROOT / "deploy" / "serve_sockets.py"
SERVERS = ("uvicorn", "daphne", "granian")
#: The API's nice value: docker-compose.yml's ``cpu_shares`` for ``web`` (110 against the others'
#: 1,024) are the weights the kernel gives nice 10 against nice 0 (docs/operations.md).
WEB_NICE = 10
#: The sockets' nice value: compose's ``cpu_shares`` for ``asgi`` (3,121) are the kernel's weight
#: for nice -5. Lowering a nice value takes ``CAP_SYS_NICE`` (root has it); without it the
#: sockets run at the benchmark's own, and the run says so.
SOCKETS_NICE = -5
#: The keys of the JSON line (docs/operations.md, "Sockets at scale", describes each).
KEYS = (
    *("sockets", "sockets_asked", "moves_per_s", "storm_moves_per_s", "run_moves_per_s"),
    *("move_to_frame_p50_ms", "move_to_frame_p99_ms", "reconnect_socket_cpu_ms"),
    *("frames_timed", "socket_rss_mib", "idle_cpu_per_1000", "moving_socket_cores"),
    *("moving_db_cores", "reconnect_recovered_s", "reconnect_db_xacts_per_socket"),
    *("reconnect_open_p50_s", "reconnect_open_p99_s", "reconnect_back_p50_s"),
    *("reconnect_back_p99_s", "reconnect_back_by_s"),
    *("lost_frames", "duplicate_frames", "server", "asgi_workers", "heartbeat_s", "errors"),
    *("load_avg_1m", "targets.sockets", "targets.move_to_frame_p99_ms"),
    *("targets.socket_rss_mib", "targets.reconnect_recovered_s", "targets.lost_frames"),
    *("targets.duplicate_frames", "targets.moves_per_s"),
)
#: The issue's targets on this machine: (key, bound, value).
TARGETS = (
    ("sockets", "at_least", 10_000),
    ("moves_per_s", "at_least", 200),
    ("move_to_frame_p99_ms", "at_most", 250),
    ("socket_rss_mib", "at_most", 1024),
    ("reconnect_recovered_s", "at_most", 30),
    ("lost_frames", "at_most", 0),
    ("duplicate_frames", "at_most", 0),
)


def targets(summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each target with its value and whether it is met (``None``: not measured)."""
    judged = {}
    for key, bound, limit in TARGETS:
        value = summary.get(key)
        met = None
        if value is not None:
            met = value >= limit if bound == "at_least" else value <= limit
        judged[key] = {"value": value, bound: limit, "met": met}
    return judged


def raise_fd_limit() -> None:
    """Raise the calling process's open-file limit to its hard limit (run in each server)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def asgi_commands(server: str, workers: int) -> list[tuple[int, list[str]]]:
    """The ports and commands that serve ``chickenfoot.asgi:application`` with ``server``:
    uvicorn as production runs it (``deploy/serve_sockets.py``, its options, on loopback, with
    ``workers`` processes); Daphne one process a port (it has no workers of its own); granian's
    ASGI ``workers`` processes on one port."""
    app = "chickenfoot.asgi:application"
    python = sys.executable
    if server == "daphne":
        ports = [free_port() for _ in range(workers)]
        return [
            (
                port,
                [
                    *(python, "-m", "daphne"),
                    *("-e", f"tcp:port={port}:interface=127.0.0.1:backlog=4096"),
                    *("--proxy-headers", "-v", "0", app),
                ],
            )
            for port in ports
        ]
    port = free_port()
    if server == "uvicorn":
        command = [
            *(python, str(SERVE_SOCKETS), "--host", "127.0.0.1", "--port", str(port)),
            *("--workers", str(workers)),
        ]
    else:
        command = [
            *(python, "-m", "granian", "--interface", "asginl"),
            *("--host", "127.0.0.1", "--port", str(port)),
            *("--workers", str(workers), "--loop", "uvloop", "--backlog", "4096"),
            *("--log-level", "warning", app),
        ]
    return [(port, command)]


class SocketStack(Stack):
    """The API on granian (production's command), the sockets on ``server``, one worker."""

    def __init__(
        self,
        env: dict[str, str],
        queue_name: str,
        server: str,
        workers: int,
        *,
        web_nice: int,
        sockets_nice: int,
    ) -> None:
        super().__init__(env, queue_name)
        self.server, self.workers = server, workers
        self.web_nice, self.sockets_nice = web_nice, sockets_nice
        self.asgi: list[subprocess.Popen[bytes]] = []
        self.asgi_ports: list[int] = []

    def _serve(self, argv: list[str]) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(  # noqa: S603 - our interpreter, fixed commands
            argv, cwd=ROOT, env=self.env, preexec_fn=self._sockets_priority
        )
        self.processes.append(process)
        wanted = os.getpriority(os.PRIO_PROCESS, 0) + self.sockets_nice
        if os.getpriority(os.PRIO_PROCESS, process.pid) != max(-20, min(19, wanted)):
            log(
                f"the sockets could not be given nice {self.sockets_nice} (CAP_SYS_NICE): their "
                "CPU weight is not compose's, and a storm takes longer than in production"
            )
        return process

    def _sockets_priority(self) -> None:
        """In the sockets' process before it runs: its open-file limit raised, its CPU weight
        compose's (``SOCKETS_NICE``), where this process may lower its nice value."""
        raise_fd_limit()
        if self.sockets_nice:
            with contextlib.suppress(PermissionError):
                os.nice(self.sockets_nice)

    def start(self) -> None:
        web_command = serving.server_command(sys.executable, "granian", self.http_port, 2, 2)
        web = subprocess.Popen(  # noqa: S603 - our interpreter, a fixed command
            web_command, cwd=ROOT, env=self.env, preexec_fn=self._web_priority
        )
        self.processes.append(web)
        for port, argv in asgi_commands(self.server, self.workers):
            self.asgi.append(self._serve(argv))
            self.asgi_ports.append(port)
        self._spawn(
            *("celery", "-A", "chickenfoot", "worker", "-Q", self.queue, "-n"),
            f"{self.queue}@bench",
            *("--concurrency", "1", "--pool", "prefork", "--loglevel", "WARNING"),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
        )
        wait_for_server(self.http_port, web)
        for port, process in zip(self.asgi_ports, self.asgi, strict=True):
            wait_for_server(port, process)

    def _web_priority(self) -> None:
        if self.web_nice:
            os.nice(self.web_nice)

    def asgi_cpu(self) -> float:
        return sum(serving.process_tree_cpu(p.pid) for p in self.asgi)

    def asgi_rss_mib(self) -> float:
        return round(sum(tree_rss(p.pid) for p in self.asgi) / 1024, 1)


def tree_rss(root: int) -> int:
    """Resident KiB of process ``root`` and its descendants."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        parents[int(entry.name)] = int(fields.get("PPid", "0").strip() or 0)
        rss[int(entry.name)] = int(fields.get("VmRSS", "0 kB").split()[0])
    return sum(kib for pid, kib in rss.items() if serving.in_tree(pid, root, parents))


class Child:
    """A load process: its plan written to a file, its lines read by a thread of our own."""

    def __init__(self, module: str, plan: dict[str, Any], env: dict[str, str], work: Path) -> None:
        path = work / f"{module}-{id(self)}.json"
        path.write_text(json.dumps(plan))
        self.process = subprocess.Popen(  # noqa: S603 - our interpreter, fixed commands
            [sys.executable, "-m", f"benchmarks.{module}", str(path)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=raise_fd_limit,
        )
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            if line.startswith("{"):
                self.lines.put(json.loads(line))

    def tell(self, command: str) -> None:
        stdin = self.process.stdin
        if stdin is None:
            raise RuntimeError("the load process has no standard input")
        stdin.write(command + "\n")
        stdin.flush()

    def answer(self, timeout: float) -> dict[str, Any]:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"a load process did not answer within {timeout} s") from None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def played_so_far(movers: list[Child]) -> int:
    """The moves the movers have played so far, all of them."""
    for mover in movers:
        mover.tell("mark")
    return sum(mover.answer(30)["mark"] for mover in movers)


def db_xacts(url: str) -> int:
    """Transactions the benchmark's database has committed or rolled back so far."""
    with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database "
            "WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) if row else 0


def last_seqs(url: str, matches: list[int]) -> dict[int, int]:
    with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
        rows = conn.execute(
            "SELECT match_id, max(seq) FROM games_move WHERE match_id = ANY(%s) GROUP BY match_id",
            [matches],
        ).fetchall()
    return {int(m): int(s) for m, s in rows}


def plans(
    seeded: dict[str, Any], sockets: int, args: argparse.Namespace, ports: list[int]
) -> list[dict[str, Any]]:
    """The generators' plans: the sockets dealt round-robin, a source address each."""
    match_sockets = [
        ["match", token, match["id"]] for match in seeded["matches"] for token in match["tokens"]
    ]
    me_sockets = [["me", token] for token in seeded["tokens"]][: sockets - len(match_sockets)]
    every = [s for pair in zip(me_sockets, match_sockets, strict=False) for s in pair]
    every += me_sockets[len(match_sockets) :] + match_sockets[len(me_sockets) :]
    n = args.load_processes
    return [
        {
            "source": f"127.0.0.{2 + i}",
            "heartbeat": args.heartbeat,
            "connect_rate": args.connect_rate / n,
            "spread": args.spread,
            "ports": ports,
            "sockets": every[i::n],
        }
        for i in range(n)
    ]


def run(bench: Any, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    stack: SocketStack = bench.stack
    seed_file = work / "seed.json"
    log(f"benchmark: seeding {args.sockets // 2} players and their matches")
    players = str(args.sockets // 2)
    subprocess.run(  # noqa: S603 - our interpreter, a fixed command
        [sys.executable, "-m", "benchmarks.socket_seed", players, str(seed_file), bench.run_id],
        cwd=ROOT,
        env=stack.env,
        check=True,
    )
    seeded = json.loads(seed_file.read_text())
    stack.start()
    db_name = urlsplit(bench.url).path.lstrip("/")
    generators = [
        Child("socket_load", plan, stack.env, work)
        for plan in plans(seeded, args.sockets, args, stack.asgi_ports)
    ]
    movers: list[Child] = []
    try:
        began = time.monotonic()
        ready = [g.answer(args.sockets / args.connect_rate + 300) for g in generators]
        up = sum(r["ready"] for r in ready)
        log(f"benchmark: {up} sockets up in {time.monotonic() - began:.1f} s")

        time.sleep(2)
        cpu = stack.asgi_cpu()
        time.sleep(args.idle_seconds)
        idle_cores = (stack.asgi_cpu() - cpu) / args.idle_seconds
        rss = [stack.asgi_rss_mib()]
        log(f"benchmark: idle {idle_cores:.3f} cores, {rss[0]} MiB")

        matches = seeded["matches"]
        n = max(1, min(args.movers, len(matches)))
        movers = [
            Child(
                "socket_moves",
                {
                    "port": stack.http_port,
                    "rate": args.moves_per_s / n,
                    "threads": args.mover_threads,
                    "seed": 1000 * i,
                    "matches": matches[i::n],
                },
                stack.env,
                work,
            )
            for i in range(n)
        ]
        time.sleep(1)  # the movers under way
        for g in generators:
            g.tell("measure")
        database = DatabaseCpu(bench.url, db_name)
        database.start()
        marks = [played_so_far(movers)]
        cpu, xacts, moving_began = stack.asgi_cpu(), db_xacts(bench.url), time.monotonic()
        time.sleep(args.seconds)
        moving = time.monotonic() - moving_began
        marks.append(played_so_far(movers))
        moving_cores = (stack.asgi_cpu() - cpu) / moving
        db_used = database.stop()
        xacts_per_s = (db_xacts(bench.url) - xacts) / moving
        rss.append(stack.asgi_rss_mib())
        for g in generators:
            g.tell("idle")
        log(f"benchmark: moving {moving_cores:.3f} cores, {rss[-1]} MiB; the storm")

        xacts, storm_began = db_xacts(bench.url), time.monotonic()
        storm_cpu = stack.asgi_cpu()
        for g in generators:
            g.tell("storm")
        storms = [g.answer(args.spread + 300) for g in generators]
        storm_seconds = time.monotonic() - storm_began
        storm_cpu = stack.asgi_cpu() - storm_cpu
        marks.append(played_so_far(movers))
        time.sleep(1.5)  # the statistics flushed
        storm_xacts = db_xacts(bench.url) - xacts - xacts_per_s * (time.monotonic() - storm_began)
        rss.append(stack.asgi_rss_mib())
        recovered = max(s["storm_recovered_s"] for s in storms)
        log(f"benchmark: back after {recovered} s")

        for m in movers:
            m.tell("stop")
        played = [m.answer(120) for m in movers]
        final = last_seqs(bench.url, [m["id"] for m in matches])
        final_file = work / "final.json"
        final_file.write_text(json.dumps(final))
        for g in generators:
            g.tell(f"drain {final_file} {2 * args.heartbeat + 5}")
        reports = [g.answer(2 * args.heartbeat + 120)["report"] for g in generators]
    finally:
        for child in generators + movers:
            child.stop()

    samples = [s for r in reports for s in r["samples"]]
    reconnected = sum(s["back"] for s in storms)
    moves = sum(p["moves"] for p in played)
    errors = sum(p["errors"] for p in played)
    for p in played:
        for error in p["first_errors"]:
            log(f"benchmark: move error: {error}")
    summary: dict[str, Any] = {
        "sockets": up,
        "sockets_asked": args.sockets,
        "moves_per_s": round((marks[1] - marks[0]) / moving, 1),
        "storm_moves_per_s": round((marks[2] - marks[1]) / storm_seconds, 1),
        "run_moves_per_s": round(moves / max(p["seconds"] for p in played), 1),
        "move_to_frame_p50_ms": percentile(samples, 50),
        "move_to_frame_p99_ms": percentile(samples, 99),
        "frames_timed": len(samples),
        "move_p50_ms": percentile([p["move_p50_ms"] for p in played if p["move_p50_ms"]], 50),
        "socket_rss_mib": max(rss),
        "socket_rss_idle_mib": rss[0],
        "idle_cpu_per_1000": round(idle_cores / (up / 1000), 4) if up else None,
        "moving_socket_cores": round(moving_cores, 3),
        "moving_db_cores": round(db_used / moving, 3) if db_used is not None else None,
        "reconnect_recovered_s": recovered,
        "reconnected": reconnected,
        "reconnect_socket_cpu_ms": (
            round(1000 * storm_cpu / reconnected, 2) if reconnected else None
        ),
        **storm_timing(storms),
        "not_back_at_end": sum(r["not_back"] for r in reports),
        "reconnect_db_xacts_per_socket": round(max(0.0, storm_xacts) / reconnected, 2)
        if reconnected
        else None,
        "lost_frames": sum(r["lost"] for r in reports),
        "duplicate_frames": sum(r["duplicates"] for r in reports),
        "heartbeats_seen": sum(r["heartbeats"] for r in reports),
        "unexpected_closes": sum(r["unexpected_closes"] for r in reports),
        "connect_errors": merge(r["connect_errors"] for r in reports),
        "refused": merge(r["refused"] for r in reports),
        "matches": len(matches),
        "matches_finished": sum(p["finished"] for p in played),
        "server": args.server,
        "asgi_workers": args.asgi_workers,
        "heartbeat_s": args.heartbeat,
        "seconds": args.seconds,
        "errors": errors,
    }
    return summary


def storm_timing(storms: list[dict[str, Any]]) -> dict[str, Any]:
    """Where the storm's time went: from a socket's reconnection moment to its connection open
    and to its being back (hello had, caught up), p50 and p99 in seconds; and how many sockets
    were back 10, 20, 30 ... s after the drop."""
    reopened = [s for storm in storms for s in storm.get("reopened_s", [])]
    back = [s for storm in storms for s in storm.get("back_s", [])]
    back_at = sorted(s for storm in storms for s in storm.get("back_at_s", []))
    by = {}
    for second in range(10, int(back_at[-1]) + 11 if back_at else 10, 10):
        by[str(second)] = sum(1 for s in back_at if s <= second)
    return {
        "reconnect_open_p50_s": percentile(reopened, 50),
        "reconnect_open_p99_s": percentile(reopened, 99),
        "reconnect_back_p50_s": percentile(back, 50),
        "reconnect_back_p99_s": percentile(back, 99),
        "reconnect_back_by_s": by,
    }


def merge(counts: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for count in counts:
        for key, value in count.items():
            total[key] = total.get(key, 0) + value
    return total


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=10_000)
    parser.add_argument("--moves-per-s", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=60, help="moves timed for this long")
    parser.add_argument("--idle-seconds", type=float, default=30)
    parser.add_argument("--spread", type=float, default=10, help="the storm's reconnections")
    parser.add_argument(
        "--heartbeat", type=int, default=25, help="LIVE_HEARTBEAT_SECONDS (the documented 25)"
    )
    parser.add_argument("--server", choices=SERVERS, default="uvicorn")
    parser.add_argument("--asgi-workers", type=int, default=2)
    parser.add_argument("--load-processes", type=int, default=2)
    parser.add_argument("--movers", type=int, default=2)
    parser.add_argument("--mover-threads", type=int, default=64)
    parser.add_argument("--connect-rate", type=float, default=250, help="sockets opened a second")
    parser.add_argument(
        "--web-nice",
        type=int,
        default=WEB_NICE,
        help="the API's nice value: compose's CPU weight for it, on one host",
    )
    parser.add_argument(
        "--sockets-nice",
        type=int,
        default=SOCKETS_NICE,
        help="the sockets' nice value: compose's CPU weight for them, on one host",
    )
    return parser


def main() -> int:
    args = build_parser().parse_args()
    with tempfile.TemporaryDirectory() as tmp, bench_run(DEFAULT_URL, "sockets") as bench:
        bench.stack = SocketStack(
            bench.env | {"LIVE_HEARTBEAT_SECONDS": str(int(args.heartbeat))},
            bench.queue,
            args.server,
            args.asgi_workers,
            web_nice=args.web_nice,
            sockets_nice=args.sockets_nice,
        )
        try:
            summary = run(bench, args, Path(tmp))
        finally:
            bench.stack.stop()
    summary["load_avg_1m"] = bench.load_avg()
    summary["targets"] = targets(summary)
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
