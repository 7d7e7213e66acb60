"""What every game's match state has in common: who plays, the options, the seed, where the
match stands, and its JSON form (docs/engine.md).

Each game's state class derives from ``MatchStateBase`` and adds its own ``__slots__``.
"""

from __future__ import annotations

from typing import Any

from .shuffle import commitment, round_seed

PLAYING = "playing"
OVER = "over"


class MatchStateBase:
    """The fields of a match that do not depend on the game."""

    __slots__ = (
        "commitments",
        "move_no",
        "options",
        "revealed_seeds",
        "round_no",
        "scores",
        "seats",
        "seed",
        "status",
        "turn",
        "variant",
    )

    def __init__(self, variant: str, seats: int, options: dict[str, Any], seed: str) -> None:
        self.variant = variant
        self.seats = seats
        self.options = options
        self.seed = seed
        self.status = PLAYING
        self.round_no = 0
        self.turn: int | None = None
        self.scores: list[list[int]] = []
        self.commitments: list[str] = []
        self.revealed_seeds: list[str] = []
        self.move_no = 0


def match_json(s: MatchStateBase) -> dict[str, Any]:
    """The common fields as JSON-ready data, in the order ``to_json`` documents."""
    return {
        "variant": s.variant,
        "seats": s.seats,
        "options": dict(s.options),
        "seed": s.seed,
        "status": s.status,
        "round_no": s.round_no,
        "turn": s.turn,
        "move_no": s.move_no,
        "scores": [list(r) for r in s.scores],
        "commitments": list(s.commitments),
        "revealed_seeds": list(s.revealed_seeds),
    }


def read_match_json(s: MatchStateBase, data: dict[str, Any]) -> None:
    """Set ``status``, ``round_no``, ``scores``, ``commitments`` and ``move_no`` from ``data``.

    Left out, a position is playing round 1 at move 0 with no scores, and its commitments are
    those of the round seeds of rounds 1 to ``round_no``. ``turn`` and ``revealed_seeds`` are
    each game's own (their defaults differ).
    """
    s.status = data.get("status", PLAYING)
    s.round_no = round_no = data.get("round_no", 1)
    s.scores = [list(r) for r in data.get("scores", [])]
    s.commitments = list(
        data.get("commitments")
        or [commitment(round_seed(s.seed, r)) for r in range(1, round_no + 1)]
    )
    s.move_no = data.get("move_no", 0)
