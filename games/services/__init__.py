"""Writes: every change to players, matches and moves goes through these functions.

Each is keyword-only, runs in one transaction, and raises a ``ProblemError`` (or an engine
error) to refuse, having written nothing. Views and tasks call them alike.
"""

from __future__ import annotations

from games.accounts.players import bot_player, player_for_user, player_register, token_obtain
from games.services.leaving import match_abandon, seat_resign
from games.services.matches import SeatSpec, match_create, match_start, seat_join
from games.services.moves import MoveOutcome, bot_turn_play, move_submit

__all__ = [
    "MoveOutcome",
    "SeatSpec",
    "bot_player",
    "bot_turn_play",
    "match_abandon",
    "match_create",
    "match_start",
    "move_submit",
    "player_for_user",
    "player_register",
    "seat_join",
    "seat_resign",
    "token_obtain",
]
