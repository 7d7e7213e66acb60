"""The rules of Chicken Foot and Mexican Train, as pure functions over plain data.

No Django, no I/O: importable and testable alone. The facade below is all the rest of the
project uses; see docs/engine.md.
"""

from __future__ import annotations

import importlib
from typing import Any

from games.engine.text import N_

from .errors import (
    EngineError,
    MalformedMove,
    NotYourTurn,
    OptionError,
    RoundOver,
    RuleViolation,
)
from .moves import DRAW, PASS, PLAY, Move, move_error, parse_move
from .options import CHICKENFOOT, MEXICAN_TRAIN, VARIANTS, resolve_options
from .scoring import final_order, match_totals, round_scores
from .shuffle import commitment, new_match_seed, round_seed
from .tiles import Tile
from .variant import GameModule

__all__ = [
    "CHICKENFOOT",
    "DRAW",
    "MEXICAN_TRAIN",
    "PASS",
    "PLAY",
    "VARIANTS",
    "EngineError",
    "MalformedMove",
    "Move",
    "NotYourTurn",
    "OptionError",
    "RoundOver",
    "RuleViolation",
    "Tile",
    "apply_move",
    "commitment",
    "final_order",
    "from_json",
    "game_module",
    "legal_moves",
    "match_totals",
    "move_error",
    "new_match",
    "opening_events",
    "parse_move",
    "redact_event",
    "resolve_options",
    "round_scores",
    "round_seed",
    "standings",
    "to_json",
    "view",
]

_MODULES = {CHICKENFOOT: ".chickenfoot", MEXICAN_TRAIN: ".mexican_train"}
#: Game modules already imported, by variant (the facade is on every move's path).
_LOADED: dict[str, GameModule] = {}
#: The two hot-path functions of each loaded module, by variant (one dict lookup per call).
_LEGAL: dict[str, Any] = {}
_APPLY: dict[str, Any] = {}


def game_module(variant: str) -> GameModule:
    """The module that holds ``variant``'s rules."""
    module = _LOADED.get(variant)
    if module is not None:
        return module
    if variant not in _MODULES:
        raise OptionError(
            N_(
                "Unknown game %(variant)r; choose one of %(variants)s.",
                variant=variant,
                variants=", ".join(VARIANTS),
            )
        )
    module = importlib.import_module(_MODULES[variant], __name__)  # type: ignore[assignment]
    _LEGAL[variant] = module.legal_moves  # type: ignore[union-attr]
    _APPLY[variant] = module.apply_move  # type: ignore[union-attr]
    _LOADED[variant] = module  # type: ignore[assignment]
    return module  # type: ignore[return-value]


def new_match(
    variant: str, seats: int, options: dict[str, Any] | None = None, seed: str | None = None
) -> Any:
    """A new match, its first round dealt. Options are validated (``OptionError``) and completed."""
    resolved = resolve_options(variant, seats, options)
    return game_module(variant).new_match(seats, resolved, seed or new_match_seed())


def legal_moves(state: Any, seat: int) -> list[Move]:
    """Every legal move for ``seat`` now (empty when it is not that seat's turn)."""
    legal = _LEGAL.get(state.variant)
    if legal is None:
        legal = game_module(state.variant).legal_moves
    return legal(state, seat)


def apply_move(
    state: Any, seat: int, move: Move | dict[str, Any]
) -> tuple[Any, list[dict[str, Any]]]:
    """Apply ``move`` for ``seat``; return the state and the events it caused.

    The state is updated in place (nothing is copied); an illegal move raises ``RuleViolation``
    (or ``NotYourTurn``/``MalformedMove``) before anything changes.
    """
    if move.__class__ is not Move:
        move = parse_move(move, state.options["max_pip"])
    apply = _APPLY.get(state.variant)
    if apply is None:
        apply = game_module(state.variant).apply_move
    return state, apply(state, seat, move)


def view(state: Any, seat: int | None = None) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (C-HIDDEN); ``None`` gives the spectator's view."""
    return game_module(state.variant).view(state, seat)


def opening_events(state: Any) -> list[dict[str, Any]]:
    """The events of the current round's automatic start, as emitted (a copy).

    ``round_started`` first, the start double or engine placed last. ``new_match`` returns the
    state only, so this is where round 1's opening is; redact each event with ``redact_event``
    before showing it to a seat.
    """
    return game_module(state.variant).opening_events(state)


def redact_event(state_or_variant: Any, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An event as ``seat`` may see it while the round runs.

    A drawn tile is shown only to its drawer, unless the event is marked ``open`` (Mexican Train
    with ``open_hands``, where it joins a face-up hand).
    """
    variant = state_or_variant if isinstance(state_or_variant, str) else state_or_variant.variant
    return game_module(variant).redact_event(event, seat)


def to_json(state: Any) -> dict[str, Any]:
    """The whole state as JSON-ready data (secret parts included: store it server-side only)."""
    return game_module(state.variant).to_json(state)


def from_json(data: dict[str, Any], *, trusted: bool = False) -> Any:
    """A state from ``to_json`` output, or a hand-built position (see docs/engine.md).

    ``trusted``: ``to_json`` output the server stored itself, read without the checks that only
    find a position inconsistent (the replay check compares what was stored with a replay).
    """
    return game_module(data["variant"]).from_json(data, trusted=trusted)


def standings(state: Any) -> list[dict[str, Any]]:
    """The order by C-WIN over the rounds finished so far, with each place's tie-break trail."""
    return final_order(state.scores)
