"""Quick play at scale: a thousand players join a queue at once; how fast joins are answered,
and how long each waits from its join until a match is started for it.

    python -m benchmarks.queue [--players 1000] [--clients 8] [--seats 4]

The production shape on this machine, as ``benchmarks.live`` runs it: a throwaway PostgreSQL
database (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/chickenfoot_queue_bench``; dropped at the end), Redis for
the broker (``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/11``, with a queue and key
prefix of the run's own), gunicorn serving HTTP and a Celery worker the pairing tasks.

The players and their tokens are written first (``manage.py shell``: hashing a thousand
passwords would measure the hasher). Then ``--clients`` threads, each on one keep-alive
connection, send ``POST /api/queue`` (Chicken Foot, ``--seats`` a table, the standard preset)
for their share of the players as fast as they are answered; each join queues its queue's
pairing after commit, and the worker pairs (one pairing at a time per queue, under its lock).
The clock runs until nobody is waiting.

The last line printed is one JSON object: ``joins_per_s`` (joins answered, over the time from
the first sent to the last answered), ``join_p50_ms`` and ``join_p99_ms`` (a join's answer),
``pair_p50_ms`` and ``pair_p99_ms`` (from a player's join to their match's start, as the
entries record them: ``matched_at - joined_at``), ``matches``, ``players``, ``left_waiting``
and the machine's load averages.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time

import psycopg

from benchmarks.api import ROOT, expect, log, percentile
from benchmarks.http_client import Client
from benchmarks.live import bench_run

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/chickenfoot_queue_bench"

SEED = """
import json, sys
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from games.accounts.tokens import token_issue
from games.models import Player
password = make_password("a-long-enough-passphrase")
User = get_user_model()
users = User.objects.bulk_create(
    [User(username=f"q{{i}}", password=password) for i in range({players})]
)
Player.objects.bulk_create(
    [Player(user=u, kind=Player.Kind.HUMAN, display_name=u.username) for u in users]
)
sys.stdout.write(json.dumps([token_issue(user=u)[1] for u in users]) + "\\n")
"""


def seed(env: dict[str, str], players: int) -> list[str]:
    """``players`` players with a token each; their tokens."""
    done = subprocess.run(  # noqa: S603 - our interpreter, a fixed command
        [sys.executable, "manage.py", "shell", "-c", SEED.format(players=players)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def join_all(port: int, tokens: list[str], clients: int, seats: int) -> tuple[list[float], float]:
    """Every player joins (``clients`` threads at once); each join's time (ms), and the whole."""
    body = {"variant": "chickenfoot", "seats": seats, "preset": "standard"}
    times: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)

    def run(share: list[str]) -> None:
        client = Client(port)
        barrier.wait()
        mine = []
        for token in share:
            status, answer, ms = client.call("POST", "/api/queue", body, token)
            expect(status, 201, answer, "join")
            mine.append(ms)
        client.close()
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=run, args=(tokens[i::clients],)) for i in range(clients)]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    return times, time.perf_counter() - started


def waits(url: str, expected: int, timeout: float) -> tuple[list[float], int, int]:
    """Once nobody waits (or ``timeout``): each matched entry's wait (ms), the matches, and how
    many are still waiting."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            waiting = conn.execute(
                "SELECT count(*) FROM games_queueentry WHERE status = 'waiting'"
            ).fetchone()[0]
            if not waiting or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        rows = conn.execute(
            "SELECT extract(epoch FROM matched_at - joined_at) * 1000, match_id "
            "FROM games_queueentry WHERE status = 'matched'"
        ).fetchall()
    assert len(rows) + waiting == expected, (len(rows), waiting, expected)  # noqa: S101
    return [float(ms) for ms, _ in rows], len({match for _, match in rows}), int(waiting)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()

    with bench_run(DEFAULT_URL, "queue") as bench:
        tokens = seed(bench.env, args.players)
        log(f"benchmark: {len(tokens)} players written")
        bench.stack.start()
        joins, seconds = join_all(bench.stack.http_port, tokens, args.clients, args.seats)
        log(f"benchmark: {len(joins)} joins in {seconds:.1f} s")
        paired, matches, waiting = waits(bench.url, args.players, timeout=120)
    summary = {
        "joins_per_s": round(len(joins) / seconds, 1),
        "join_p50_ms": percentile(joins, 50),
        "join_p99_ms": percentile(joins, 99),
        "pair_p50_ms": percentile(paired, 50),
        "pair_p99_ms": percentile(paired, 99),
        "matches": matches,
        "players": args.players,
        "left_waiting": waiting,
        "clients": args.clients,
        "seats": args.seats,
        "load_avg_1m": bench.load_avg(),
    }
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
