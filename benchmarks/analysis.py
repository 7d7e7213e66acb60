"""The worker CPU a finished match's analysis costs (docs/engine.md, "Analysis").

    python -m benchmarks.analysis [--rounds 3] [--seats 4] [--deals 40]

For each game, a match of ``--rounds`` rounds at ``--seats`` seats is played by level-3 bots
from a fixed seed; then every move of every seat is analysed as the analysis task analyses a
person's (``games.analysis.moves.analyse_step``, from that seat's view and log at that
moment, ``--deals`` sampled deals a move, ``ANALYSIS_DEALS`` by default): every seat counted
as a person, the most a match of that size can cost. The time is this process's CPU time, the
replay of the log included. The last line printed is one JSON object:
``{"deals", "rounds", "seats", "target_s", "<game>": {"cpu_s", "moves", "valued", "ms_per_move"}}``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chickenfoot.settings")
django.setup()

from django.conf import settings  # noqa: E402

from games import bots, engine  # noqa: E402
from games.analysis.moves import analyse_step  # noqa: E402
from games.analysis.walk import Step  # noqa: E402
from games.models import Move  # noqa: E402

#: The issue's bound for a three-round match, in seconds of worker CPU.
TARGET_S = 30.0
SEED = "a11a" * 16


def measure(variant: str, rounds: int, seats: int, deals: int) -> dict[str, Any]:
    """Play one match by level-3 bots, then analyse every move of it; CPU seconds spent."""
    state = engine.new_match(variant, seats, {"rounds": rounds}, SEED)
    rng = random.Random(1)
    log: list[list[dict[str, Any]]] = [engine.opening_events(state)]
    round_no = state.round_no
    steps: list[tuple[Any, list[list[dict[str, Any]]], Move]] = []
    seq = 0
    while state.status == "playing":
        seat = state.turn
        move = bots.choose_move(bots.seat_info(state, seat, log), 3, rng)
        seq += 1
        row = Move(seq=seq, seat=seat, kind=move.kind, tile=move.tile, target=move.target or "")
        steps.append((engine.to_json(state), [list(e) for e in log], row))
        state, events = engine.apply_move(state, seat, move)
        if state.round_no != round_no:
            round_no = state.round_no
            starts = [i for i, e in enumerate(events) if e["type"] == "round_started"]
            log = [events[starts[0] :]] if starts else [[]]
        else:
            log.append(events)
    started = time.process_time()
    valued = 0
    for snapshot, seen, row in steps:
        step = Step(move=row, state=engine.from_json(snapshot, trusted=True), log=seen)
        valued += not analyse_step(step=step, match_seed=SEED, deals=deals)["forced"]
    cpu = time.process_time() - started
    return {
        "cpu_s": round(cpu, 2),
        "moves": len(steps),
        "valued": valued,
        "ms_per_move": round(1000 * cpu / max(1, len(steps)), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--deals", type=int, default=settings.ANALYSIS_DEALS)
    args = parser.parse_args(argv)
    out: dict[str, Any] = {
        "deals": args.deals,
        "rounds": args.rounds,
        "seats": args.seats,
        "target_s": TARGET_S,
    }
    for variant in ("chickenfoot", "mexican_train"):
        out[variant] = measure(variant, args.rounds, args.seats, args.deals)
        sys.stderr.write(f"{variant}: {out[variant]}\n")
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
