"""The players and matches of ``benchmarks.sockets``, written through the services.

    python -m benchmarks.socket_seed <players> <out.json>      (with the stack's environment)

Registers ``players`` players (``player_register``, each with a token as the API answers it; the
passwords are hashed with a fast hasher, since nobody logs in with them) and seats them, in play
order, at started Chicken Foot matches of 2, 3 and 4 seats in turn (``match_create``,
``seat_join``, ``match_start``). Writes ``{"tokens": [...], "matches": [{"id", "tokens",
"turn"}]}``: every player's token, and each match's seats' tokens by position and the seat to
move. A few players left over (fewer than two) get no match.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

#: Seats of the matches, in turn: 3 on average.
SEAT_COUNTS = (2, 3, 4)
OPTIONS = {"max_pip": 9}
#: Players registered, or matches started, in one transaction.
BATCH = 250


def seat_counts(players: int) -> list[int]:
    """The seats of each match, 2, 3 and 4 in turn, for ``players`` players (the last match
    made smaller to fit; one player left over sits nowhere)."""
    counts: list[int] = []
    left = players
    while left >= 2:
        seats = min(SEAT_COUNTS[len(counts) % len(SEAT_COUNTS)], left)
        if left - seats == 1:
            seats -= 1 if seats > 2 else 0
        counts.append(seats)
        left -= seats
    return counts


def seed(players: int, run_id: str) -> dict[str, Any]:
    from django.db import transaction
    from django.test import override_settings

    from games.accounts.players import player_register

    made = []
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    for first in range(0, players, BATCH):
        with transaction.atomic(), fast:  # one commit a batch, not one a player
            for index in range(first, min(players, first + BATCH)):
                name = f"s{run_id}p{index}"
                player, _, key, _ = player_register(
                    username=name, password=f"pw-{name}-long-enough"
                )
                made.append((player, key))
    tables = []
    for seats in seat_counts(players):
        start = sum(len(table) for table in tables)
        tables.append(made[start : start + seats])
    matches = []
    for first in range(0, len(tables), BATCH):
        with transaction.atomic():
            for table in tables[first : first + BATCH]:
                matches.append(_started(table))
    return {"tokens": [key for _, key in made], "matches": matches}


def _started(table: list[Any]) -> dict[str, Any]:
    """A started match of ``table``'s players (the first creates it), as the plan lists it."""
    from games.services.matches import SeatSpec, match_create, match_start, seat_join

    creator = table[0][0]
    specs = [SeatSpec(kind="creator")] + [SeatSpec(kind="open")] * (len(table) - 1)
    match = match_create(creator=creator, variant="chickenfoot", seats=specs, options=OPTIONS)
    for position, (player, _) in enumerate(table[1:], start=1):
        seat_join(match_id=match.pk, player=player, position=position)
    started = match_start(match_id=match.pk, player=creator)
    return {"id": match.pk, "tokens": [key for _, key in table], "turn": started.state["turn"]}


def main(argv: list[str]) -> int:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chickenfoot.settings")
    django.setup()
    players, out = int(argv[0]), Path(argv[1])
    out.write_text(json.dumps(seed(players, argv[2] if len(argv) > 2 else "x")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
