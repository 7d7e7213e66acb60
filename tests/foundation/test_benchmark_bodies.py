"""``python -m benchmarks.bodies`` runs and ends with its JSON line (one repeat of each case),
each oversized body refused as docs/api.md says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_body_benchmark_reports_cpu_per_case_and_each_refusal() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}

    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bodies", "--repeat", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )

    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["move_tile_200k_answer"][:2] == [413, "body_too_large"]
    assert result["register_array_1mb_answer"][:2] == [413, "body_too_large"]
    assert result["register_keys_50k_answer"][:2] == [413, "body_too_large"]
    assert result["move_tile_20k_answer"][:2] == [400, "too_many_items"]
    assert result["register_widest_allowed_answer"][:2] == [400, "invalid"]
    assert result["move_small_bad_answer"][:2] == [400, "malformed_move"]
    assert all(result[key] >= 0 for key in result if key.endswith("_cpu_ms"))
