"""``benchmarks.analysis`` (docs/engine.md, "Analysis"): a small run ends with its JSON line."""

from __future__ import annotations

import json
from typing import Any

from benchmarks import analysis


def test_the_analysis_benchmark_reports_cpu_per_game(capsys: Any) -> None:
    assert analysis.main(["--rounds", "1", "--seats", "2", "--deals", "2"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["deals"] == 2
    assert line["target_s"] == analysis.TARGET_S
    for variant in ("chickenfoot", "mexican_train"):
        figures = line[variant]
        assert figures["moves"] >= figures["valued"] > 0
        assert figures["cpu_s"] >= 0
