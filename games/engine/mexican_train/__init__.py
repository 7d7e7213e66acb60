"""Mexican Train (docs/rules.md §3): the game module behind the engine facade.

Train ids: ``"seat:0"`` … ``"seat:<n-1>"`` (personal trains, 0-based seats) and ``"mexican"``.
"""

from __future__ import annotations

from .rules import apply_move, legal_moves
from .serial import from_json, to_json
from .state import MTState, new_match
from .view import opening_events, redact_event, view

__all__ = [
    "MTState",
    "apply_move",
    "from_json",
    "legal_moves",
    "new_match",
    "opening_events",
    "redact_event",
    "to_json",
    "view",
]
