"""How a bot chooses its move: always one of ``legal_moves()``, like any client.

Level 1 picks uniformly at random (from a seeded RNG, so a match replays). Level 2 plays the
tile that sheds the most pips. Level 3 does the same but lays doubles first. Drawing and passing
only ever happen when the engine offers nothing else, or when declining a drawn tile is the
only alternative to playing it (bots then play it).
"""

from __future__ import annotations

import random
from typing import Any

from games import engine


def choose_move(state: Any, seat: int, level: int, rng: random.Random) -> engine.Move:
    """The move a bot of ``level`` makes for ``seat`` now. ``state`` must be at ``seat``'s turn."""
    moves = engine.legal_moves(state, seat)
    if not moves:
        raise ValueError(f"Seat {seat} has no move: it is not their turn.")
    if level <= 1:
        return rng.choice(moves)
    plays = [m for m in moves if m.kind == engine.PLAY]
    if not plays:
        draws = [m for m in moves if m.kind == engine.DRAW]
        return draws[0] if draws else moves[0]

    def weight(move: engine.Move) -> tuple[int, int]:
        a, b = move.tile  # type: ignore[misc]
        double_first = 1 if level >= 3 and a == b else 0
        return (double_first, a + b)

    best = max(weight(m) for m in plays)
    return rng.choice([m for m in plays if weight(m) == best])
