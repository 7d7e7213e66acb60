"""The scoring queries at league scale: 10,000 and 100,000 finished matches on PostgreSQL.

    nice -n 10 python -m benchmarks.queries [--sizes 10000,100000] [--samples 15] [--keep]

Creates a throwaway database (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/chickenfoot_bench_queries``; dropped at the end unless
``--keep``), migrates it and fills it with ``manage.py seed_league`` (4-player matches among 500
players, rounds the engine's bots played) up to each size in turn, then ``VACUUM ANALYZE``. At
each size every query is requested through the API (``APIClient``, the whole DRF stack) once
for each of ``--samples`` league players (after one warm-up), and its median wall-clock time is
reported:

- ``history_first_page``: a player's 20 newest matches, each with everyone at its table;
- ``history_deep_page``: the page halfway down the player's history, by its cursor;
- ``history_filtered``: the first page of matches against one opponent in one variant;
- ``player_stats``: matches, wins, win share, mean round score, zeros, best round, ratings and
  their trend;
- ``head_to_head``: two players' record together;
- ``leaderboard`` / ``leaderboard_deep``: the first and the eighth (or last) page of 50 (Chicken
  Foot);
- ``match_view``: a finished match with its standings from the result rows;
- ``standings``: the standings of the Chicken Foot league the matches count for (its 500
  players, every one ranked, with the tie-breaks), from the players' running totals.

Each request's SQL is captured and EXPLAINed: the line ``explain`` lists, per query, the
indexes its plans use and any sequential scan of a big table (none is expected; scans of the
players' and ratings' few hundred rows are listed apart), and under ``_cost_ms`` the median of
this process's CPU time plus the time spent waiting for the database, per request: on a shared
machine wall-clock time also counts the time other processes held the CPU, this does not. The
load average is printed before and after. The last line printed is one JSON object:
``{"at_10000": {"<query>": <median ms>, ...}, "at_100000": {...}}`` (wall-clock medians).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/chickenfoot_bench_queries"
INDEX_USE = re.compile(r"(?:Index Only Scan|Index Scan)(?: Backward)? using (\w+)")
BITMAP_USE = re.compile(r"Bitmap Index Scan on (\w+)")
SEQ_SCAN = re.compile(r"Seq Scan on (\w+)")
#: A sequential scan of a table this small (players, ratings) is the planner's right choice.
SMALL_TABLE_ROWS = 10_000


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _admin(url: str, sql: str) -> None:
    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql)


def _setup(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)  # tasks eager: nothing here enqueues anyway
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chickenfoot.settings")
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS.append("testserver")


class Capture:
    """Records the SQL (and parameters) a request runs and the time spent waiting for it."""

    def __init__(self) -> None:
        self.queries: list[tuple[str, Any]] = []
        self.db_seconds = 0.0

    def __call__(self, execute: Callable, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.queries.append((sql, params))
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.db_seconds += time.perf_counter() - started


def explain(queries: list[tuple[str, Any]]) -> dict[str, list[str]]:
    """The indexes and sequential scans of the plans of ``queries`` (SELECTs only)."""
    from django.db import connection

    indexes: set[str] = set()
    seq: set[str] = set()
    small: set[str] = set()
    with connection.cursor() as cursor:
        for sql, params in queries:
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            cursor.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            indexes.update(INDEX_USE.findall(plan))
            indexes.update(BITMAP_USE.findall(plan))
            for table in SEQ_SCAN.findall(plan):
                cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
                rows = cursor.fetchone()[0]
                (small if rows < SMALL_TABLE_ROWS else seq).add(table)
    return {"indexes": sorted(indexes), "seq_scans": sorted(seq), "small_seq_scans": sorted(small)}


def measure(samples: int, seed: int) -> tuple[dict[str, float], dict[str, Any]]:
    """Median milliseconds per query over the sample players, and each query's plan summary."""
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from scoring.models import Competition, MatchResult, Rating

    rng = random.Random(seed)
    league = sorted(set(MatchResult.objects.values_list("player_id", flat=True).distinct()))
    sample = rng.sample(league, min(samples, len(league)))
    rivals = {p: rng.choice([q for q in league if q != p]) for p in sample}
    # An opponent each sample player has met (the filter should find something).
    met = {}
    for p in sample:
        match_id = MatchResult.objects.filter(player_id=p).values_list("match_id", flat=True)[0]
        met[p] = (
            MatchResult.objects.filter(match_id=match_id)
            .exclude(player_id=p)
            .values_list("player_id", flat=True)[0]
        )
    match_ids = {
        p: MatchResult.objects.filter(player_id=p).values_list("match_id", flat=True)[0]
        for p in sample
    }
    client = APIClient()
    client.force_authenticate(user=get_user_model().objects.get(player__pk=sample[0]))

    def ok(url: str) -> dict[str, Any]:
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{url}: {response.status_code} {response.content[:300]!r}")
        return response.json()

    deep: dict[int, str] = {}
    for p in sample:  # untimed: follow the cursor halfway down each history
        total = MatchResult.objects.filter(player_id=p).count()
        url = f"/api/players/{p}/history"
        for _ in range(max(1, total // 20 // 2)):
            url = ok(url)["next"] or url
        deep[p] = url

    standings = Competition.objects.get(kind="league", variant="chickenfoot").pk
    rated = Rating.objects.filter(variant="chickenfoot").count()
    deep_board = max(1, min(8, -(-rated // 50)))  # the eighth page of 50, or the last
    queries: dict[str, Callable[[int], str]] = {
        "history_first_page": lambda p: f"/api/players/{p}/history",
        "history_deep_page": lambda p: deep[p],
        "history_filtered": lambda p: (
            f"/api/players/{p}/history?opponent={met[p]}&variant=chickenfoot"
        ),
        "player_stats": lambda p: f"/api/players/{p}/stats",
        "head_to_head": lambda p: f"/api/players/{p}/head-to-head/{rivals[p]}",
        "leaderboard": lambda p: "/api/leaderboards/chickenfoot",
        "leaderboard_deep": lambda p: f"/api/leaderboards/chickenfoot?page={deep_board}",
        "match_view": lambda p: f"/api/matches/{match_ids[p]}",
        "standings": lambda p: f"/api/competitions/{standings}/standings",
    }
    from django.db import connection

    medians: dict[str, float] = {}
    costs: dict[str, float] = {}
    plans: dict[str, Any] = {}
    for name, url_of in queries.items():
        ok(url_of(sample[0]))  # warm-up
        walls, own = [], []
        capture = Capture()
        for p in sample:
            url = url_of(p)
            capture.queries, capture.db_seconds = [], 0.0
            cpu = time.process_time()
            started = time.perf_counter()
            with connection.execute_wrapper(capture):
                ok(url)
            walls.append((time.perf_counter() - started) * 1000)
            own.append((time.process_time() - cpu + capture.db_seconds) * 1000)
        medians[name] = round(statistics.median(walls), 2)
        costs[name] = round(statistics.median(own), 2)
        plans[name] = explain(capture.queries)
    plans["_cost_ms"] = costs
    return medians, plans


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="Match counts, ascending.")
    parser.add_argument("--samples", type=int, default=15, help="Players timed per query.")
    parser.add_argument("--keep", action="store_true", help="Keep the database afterwards.")
    parser.add_argument("--pool", type=int, default=400, help="seed_league's round pool.")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    url = os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL
    name = urlsplit(url).path.lstrip("/")
    _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(url, f'CREATE DATABASE "{name}"')
    result: dict[str, dict[str, float]] = {}
    plans: dict[str, Any] = {}
    try:
        _setup(url)
        from django.core.management import call_command
        from django.db import connection, connections

        call_command("migrate", verbosity=0)
        seeded = 0
        for size in sizes:
            started = time.perf_counter()
            call_command("seed_league", matches=size - seeded, seed="bench", pool=args.pool)
            seeded = size
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
            say(f"seeded {size} matches in {time.perf_counter() - started:.0f} s")
            say(f"load average before timing: {os.getloadavg()[0]:.1f}")
            result[f"at_{size}"], plans[f"at_{size}"] = measure(args.samples, seed=size)
            say(f"load average after timing: {os.getloadavg()[0]:.1f}")
            say(json.dumps({f"at_{size}": result[f"at_{size}"]}))
        connections.close_all()
    finally:
        if not args.keep:
            _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    say("explain " + json.dumps(plans, sort_keys=True))
    say(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
