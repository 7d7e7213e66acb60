"""One move's analysis: every legal move valued from what the seat knew, the move played marked."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from games.bots import evaluate
from games.engine import Move

from .marks import BEST, mark
from .walk import Step


def move_seed(match_seed: str, seq: int, salt: str = "analysis") -> random.Random:
    """The random stream of one move's valuation: from the match's seed and the move, so an
    analysis is reproduced exactly."""
    digest = hashlib.sha256(f"{salt}:{match_seed}:{seq}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def move_json(move: Move) -> dict[str, Any]:
    """A move as the API shows it: ``kind``, and ``tile`` and ``target`` (null unless played)."""
    tile = [move.tile[0], move.tile[1]] if move.tile is not None else None
    return {"kind": move.kind, "tile": tile, "target": move.target}


def _same(a: Move, b: Move) -> bool:
    if a.kind != b.kind:
        return False
    if a.tile is None or b.tile is None:
        return a.tile is None and b.tile is None
    return sorted(a.tile) == sorted(b.tile) and a.target == b.target


def analyse_step(*, step: Step, match_seed: str, deals: int) -> dict[str, Any]:
    """The analysis of ``step``'s move, from its seat's view and log alone (``Step.seat_info``)."""
    info = step.seat_info()
    row = step.move
    played = Move(row.kind, tuple(row.tile) if row.tile else None, row.target or None)  # type: ignore[arg-type]
    values = evaluate.move_values(info.view, info.log, move_seed(match_seed, row.seq), deals=deals)
    forced = len(values) == 1
    best = values[0]
    mine = next((v for v in values if _same(v.move, played)), best)
    loss = 0.0 if forced else max(0.0, best.value - mine.value)
    return {
        "seq": row.seq,
        "round": info.view["round"],
        "seat": row.seat,
        "move": move_json(played),
        "forced": forced,
        "value": round(mine.value, 4),
        "best": move_json(best.move),
        "best_value": round(best.value, 4),
        "loss": round(loss, 4),
        "mark": BEST if forced else mark(loss),
        "options": [{"move": move_json(v.move), "value": round(v.value, 4)} for v in values],
    }
