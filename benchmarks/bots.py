"""Bot strength: each level against three of the level below, on the same deals.

    python -m benchmarks.bots [--rounds 2000] [--strong-rounds 500] [--only chickenfoot]
                              [--pairings strong_vs_level3] [--budget-ms 100] [--workers 2]

Games: Chicken Foot double-9 and Mexican Train double-12, 4 players. Pairings: level 2 vs three
level 1, level 3 vs three level 2 (``--rounds`` rounds each), strong vs three level 3
(``--strong-rounds``). A *deal* is a whole match from its seed (every round's tiles depend on
the seed alone, C-SHUFFLE), played four times with the tested bot in each seat in turn, and the
same seeds are replayed for every pairing, so the pairings meet the same tiles. Bots decide from
their seat's information set (``games.bots.SeatInfo``) as in a real match.

*Winning a round*: the tested bot's round score (C-PIPS of the hand it is left with) is the
lowest at the table; a tie for lowest is shared (two tied seats win half a round each), so
chance is 25% with four seats. ``win_share`` is the mean of that per round; ``mean_points`` the
tested bot's mean round score, ``opponents_points`` the opponents' mean; intervals are 95%
normal intervals over rounds. ``strong_move_ms`` times every strong decision (wall clock), and
``searched_ms`` the ones with more than one candidate move (the others return at once);
``strong_move_cpu_ms`` the CPU time of every strong decision (the thread's: what the bot's
budget counts, whatever else the machine runs).

The last line printed is one JSON object:
``{"chickenfoot": {"level2_vs_level1": {...}, "level3_vs_level2": {...},
"strong_vs_level3": {"win_share", "ci95", "mean_points", "points_ci95", ...}},
"mexican_train": {...}, "strong_move_ms": {"mean", "p50", "p99", ...},
"strong_move_cpu_ms": {"mean", "p50", "p99"}, "budget_ms": ...,
"load_avg": [...]}``: ``load_avg`` is the machine's load when the run ends (on a shared
machine, wall-clock move times grow with it).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from typing import Any

from tqdm import tqdm

from games import bots, engine

GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "chickenfoot": (4, {"max_pip": 9}),
    "mexican_train": (4, {"max_pip": 12}),
}
#: pairing -> (tested level, opponents' level)
PAIRINGS: dict[str, tuple[int, int]] = {
    "level2_vs_level1": (2, 1),
    "level3_vs_level2": (3, 2),
    "strong_vs_level3": (4, 3),
}


def play_match(
    variant: str, seed: str, levels: list[int], budget_ms: float
) -> tuple[list[list[int]], list[float], list[float], list[float]]:
    """One match from ``seed`` with a bot of ``levels[seat]`` in each seat.

    Returns the round scores, the wall-clock ms of each strong decision, and of those among
    them that searched (more than one candidate), and the CPU ms of each strong decision.
    """
    seats, options = GAMES[variant]
    state = engine.new_match(variant, seats, options, seed)
    log: list[list[dict[str, Any]]] = [engine.opening_events(state)]
    rng = random.Random(f"bots:{seed}:{levels}")
    timings: list[float] = []
    cpu_timings: list[float] = []
    searched: list[float] = []
    while state.status == "playing":
        seat = state.turn
        level = levels[seat]
        if level >= bots.STRONG:
            started, cpu = time.perf_counter(), time.thread_time()
            info = bots.seat_info(state, seat, log)
            move = bots.choose_move(info, level, rng, budget_ms=budget_ms)
            elapsed = (time.perf_counter() - started) * 1000
            timings.append(elapsed)
            cpu_timings.append((time.thread_time() - cpu) * 1000)
            if len(bots.search.candidates(info.view, engine.legal_moves(state, seat))) > 1:
                searched.append(elapsed)
        else:
            move = bots.choose_move(bots.SeatInfo(engine.view(state, seat)), level, rng)
        _, events = engine.apply_move(state, seat, move)
        for i, event in enumerate(events):
            if event["type"] == "round_started":
                log = [events[i:]]
                break
        else:
            log.append(events)
    return state.scores, timings, searched, cpu_timings


def _job(args: tuple[str, str, str, int, float]) -> dict[str, Any]:
    variant, pairing, seed, rotation, budget_ms = args
    tested, other = PAIRINGS[pairing]
    seats = GAMES[variant][0]
    levels = [other] * seats
    levels[rotation] = tested
    scores, timings, searched, cpu_timings = play_match(variant, seed, levels, budget_ms)
    wins, points, others = [], [], []
    for row in scores:
        low = min(row)
        wins.append(1.0 / row.count(low) if row[rotation] == low else 0.0)
        points.append(row[rotation])
        others.append(sum(p for s, p in enumerate(row) if s != rotation) / (seats - 1))
    return {
        "variant": variant,
        "pairing": pairing,
        "wins": wins,
        "points": points,
        "others": others,
        "timings": timings,
        "cpu_timings": cpu_timings,
        "searched": searched,
    }


def _interval(
    values: list[float], low: float = -math.inf, high: float = math.inf
) -> tuple[float, list[float]]:
    """The mean and its 95% normal interval (clipped to ``[low, high]``)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, [round(max(low, mean - half), 4), round(min(high, mean + half), 4)]


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def jobs_for(variant: str, pairing: str, rounds: int, budget_ms: float) -> list[tuple]:
    """Enough deals (whole matches, four seat rotations each) to reach ``rounds`` rounds."""
    seats, options = GAMES[variant]
    per_match = engine.resolve_options(variant, seats, options)["rounds"] * seats
    deals = max(1, math.ceil(rounds / per_match))
    return [
        (variant, pairing, f"bench-bots:{variant}:{deal}", rotation, budget_ms)
        for deal in range(deals)
        for rotation in range(seats)
    ]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per heuristic pairing")
    parser.add_argument("--strong-rounds", type=int, default=500, help="rounds of strong play")
    parser.add_argument("--only", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--pairings", nargs="+", choices=sorted(PAIRINGS), default=list(PAIRINGS))
    parser.add_argument("--budget-ms", type=float, default=bots.DEFAULT_BUDGET_MS)
    parser.add_argument("--workers", type=int, default=2, help="processes (at most 2)")
    args = parser.parse_args(argv)
    jobs: list[tuple] = []
    for variant in GAMES:
        if args.only and variant != args.only:
            continue
        for pairing in args.pairings:
            rounds = args.strong_rounds if pairing == "strong_vs_level3" else args.rounds
            jobs += jobs_for(variant, pairing, rounds, args.budget_ms)
    # Strong matches first: they are the long ones, so the pool's two processes end together.
    jobs.sort(key=lambda job: job[1] != "strong_vs_level3")
    results: list[dict[str, Any]] = []
    workers = max(1, min(2, args.workers))
    with multiprocessing.Pool(workers) as pool:
        for result in tqdm(
            pool.imap_unordered(_job, jobs), total=len(jobs), unit="match", file=sys.stderr
        ):
            results.append(result)
    out: dict[str, Any] = {}
    timings: list[float] = []
    cpu_timings: list[float] = []
    searched: list[float] = []
    for result in results:
        timings += result["timings"]
        cpu_timings += result["cpu_timings"]
        searched += result["searched"]
    for variant in GAMES:
        for pairing in args.pairings:
            mine = [r for r in results if r["variant"] == variant and r["pairing"] == pairing]
            if not mine:
                continue
            wins = [w for r in mine for w in r["wins"]]
            points = [float(p) for r in mine for p in r["points"]]
            others = [p for r in mine for p in r["others"]]
            share, ci = _interval(wins, 0.0, 1.0)
            mean_points, points_ci = _interval(points)
            out.setdefault(variant, {})[pairing] = {
                "rounds": len(wins),
                "win_share": round(share, 4),
                "ci95": ci,
                "mean_points": round(mean_points, 2),
                "points_ci95": [round(x, 2) for x in points_ci],
                "opponents_points": round(statistics.fmean(others), 2),
            }
            sys.stderr.write(f"{variant} {pairing}: {out[variant][pairing]}\n")
    out["strong_move_ms"] = {
        "mean": round(statistics.fmean(timings), 1) if timings else None,
        "p50": _percentile(timings, 0.5),
        "p99": _percentile(timings, 0.99),
        "moves": len(timings),
        "searched_p50": _percentile(searched, 0.5),
        "searched_p99": _percentile(searched, 0.99),
        "searched_moves": len(searched),
    }
    out["strong_move_cpu_ms"] = {
        "mean": round(statistics.fmean(cpu_timings), 1) if cpu_timings else None,
        "p50": _percentile(cpu_timings, 0.5),
        "p99": _percentile(cpu_timings, 0.99),
    }
    out["budget_ms"] = args.budget_ms
    out["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    sys.stdout.write(json.dumps(out) + "\n")
    return out


if __name__ == "__main__":
    main()
