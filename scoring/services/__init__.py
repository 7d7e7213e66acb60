"""Writes of the scoring app: round rows as rounds end, a match's results and ratings after it.

``games`` calls these with plain data (ids, numbers); scoring never imports ``games``.
"""

from __future__ import annotations

from scoring.services.claims import (
    entries_lock,
    has_entries,
    player_results_move,
    shared_competitions,
)
from scoring.services.finalise import (
    FinaliseOutcome,
    finalisation_failed,
    match_finalise,
    match_finished,
)
from scoring.services.recompute import (
    RecomputeOutcome,
    match_corrected,
    match_recompute,
    recompute_pending,
)
from scoring.services.rounds import round_results_record, round_results_replace

__all__ = [
    "FinaliseOutcome",
    "RecomputeOutcome",
    "entries_lock",
    "finalisation_failed",
    "has_entries",
    "match_corrected",
    "match_finalise",
    "match_finished",
    "match_recompute",
    "player_results_move",
    "recompute_pending",
    "round_results_record",
    "round_results_replace",
    "shared_competitions",
]
