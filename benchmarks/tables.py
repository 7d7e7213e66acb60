"""A table tournament at scale: ten scorer links entering rounds at once, the wall, a correction.

    python -m benchmarks.tables [--players 40] [--stages 4] [--rounds 10] [--rated-matches 1000]
                                [--later-matches 0]

The production shape on this machine, as ``benchmarks.live`` runs it: a throwaway PostgreSQL
database (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/chickenfoot_tables_bench``; dropped at the end), Redis for
the broker and the channel layer (``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/11``,
with a queue and key prefix of the run's own), gunicorn serving HTTP, Daphne the sockets and a
Celery worker the end-of-match and recompute tasks.

First ``manage.py seed_league --matches N`` (``--rated-matches``) fills the database with N
rated league matches (70 % of them Chicken Foot, the event's game) by ``COPY``, then
``VACUUM ANALYZE``. Then ``benchmarks/table_event.py`` plays a ``--players`` tournament of
``--stages`` stages at tables of four, ``--rounds`` rounds a match: each stage's players check
in, the stage starts, the organiser makes a scorer link per table, and one client thread per
table enters every round with its link (reading the match, ``GET /api/matches/{id}`` with
``Authorization: Scorer``, before each). A socket subscribed to the event's public wall
(``/ws/public/competitions/{id}/``) times each entry's ``table_updated`` frame. Once the event
has finished (and ``--later-matches`` more rated league matches were seeded after it, among
players the event's never meet), the organiser corrects round 1 of a stage-1 table, and the
clock runs until the match no longer shows ``results_pending`` (the recompute of its results,
the standings and every later rating it reaches, on the worker, committed).

The last line printed is one JSON object: ``entries_per_s`` (over the scoring of the stages),
``entry_p50_ms``, ``entry_p99_ms``, ``get_p50_ms`` (``get_request`` says which GET),
``entry_to_get``, ``wall_refresh_p50_ms`` and ``wall_refresh_p99_ms`` (from the moment the
entry's 201 is received until the wall's frame for it; 0 when the frame came first),
``correction_recompute_ms`` (from sending the correction until the match's results are no
longer pending), ``rated_matches``, ``seed_seconds`` (and ``later_matches``,
``later_seed_seconds``), the gunicorn processes' CPU per entry and
the machine's load averages.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from typing import Any

import psycopg
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from benchmarks import table_event
from benchmarks.api import ROOT, log, percentile
from benchmarks.http_client import Client
from benchmarks.live import Stack, bench_run, organiser_promote
from benchmarks.serving import process_tree_cpu

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/chickenfoot_tables_bench"
GET_REQUEST = "GET /api/matches/{id} (Authorization: Scorer <code>)"


class Wall:
    """A socket on the event's public wall, in a thread: when each table's frame came."""

    def __init__(self, port: int, competition_id: int) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws/public/competitions/{competition_id}/"
        #: (stage, table, rounds entered) -> perf_counter when its table_updated arrived.
        self.frames: dict[tuple[int, int, int], float] = {}
        self.standings_frames = 0
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._listen, daemon=True)

    def start(self) -> None:
        self.thread.start()
        if not self.ready.wait(30):
            raise RuntimeError("the wall's socket did not say hello")

    def _listen(self) -> None:
        with connect(self.url, max_size=None) as socket:
            if json.loads(socket.recv(30))["type"] != "hello":
                raise RuntimeError("the wall's first frame is not hello")
            self.ready.set()
            while not self.stopping.is_set():
                try:
                    frame = json.loads(socket.recv(0.5))
                except TimeoutError:
                    continue
                except ConnectionClosed:
                    return
                arrived = time.perf_counter()
                if frame["type"] == "table_updated":
                    table = frame["table"]
                    key = (table["stage"], table["table"], table["rounds"]["entered"])
                    self.frames.setdefault(key, arrived)
                elif frame["type"] == "standings_changed":
                    self.standings_frames += 1

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)

    def refresh_ms(self, event: table_event.Event) -> list[float]:
        """Per entry, the time from its 201 to its frame on the wall (0: the frame came first)."""
        where = {match_id: key for key, match_id in event.tables.items()}
        samples = []
        for match_id, number, answered in event.timings.answered:
            stage, table = where[match_id]
            arrived = self.frames.get((stage, table, number))
            if arrived is not None:
                samples.append(max(0.0, (arrived - answered) * 1000))
        return samples


def seed(env: dict[str, str], url: str, matches: int) -> tuple[float, float]:
    """``seed_league`` with ``matches`` matches, then ``VACUUM ANALYZE``; their seconds."""
    started = time.perf_counter()
    subprocess.run(  # noqa: S603 - our interpreter, a fixed command
        [sys.executable, "manage.py", "seed_league", "--matches", str(matches)],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    seeded = time.perf_counter() - started
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return seeded, time.perf_counter() - started


def correction(event: table_event.Event) -> float:
    """Correct round 1 of stage 1's first table; ms until its figures are recomputed."""
    match_id = event.matches[1][0]
    client = Client(event.port)
    _, started = table_event.correct_round(event, match_id, 1, "The sheet was misread")
    deadline = started + 120
    while time.perf_counter() < deadline:
        status, view, _ = client.call(
            "GET", f"/api/matches/{match_id}", None, event.organiser.token
        )
        if status == 200 and not view["results_pending"]:
            return (time.perf_counter() - started) * 1000
        time.sleep(0.01)
    raise RuntimeError("the corrected match's results stayed pending for 120 s")


def run(stack: Stack, run_id: str, args: argparse.Namespace) -> dict[str, Any]:
    port = stack.http_port
    options = {"rounds": args.rounds}
    event = table_event.event_new(
        port,
        run_id,
        lambda username: organiser_promote(stack.env, username),
        players=args.players,
        stages=args.stages,
        options=options,
    )
    wall = Wall(stack.ws_port, event.competition_id)
    wall.start()
    web = stack.processes[0].pid
    cpu_before, started = process_tree_cpu(web), time.perf_counter()
    try:
        table_event.event_play(event)
        played = time.perf_counter() - started
        cpu = process_tree_cpu(web) - cpu_before
        time.sleep(0.5)  # the last frames on their way
        later = {}
        if args.later_matches:
            log(f"benchmark: seeding {args.later_matches} rated matches after the event")
            seeded, _ = seed(stack.env, stack.env["DATABASE_URL"], args.later_matches)
            later = {"later_matches": args.later_matches, "later_seed_seconds": round(seeded, 1)}
        recompute_ms = correction(event)
    finally:
        wall.stop()
    timings = event.timings
    scoring = timings.scoring_seconds
    entries = len(timings.entries)
    entry_p50, get_p50 = percentile(timings.entries, 50), percentile(timings.gets, 50)
    refresh = wall.refresh_ms(event)
    log(f"benchmark: {entries} entries in {scoring:.1f} s of scoring ({played:.1f} s in all)")
    return {
        "entries_per_s": round(entries / scoring, 1) if scoring else None,
        "entry_p50_ms": entry_p50,
        "entry_p99_ms": percentile(timings.entries, 99),
        "get_p50_ms": get_p50,
        "get_request": GET_REQUEST,
        "entry_to_get": round(entry_p50 / get_p50, 2) if entry_p50 and get_p50 else None,
        "wall_refresh_p50_ms": percentile(refresh, 50),
        "wall_refresh_p99_ms": percentile(refresh, 99),
        "correction_recompute_ms": round(recompute_ms, 1),
        "entries": entries,
        "gets": len(timings.gets),
        "wall_frames": len(refresh),
        "wall_standings_frames": wall.standings_frames,
        "replayed_entries": timings.replays,
        "stale_versions": timings.stale,
        "web_cpu_ms_per_entry": round(cpu * 1000 / entries, 2) if entries else None,
        "players": args.players,
        "stages": args.stages,
        "tables": sum(len(ids) for ids in event.matches.values()),
        "rounds": args.rounds,
        "event_seconds": round(played, 1),
        **later,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--stages", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=10, help="per match (10: double-9's all)")
    parser.add_argument(
        "--rated-matches",
        type=int,
        default=1000,
        help="rated league matches seeded first (seed_league; 70 %% of them Chicken Foot)",
    )
    parser.add_argument(
        "--later-matches",
        type=int,
        default=0,
        help="rated league matches seeded after the event, before the correction (none of "
        "their players meets the event's)",
    )
    args = parser.parse_args()
    if args.players < 8 or args.stages < 1:
        parser.error("at least 8 players (a no-show and a drop-out) and one stage")

    seeded = vacuumed = 0.0
    with bench_run(DEFAULT_URL, "tables") as bench:
        if args.rated_matches:
            log(f"benchmark: seeding {args.rated_matches} rated matches (seed_league)")
            seeded, vacuumed = seed(bench.env, bench.url, args.rated_matches)
            log(f"benchmark: seeded in {seeded:.1f} s, VACUUM ANALYZE {vacuumed:.1f} s")
        bench.stack.start()
        summary = run(bench.stack, bench.run_id, args)
    summary |= {
        "rated_matches": args.rated_matches,
        "seed_seconds": round(seeded, 1),
        "vacuum_analyze_seconds": round(vacuumed, 1),
        "load_avg_1m": bench.load_avg(),
    }
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
