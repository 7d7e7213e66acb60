"""The heuristic policies: level 1 (random), 2 (heaviest tile) and 3 (doubles first).

Each picks one move from a list of legal moves, so the same functions serve a bot deciding from
its view and the strong bot's rollouts over determinised engine states.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from games.engine import DRAW, PLAY, Move

Policy = Callable[[Sequence[Move], random.Random], Move]


def random_move(moves: Sequence[Move], rng: random.Random) -> Move:
    """Level 1: any legal move, uniformly."""
    return moves[int(rng.random() * len(moves))] if len(moves) > 1 else moves[0]


def _heaviest(moves: Sequence[Move], rng: random.Random, doubles_first: bool) -> Move:
    if len(moves) == 1:
        return moves[0]
    best: list[Move] = []
    top = -1
    for move in moves:
        if move[0] != PLAY:
            continue
        a, b = move[1]  # type: ignore[misc]
        weight = a + b + (100 if doubles_first and a == b else 0)
        if weight > top:
            top, best = weight, [move]
        elif weight == top:
            best.append(move)
    if not best:  # no play offered: draw if the engine offers it, else pass
        for move in moves:
            if move[0] == DRAW:
                return move
        return moves[0]
    return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]


def heaviest(moves: Sequence[Move], rng: random.Random) -> Move:
    """Level 2: the play shedding the most pips (ties at random); a drawn tile is played."""
    return _heaviest(moves, rng, doubles_first=False)


def doubles_first(moves: Sequence[Move], rng: random.Random) -> Move:
    """Level 3: as level 2, but any double before any other tile."""
    return _heaviest(moves, rng, doubles_first=True)


HEURISTICS: dict[int, Policy] = {1: random_move, 2: heaviest, 3: doubles_first}
