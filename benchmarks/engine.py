"""Random-vs-random full matches through the engine facade, per game and configuration.

    python -m benchmarks.engine [--seconds 6] [--only chickenfoot]

Each *action* is one ``legal_moves`` call for the seat to act plus one ``apply_move`` of a move
chosen from it by a seeded RNG. Matches run back to back (new matches included in the time)
until the configuration's wall-clock budget is spent; rates are per second of this process's
CPU time, so other load on the machine does not lower them. The last line printed is one JSON
object: ``{game: {config: {rounds_per_s, actions_per_s, us_per_action, blocked_share, ...}}}``;
a game whose module cannot be imported is reported as ``{"absent": "<reason>"}``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import sys
import time
from typing import Any

from games import engine

#: game -> config name -> (seats, options). Hand sizes come from the deal rules (CF-DEAL: 11
#: for double-9 with 4 players, 9 for double-12 with 8; MT-DEAL: 15 and 9).
CONFIGS: dict[str, dict[str, tuple[int, dict[str, Any]]]] = {
    "chickenfoot": {"d9x4": (4, {"max_pip": 9}), "d12x8": (8, {"max_pip": 12})},
    "mexican_train": {"d12x4": (4, {"max_pip": 12}), "d12x8": (8, {"max_pip": 12})},
}


def run_config(
    variant: str, name: str, seats: int, options: dict[str, Any], seconds: float
) -> dict[str, Any]:
    """Play whole matches for ``seconds``; count rounds, actions and blocked rounds."""
    rng = random.Random(f"{variant}:{name}")
    legal_moves, apply_move, new_match = engine.legal_moves, engine.apply_move, engine.new_match
    random_ = rng.random
    actions = rounds = blocked = matches = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = new_match(variant, seats, options, f"bench:{variant}:{name}:{matches}")
        matches += 1
        while state.status == "playing":
            seat = state.turn
            moves = legal_moves(state, seat)
            _, events = apply_move(state, seat, moves[int(random_() * len(moves))])
            actions += 1
            if len(events) > 1:
                for event in events:
                    if event["type"] == "round_ended":
                        rounds += 1
                        if event["reason"] == "blocked":
                            blocked += 1
    wall = time.perf_counter() - started
    elapsed = time.process_time() - cpu_started  # this process's CPU: other load does not count
    return {
        "seats": seats,
        "hand_size": engine.resolve_options(variant, seats, options)["hand_size"],
        "matches": matches,
        "rounds": rounds,
        "actions": actions,
        "seconds": round(wall, 3),
        "cpu_seconds": round(elapsed, 3),
        "rounds_per_s": round(rounds / elapsed, 1),
        "actions_per_s": round(actions / elapsed),
        "us_per_action": round(elapsed / actions * 1e6, 3) if actions else None,
        "actions_per_round": round(actions / rounds, 1) if rounds else None,
        "blocked_share": round(blocked / rounds, 4) if rounds else None,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time budget per config")
    parser.add_argument("--only", choices=sorted(CONFIGS), help="one game only")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    for variant, configs in CONFIGS.items():
        if args.only and variant != args.only:
            continue
        try:
            importlib.import_module(f"games.engine.{variant}")
        except ImportError as exc:  # ModuleNotFoundError included: the game is not written yet
            if exc.name is not None and not f"games.engine.{variant}".startswith(exc.name):
                raise
            out[variant] = {"absent": f"games.engine.{variant} is not importable: {exc}"}
            sys.stdout.write(f"{variant}: absent ({exc})\n")
            continue
        out[variant] = {}
        for name, (seats, options) in configs.items():
            result = run_config(variant, name, seats, options, args.seconds)
            out[variant][name] = result
            sys.stdout.write(
                f"{variant} {name}: {result['actions_per_s']:,} actions/s, "
                f"{result['us_per_action']} us/action, {result['rounds_per_s']} rounds/s, "
                f"blocked {result['blocked_share']}\n"
            )
            sys.stdout.flush()
    out["python"] = f"{platform.python_implementation()} {platform.python_version()}"
    sys.stdout.write(json.dumps(out) + "\n")
    return out


if __name__ == "__main__":
    main()
