"""The CPU the server spends refusing an oversized JSON body: long arrays, many keys.

    python -m benchmarks.bodies [--repeat 15]

In-process (Django's test client, the whole request: middleware, authentication, parsing,
validation, the problem answer) on a throwaway SQLite database in a temporary directory, with
the request limits off. Each case is sent ``--repeat`` times and timed with the process's CPU
clock (``time.process_time``, so another process's load on a shared machine counts little):

- ``move_tile_200k``: a move whose ``tile`` is an array of 200,000 numbers, by the seat to move;
- ``register_array_1mb``: a registration whose ``username`` is an array of numbers filling the
  body to just under ``MAX_BODY_BYTES`` (1 MiB);
- ``register_keys_50k``: a registration with 50,000 extra members;
- ``move_tile_20k``: a move whose ``tile`` has 20,000 numbers (a body under 64 KiB);
- ``register_widest_allowed``: the costliest body the limits let through, 31 arrays of 1,000
  numbers (62 KiB) as the ``username``;
- ``move_small_bad``: a move with a one-character bad ``tile``, for comparison.

The last line printed is one JSON object: each case's median and largest CPU milliseconds
(``<case>_cpu_ms``, ``<case>_cpu_max_ms``), its answer's status, code and size, the repeats and
the load averages before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def log(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def setup(directory: str) -> None:
    """Django on a fresh SQLite database in ``directory``, migrated."""
    os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
    os.environ["RATE_LIMITS"] = "off"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chickenfoot.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def cases() -> dict[str, Callable[[], Any]]:
    """Each case: a function sending its request once and returning the response."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.accounts.tokens import token_issue
    from games.models import Player
    from games.services.matches import SeatSpec, match_create, match_start

    user = get_user_model().objects.create_user(username="bench", password=None)
    player = Player.objects.create(user=user, kind=Player.Kind.HUMAN, display_name="Bench")
    _, key = token_issue(user=user)
    specs = [SeatSpec(kind="creator"), SeatSpec(kind="bot", level=1)]
    match = match_create(creator=player, variant="chickenfoot", seats=specs, options={})
    match = match_start(match_id=match.pk, player=player)
    match.refresh_from_db()
    client = Client(
        HTTP_HOST="localhost", HTTP_AUTHORIZATION=f"Token {key}", raise_request_exception=False
    )
    anonymous = Client(HTTP_HOST="localhost", raise_request_exception=False)
    moves = f"/api/matches/{match.pk}/moves"

    def move(tile: Any) -> bytes:
        body = {"kind": "play", "tile": tile, "target": "arm:0", "version": match.version}
        return json.dumps(body).encode()

    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    head, tail = b'{"username": [', b'], "password": "correct horse battery"}'
    count = (limit - len(head) - len(tail) - 64) // 2  # "1," per item
    register_array = head + b",".join([b"1"] * count) + tail
    extra = {f"k{n}": 1 for n in range(50_000)}
    register_keys = json.dumps({"username": "x", "password": "y", **extra}).encode()
    tile_200k = move([0] * 200_000)
    tile_20k = move([0] * 20_000)
    # the costliest shape the limits let through: 64 KiB of arrays of 1,000 items
    widest = json.dumps({"username": [[0] * 1000] * 31}, separators=(",", ":")).encode()
    small_bad = move("x")

    def post(who: Any, path: str, body: bytes) -> Callable[[], Any]:
        return lambda: who.post(path, body, content_type="application/json")

    return {
        "move_tile_200k": post(client, moves, tile_200k),
        "register_array_1mb": post(anonymous, "/api/players", register_array),
        "register_keys_50k": post(anonymous, "/api/players", register_keys),
        "move_tile_20k": post(client, moves, tile_20k),
        "register_widest_allowed": post(anonymous, "/api/players", widest),
        "move_small_bad": post(client, moves, small_bad),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as directory:
        setup(directory)
        import logging

        logging.disable(logging.WARNING)  # the refusals' one-line warnings
        result: dict[str, Any] = {}
        for name, send in cases().items():
            send()  # warm: imports, connections, caches
            samples = []
            for _ in range(args.repeat):
                started = time.process_time()
                response = send()
                samples.append((time.process_time() - started) * 1000)
            body = response.json() if response.content else {}
            result[f"{name}_cpu_ms"] = round(statistics.median(samples), 2)
            result[f"{name}_cpu_max_ms"] = round(max(samples), 2)
            answer = [response.status_code, body.get("code"), len(response.content)]
            result[f"{name}_answer"] = answer
            log(f"{name}: {result[f'{name}_cpu_ms']} ms, {result[f'{name}_answer']}")
    result["repeat"] = args.repeat
    result["load_before"] = [round(x, 2) for x in load_before]
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
