"""The value of every legal move from what one seat knows: the analysis' and the hints' measure.

``move_values`` samples deals of the unseen tiles consistent with the seat's view and public log
(``Knowledge.sample``), applies each legal move to each deal and plays the round out with the
strong bot's rollout (``search.play_out``: the same random stream for every move of a deal, so
their differences are measured on the same deals). A move's value is its mean outcome for the
seat: its share of the round's win less ``search.POINT_WEIGHT`` per point it still holds, about
the chance of winning the round. Moves that lead to the same game (``search.candidates``: one
tile on two ends that need the same number) are played out once and share the value.

This is the one place the analysis and the hints value moves: a stronger search plugs in here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import engine
from games.engine import PLAY, Move

from .knowledge import Knowledge
from .position import position, table_from_view
from .search import candidates, play_out


@dataclass(frozen=True)
class MoveValue:
    """One legal move and its value for the seat (higher is better)."""

    move: Move
    value: float


def _key(view: dict[str, Any], move: Move) -> tuple[Any, Any]:
    """Moves with one key lead to the same game (``search.candidates``)."""
    if move.kind != PLAY or view["variant"] != engine.CHICKENFOOT:
        return (move.kind, move.tile, move.target)
    needs = {end["target"]: end["pip"] for end in view["layout"]["open_ends"]}
    return (move.tile, needs.get(move.target))


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
    seat = view["seat"]
    top = view["options"]["max_pip"]
    legal = [engine.parse_move(m, top) for m in view["legal_moves"]]
    if len(legal) == 1:
        return [MoveValue(legal[0], 0.0)]
    distinct = candidates(view, legal)
    totals = [0.0] * len(distinct)
    knowledge = Knowledge(view, log)
    table = table_from_view(view)
    from_json, apply_move = engine.from_json, engine.apply_move
    for _ in range(deals):
        hands, boneyard = knowledge.sample(rng)
        deal = position(table, hands, boneyard)
        stream = rng.getrandbits(64)
        for i, move in enumerate(distinct):
            state = from_json(deal)
            apply_move(state, seat, move)
            totals[i] += play_out(state, seat, random.Random(stream))
    value_of = {_key(view, m): totals[i] / deals for i, m in enumerate(distinct)}
    scored = [MoveValue(m, value_of[_key(view, m)]) for m in legal]
    order = sorted(range(len(scored)), key=lambda i: (-scored[i].value, i))
    return [scored[i] for i in order]
