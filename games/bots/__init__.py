"""How a bot chooses its move: from what its seat may know, never from the engine state.

A bot is given a ``SeatInfo``: the seat's view (``engine.view(state, seat)``, which lists the
seat's ``legal_moves``) and the public move log as that seat sees it (each move's events,
redacted for the seat). Every choice is one of the view's legal moves.

- Level 1 (``random``) picks uniformly at random (from a seeded RNG, so a match replays).
- Level 2 (``greedy``) plays the tile that sheds the most pips.
- Level 3 (``doubles``) does the same but lays doubles first.
- Level 4 (``strong``) searches: perfect-information Monte Carlo over deals of the unseen tiles
  consistent with the log (``games.bots.search``), within a per-move time budget.

Drawing and passing only ever happen when the engine offers nothing else, or when declining a
drawn tile is the alternative to playing it (levels 1-3 then play it; level 4 weighs both).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games import engine

from .policies import HEURISTICS
from .search import strong_move

#: Bot levels and their names.
LEVELS: dict[int, str] = {1: "random", 2: "greedy", 3: "doubles", 4: "strong"}
STRONG = 4
#: The strong bot's default time budget per move, in milliseconds.
DEFAULT_BUDGET_MS = 100


@dataclass(frozen=True)
class SeatInfo:
    """What a seat may know: its view and the public move log (each move's events, redacted
    for the seat; a round's opening may be one entry of its own). Never the engine state."""

    view: dict[str, Any]
    log: Sequence[Sequence[dict[str, Any]]] = field(default_factory=list)


def seat_info(state: Any, seat: int, log: Sequence[Sequence[dict[str, Any]]] = ()) -> SeatInfo:
    """``seat``'s information set: its view of ``state`` and ``log`` (unredacted move events
    of the round in play, opening first) redacted for it, as the move API shows them."""
    redact = engine.redact_event
    return SeatInfo(
        view=engine.view(state, seat),
        log=[[redact(state.variant, e, seat) for e in events] for events in log],
    )


def choose_move(
    info: SeatInfo,
    level: int,
    rng: random.Random,
    *,
    budget_ms: float = DEFAULT_BUDGET_MS,
    deals: int | None = None,
) -> engine.Move:
    """The move a bot of ``level`` makes from ``info`` (its seat must be on turn).

    ``budget_ms`` and ``deals`` bound the strong bot's search (see ``search.strong_move``).
    """
    view = info.view
    if not view.get("legal_moves"):
        raise ValueError(f"Seat {view.get('seat')} has no move: it is not their turn.")
    if level >= STRONG:
        return strong_move(view, info.log, rng, budget_ms=budget_ms, deals=deals)
    top = view["options"]["max_pip"]
    moves = [engine.parse_move(m, top) for m in view["legal_moves"]]
    return HEURISTICS[max(level, 1)](moves, rng)
