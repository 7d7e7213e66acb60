"""Check a benchmark's JSON line: every key it documents is there.

    .venv/bin/python -m benchmarks.api ... | .venv/bin/python -m benchmarks.keys benchmarks.api
    .venv/bin/python -m benchmarks.api --login-flood ... |
        .venv/bin/python -m benchmarks.keys benchmarks.api benchmarks.login_flood

Reads the last line of standard input, parses it as one JSON object and prints it again; exits
1, naming them, when any of the keys the named modules list in ``KEYS`` is missing (CI's brief
runs of the benchmarks).
"""

from __future__ import annotations

import importlib
import json
import sys


def missing(summary: dict[str, object], keys: tuple[str, ...]) -> list[str]:
    """The keys of ``keys`` (``"targets.moves_per_s"`` looks inside ``targets``) not in
    ``summary``."""
    absent = []
    for key in keys:
        value: object = summary
        for part in key.split("."):
            if not isinstance(value, dict) or part not in value:
                absent.append(key)
                break
            value = value[part]
    return absent


def main(argv: list[str]) -> int:
    if not argv:
        sys.stderr.write("usage: python -m benchmarks.keys <benchmark module>...\n")
        return 2
    keys = tuple(key for name in argv for key in importlib.import_module(name).KEYS)
    lines = sys.stdin.read().strip().splitlines()
    summary = json.loads(lines[-1]) if lines else None
    if not isinstance(summary, dict):
        sys.stderr.write(f"{argv[0]} did not end with a JSON object\n")
        return 1
    sys.stdout.write(json.dumps(summary) + "\n")
    if absent := missing(summary, keys):
        sys.stderr.write(f"{argv[0]}'s JSON lacks: {', '.join(absent)}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
