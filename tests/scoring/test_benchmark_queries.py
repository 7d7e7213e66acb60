"""``python -m benchmarks.queries`` runs end to end (small sizes) and prints its JSON last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the benchmark needs PostgreSQL (CI runs this)"
)


def test_the_benchmark_prints_medians_per_size_and_drops_its_database() -> None:
    settings = connection.settings_dict
    name = f"chickenfoot_bench_test_{os.getpid()}"
    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{name}"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}

    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.queries", "--sizes", "40,80", "--samples", "3",
         "--pool", "20"],
        cwd=ROOT,
        env=env | {"BENCH_DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1])
    assert set(result) == {"at_40", "at_80"}
    for figures in result.values():
        assert set(figures) >= {
            "history_first_page",
            "history_deep_page",
            "player_stats",
            "head_to_head",
            "leaderboard",
            "standings",
        }
        assert all(value > 0 for value in figures.values())
    plans = json.loads(lines[-2].removeprefix("explain "))
    assert "matchresult_player_history" in plans["at_80"]["history_first_page"]["indexes"]
    assert all(not plan["seq_scans"] for name, plan in plans["at_80"].items() if name[0] != "_")
    maintenance = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(maintenance, connect_timeout=5) as admin:
        row = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    assert row is None
