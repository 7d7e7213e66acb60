"""Writes of the scoring app: round rows as rounds end, a match's results and ratings after it.

``games`` calls these with plain data (ids, numbers); scoring never imports ``games``.
"""

from __future__ import annotations

from scoring.services.claims import player_results_move
from scoring.services.finalise import (
    FinaliseOutcome,
    finalisation_failed,
    match_finalise,
    match_finished,
)
from scoring.services.rounds import round_results_record

__all__ = [
    "FinaliseOutcome",
    "finalisation_failed",
    "match_finalise",
    "match_finished",
    "player_results_move",
    "round_results_record",
]
