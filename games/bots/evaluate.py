"""The value of every legal move from what one seat knows: the analysis' and the hints' measure.

``move_values`` asks the strong bot's search (``search.move_values``) for the value of every legal
move over a fixed number of deals of the unseen tiles sampled from the seat's view and public log
alone: every move on the same deals, the round played out by the bot's rollout. A move's value is
its mean outcome for the seat: its share of the round's win less ``search.POINT_WEIGHT`` per point
it still holds, about the chance of winning the round. Moves that lead to the same game share the
value.

This is the one place the analysis and the hints value moves, so they judge with the search the
level-4 bot plays by.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import engine
from games.engine import Move

from . import search


@dataclass(frozen=True)
class MoveValue:
    """One legal move and its value for the seat (higher is better)."""

    move: Move
    value: float


def move_values(
    view: dict[str, Any],
    log: Sequence[Sequence[dict[str, Any]]],
    rng: random.Random,
    *,
    deals: int,
) -> list[MoveValue]:
    """Every legal move of the seat of ``view`` (on turn) with its value over ``deals`` sampled
    deals, best first (ties in the view's order). Deterministic for a given ``rng``. A seat
    with one legal move gets it with the value 0.0 (nothing to compare)."""
    top = view["options"]["max_pip"]
    legal = [engine.parse_move(m, top) for m in view["legal_moves"]]
    if len(legal) == 1:
        return [MoveValue(legal[0], 0.0)]
    values = search.move_values(view, log, legal, rng, deals=deals)
    scored = [MoveValue(m, v) for m, v in zip(legal, values, strict=True)]
    order = sorted(range(len(scored)), key=lambda i: (-scored[i].value, i))
    return [scored[i] for i in order]
