"""``python -m benchmarks.bots`` runs and ends with its JSON line (a tiny run)."""

from __future__ import annotations

import json

import pytest

from benchmarks import bots as benchmark


def test_the_bot_benchmark_reports_win_shares_and_move_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    benchmark.main(
        [
            "--rounds",
            "1",
            "--strong-rounds",
            "1",
            "--budget-ms",
            "2",
            "--workers",
            "1",
            "--only",
            "chickenfoot",
        ]
    )

    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    strong = result["chickenfoot"]["strong_vs_level3"]
    assert strong["rounds"] == 40  # one deal: a 10-round match, the strong bot in each seat
    assert 0 <= strong["ci95"][0] <= strong["win_share"] <= strong["ci95"][1] <= 1
    assert set(result["chickenfoot"]) == {
        "level2_vs_level1",
        "level3_vs_level2",
        "strong_vs_level3",
    }
    assert result["strong_move_ms"]["p50"] is not None
    assert result["strong_move_ms"]["p99"] >= result["strong_move_ms"]["p50"]
