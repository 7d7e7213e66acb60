"""Reads of the scoring app: each a query the database answers (aggregates, never a Python loop
over matches), the same ORM code on PostgreSQL and SQLite. docs/scoring.md lists them with the
index each one uses and its measured time."""

from __future__ import annotations

from scoring.selectors.head_to_head import head_to_head
from scoring.selectors.history import history_rows, player_exists, player_history, player_names
from scoring.selectors.leaderboard import leaderboard, leaderboard_position, leaderboard_rank
from scoring.selectors.rating_changes import (
    player_rating_changes,
    rating_change_figures,
    rating_change_rows,
    rating_changes_of_matches,
)
from scoring.selectors.stats import player_statistics, rating_series

__all__ = [
    "head_to_head",
    "history_rows",
    "leaderboard",
    "leaderboard_position",
    "leaderboard_rank",
    "player_exists",
    "player_history",
    "player_names",
    "player_rating_changes",
    "player_statistics",
    "rating_change_figures",
    "rating_change_rows",
    "rating_changes_of_matches",
    "rating_series",
]
