"""The players of ``benchmarks.sockets``: moves through the API at a steady rate.

    python -m benchmarks.socket_moves <plan.json>

The plan names the API's port, the rate (moves a second), the threads and the matches (each with
its seats' tokens by position and the seat to move). Each thread plays its share of the matches
in turn, as a client would: the seat to move asks for its legal moves and sends one (seeded
choice) with the version it was answered. The moves are paced open-loop: the n-th move of the
process is due ``n / rate`` seconds after the start, whatever the answers' speed. A line
``mark`` on standard input prints ``{"mark": <moves played so far>}``; a line ``stop`` ends the
play, then it prints one JSON line: ``moves``, ``seconds``, ``errors`` and ``move_p50_ms`` /
``move_p99_ms`` (the POSTs' time).
"""

from __future__ import annotations

import json
import random
import sys
import threading
import time
from typing import Any

from benchmarks.http_client import Client


class Pace:
    """The due time of each move of the process, one after another."""

    def __init__(self, rate: float) -> None:
        self.rate, self.count, self.lock = rate, 0, threading.Lock()
        self.began = time.monotonic()

    def next_due(self) -> float:
        with self.lock:
            self.count += 1
            return self.began + self.count / self.rate


def play(
    port: int,
    matches: list[dict[str, Any]],
    pace: Pace,
    stop: threading.Event,
    seed: int,
    out: dict[str, Any],
) -> None:
    client = Client(port)
    rng = random.Random(seed)
    turns = {m["id"]: m["turn"] for m in matches}
    index = 0
    while not stop.is_set() and turns:
        due = pace.next_due()
        if (wait := due - time.monotonic()) > 0 and stop.wait(wait):
            break
        match = matches[index % len(matches)]
        index += 1
        if match["id"] not in turns:
            continue
        token = match["tokens"][turns[match["id"]]]
        try:
            status, legal, _ = client.call(
                "GET", f"/api/matches/{match['id']}/legal-moves", None, token
            )
            if status != 200 or not legal["moves"]:
                raise RuntimeError(f"legal moves: HTTP {status}")
            move = {**rng.choice(legal["moves"]), "version": legal["version"]}
            status, body, elapsed = client.call(
                "POST", f"/api/matches/{match['id']}/moves", move, token
            )
            if status != 201:
                raise RuntimeError(f"move: HTTP {status}: {str(body)[:200]}")
        except Exception as error:  # noqa: BLE001 - counted and reported
            out["errors"].append(f"{type(error).__name__}: {error}")
            client.close()
            continue
        out["times"].append(elapsed)
        state = body["state"]
        if state["status"] == "playing":
            turns[match["id"]] = state["turn"]
        else:
            del turns[match["id"]]
            out["finished"] += 1


def main(argv: list[str]) -> int:
    with open(argv[0]) as file:
        plan = json.load(file)
    threads_n = max(1, min(plan["threads"], len(plan["matches"])))
    pace = Pace(plan["rate"])
    stop = threading.Event()
    outs = [{"times": [], "errors": [], "finished": 0} for _ in range(threads_n)]
    threads = [
        threading.Thread(
            target=play,
            args=(plan["port"], plan["matches"][i::threads_n], pace, stop, plan["seed"] + i, out),
            daemon=True,
        )
        for i, out in enumerate(outs)
    ]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for line in sys.stdin:
        command = line.strip()
        if command == "mark":
            played = sum(len(out["times"]) for out in outs)
            sys.stdout.write(json.dumps({"mark": played}) + "\n")
            sys.stdout.flush()
        elif command == "stop":
            break
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    seconds = time.monotonic() - began
    times = sorted(t for out in outs for t in out["times"])
    errors = [e for out in outs for e in out["errors"]]

    def pct(q: float) -> float | None:
        return round(times[min(len(times) - 1, int(len(times) * q / 100))], 1) if times else None

    sys.stdout.write(
        json.dumps(
            {
                "moves": len(times),
                "seconds": round(seconds, 2),
                "finished": sum(out["finished"] for out in outs),
                "move_p50_ms": pct(50),
                "move_p99_ms": pct(99),
                "errors": len(errors),
                "first_errors": errors[:3],
            }
        )
        + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
