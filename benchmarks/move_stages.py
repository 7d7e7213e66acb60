"""Where a move's CPU goes, stage by stage, in one process (no HTTP server).

    python -m benchmarks.move_stages [--turns 300] [--root PATH]
                                     [--channels-redis redis://127.0.0.1:6379/11]

A throwaway PostgreSQL database (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/chickenfoot_stages_bench``; dropped at the end), the
sockets' channel layer on Redis (``--channels-redis``, default ``BENCH_REDIS_URL`` or
``redis://127.0.0.1:6379/11``) with a prefix of the run's own, and ``REDIS_URL`` set as in
production (tasks go to a queue of the run's own, which nothing reads). Four players play
Chicken Foot (four seats, double-9) turn after turn through the WSGI application the servers run
(``chickenfoot.wsgi``, its heap settled as there), called directly: each turn is the legal-moves
GET and the move POST of benchmarks.api. The database is migrated by a process of its own, so
that what migrating leaves in memory is not in the timed one. ``--root`` runs the code of another
checkout (an older commit, for a before/after comparison).

First ``--turns`` turns are timed without a profiler (``cpu_ms_per_turn``: the process's CPU),
then as many under cProfile with a CPU clock, whose time is shared among the stages below by
the functions each stage's work runs in (a helper's time split among its callers by what it
cost under each). The shares are the profile's; ``stages`` spreads the unprofiled CPU by them.

The last line is one JSON object: ``cpu_ms_per_turn``, ``stages`` (stage -> ms per turn),
``shares`` (stage -> fraction), ``turns``, ``root``, ``load_avg_1m`` (start and end).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/chickenfoot_stages_bench"

#: Stage -> the functions (``path:function`` fragments) whose time, and whose callees' time,
#: is the stage's; the first stage that names a function has it.
STAGES: list[tuple[str, tuple[str, ...]]] = [
    # this script's own client: building requests, reading answers (not the server's CPU)
    ("client", ("benchmarks/move_stages.py:",)),
    ("engine", ("games/engine/",)),
    ("publish", ("games/live/publish.py:", "channels_redis/", "redis/")),
    ("notify", ("games/notifications/services.py:your_turn_notify",)),
    ("writes", ("games/rows.py:insert", "games/rows.py:update", "games/rows.py:batch")),
    ("commit", ("games/rows.py:commit", "django/db/transaction.py:__exit__")),
    (
        "lock_and_reads",
        ("games/selectors.py:match_with_seat", "games/services/common.py:match_lock"),
    ),
    ("authentication", ("rest_framework/request.py:_authenticate",)),
    ("body_parse", ("rest_framework/request.py:_load_data_and_files",)),
    ("render", ("rest_framework/response.py:rendered_content",)),
    ("view", ("games/api/moves.py:get", "games/api/moves.py:post")),
    ("drf", ("rest_framework/views.py:dispatch",)),
    ("urls", ("django/core/handlers/base.py:resolve_request",)),
    ("middleware_and_handler", ("django/core/handlers/wsgi.py:__call__",)),
]


#: Times round the call graph, at most, for the stages' shares to settle.
ROUNDS = 200


def shares(profile: cProfile.Profile) -> dict[str, float]:
    """Each stage's share of the profiled CPU.

    A function of a stage's own counts for it; any other function's own time is split among
    its callers as its time under each of them was (cProfile keeps that one level up), and so
    on up the callers, so that a helper every stage calls (a query, a JSON encoder) counts for
    each stage by what it cost there.
    """
    stats = pstats.Stats(profile, stream=io.StringIO()).stats  # type: ignore[attr-defined]

    def own(key: Any) -> str | None:
        name = f"{key[0]}:{key[2]}"
        for stage, marks in STAGES:
            if any(mark in name for mark in marks):
                return stage
        return None

    # Each function's mix of stages: its own stage, or its callers' mixes weighted by the time
    # spent under each; found by going round the call graph until it settles (the graph has
    # cycles: contextlib's and Django's wrappers call, and are called by, many functions). What
    # has not reached a stage by then is "other".
    owned = {key: own(key) for key in stats}
    callers = {
        key: {c: v[3] for c, v in stats[key][4].items() if c in stats and c != key} for key in stats
    }
    mixes: dict[Any, dict[str, float]] = {
        key: {stage: 1.0} if stage else {} for key, stage in owned.items()
    }
    for _ in range(ROUNDS):
        settled = True
        for key, stage in owned.items():
            if stage:
                continue
            weights = callers[key]
            total = sum(weights.values())
            if not total:
                mix = {"other": 1.0}
            else:
                mix = {}
                for caller, weight in weights.items():
                    for name, part in mixes[caller].items():
                        mix[name] = mix.get(name, 0.0) + part * weight / total
            if any(
                abs(mix.get(n, 0.0) - mixes[key].get(n, 0.0)) > 1e-6 for n in {*mix, *mixes[key]}
            ):
                settled = False
            mixes[key] = mix
        if settled:
            break

    def mix(key: Any) -> dict[str, float]:
        found = mixes[key]
        rest = 1.0 - sum(found.values())
        return {**found, "other": found.get("other", 0.0) + rest} if rest > 1e-9 else found

    totals: dict[str, float] = {}
    for key, (_, _, tottime, _, _) in stats.items():
        for stage, part in mix(key).items():
            totals[stage] = totals.get(stage, 0.0) + tottime * part
    total = sum(totals.values()) or 1.0
    return {name: value / total for name, value in sorted(totals.items(), key=lambda i: -i[1])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose code runs")
    parser.add_argument(
        "--channels-redis",
        default=os.environ.get("BENCH_REDIS_URL") or "redis://127.0.0.1:6379/11",
    )
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL
    db_name = urlsplit(url).path.lstrip("/")
    run_id = secrets.token_hex(3)
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "chickenfoot.settings",
            "DATABASE_URL": url,
            "SECRET_KEY": secrets.token_hex(16),
            "LOG_LEVEL": "WARNING",
            "RATE_LIMITS": "off",
            "REDIS_URL": args.channels_redis,
            "CHANNELS_REDIS_URL": args.channels_redis,
            "CHANNELS_PREFIX": f"stages-{run_id}",
            "CELERY_QUEUE": f"stages-{run_id}",
        }
    )
    sys.path.insert(0, args.root)
    os.chdir(args.root)
    from benchmarks.api import admin

    admin(url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    admin(url, f'CREATE DATABASE "{db_name}"')
    try:
        return _run(args, url, db_name)
    finally:
        from django.db import connections

        connections.close_all()
        admin(url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')


def _run(args: argparse.Namespace, url: str, db_name: str) -> int:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=args.root, check=True
    )
    import django

    django.setup()
    from chickenfoot.wsgi import application as app

    call = _caller(app)
    tokens = []
    for seat in range(4):
        _, body = call(
            "POST", "/api/players", {"username": f"s{seat}", "password": "pw-stages-long-1"}
        )
        tokens.append(body["token"])
    rng = random.Random(1)
    match = {"id": 0, "turn": None}

    def new_match() -> None:
        seats = [{"kind": "creator"}] + [{"kind": "open"}] * 3
        body = {"variant": "chickenfoot", "options": {"max_pip": 9}, "seats": seats}
        _, created = call("POST", "/api/matches", body, tokens[0])
        for seat in range(1, 4):
            call("POST", f"/api/matches/{created['id']}/join", {"position": seat}, tokens[seat])
        _, started = call("POST", f"/api/matches/{created['id']}/start", None, tokens[0])
        match.update(id=created["id"], turn=started["state"]["turn"])

    def turn() -> None:
        if match["turn"] is None:
            new_match()
        mid, seat = match["id"], match["turn"]
        _, legal = call("GET", f"/api/matches/{mid}/legal-moves", None, tokens[seat])
        move = rng.choice(legal["moves"])
        status, body = call(
            "POST", f"/api/matches/{mid}/moves", {**move, "version": legal["version"]}, tokens[seat]
        )
        if status != 201:
            raise RuntimeError(f"move: HTTP {status}: {body}")
        state = body["state"]
        match["turn"] = state["turn"] if state["status"] == "playing" else None

    load_before = os.getloadavg()[0]
    for _ in range(30):  # warm: every statement prepared, every cache filled
        turn()
    started = time.process_time()
    for _ in range(args.turns):
        turn()
    cpu_ms = (time.process_time() - started) * 1000 / args.turns
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    for _ in range(args.turns):
        turn()
    profile.disable()
    if os.environ.get("STAGES_PROFILE"):
        profile.dump_stats(os.environ["STAGES_PROFILE"])
    found = shares(profile)
    summary = {
        "cpu_ms_per_turn": round(cpu_ms, 3),
        "stages": {name: round(cpu_ms * share, 3) for name, share in found.items()},
        "shares": {name: round(share, 3) for name, share in found.items()},
        "turns": args.turns,
        "root": args.root,
        "load_avg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


def _caller(app: Any) -> Callable[..., tuple[int, Any]]:
    def call(method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else b""
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_ACCEPT": "application/json",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(data)),
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
        }
        if token:
            environ["HTTP_AUTHORIZATION"] = f"Token {token}"
        answer: dict[str, int] = {}

        def start_response(status: str, headers: Any, exc_info: Any = None) -> None:
            answer["status"] = int(status.split()[0])

        chunks = app(environ, start_response)
        raw = b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()
        return answer["status"], json.loads(raw) if raw else None

    return call


if __name__ == "__main__":
    sys.exit(main())
