"""Chicken Foot (docs/rules.md §2): the game module the engine facade dispatches to.

``new_match`` deals round 1 and places its start double; ``legal_moves`` lists every legal move
with its exact target (``arm:<i>`` or ``foot:<k>:toe:<j>``); ``apply_move`` validates, then
updates the state in place and returns the events. See docs/engine.md.
"""

from __future__ import annotations

from .rounds import new_match
from .rules import apply_move, legal_moves
from .state import ChickenFootState, from_json, to_json
from .view import opening_events, redact_event, view

__all__ = [
    "ChickenFootState",
    "apply_move",
    "from_json",
    "legal_moves",
    "new_match",
    "opening_events",
    "redact_event",
    "to_json",
    "view",
]
