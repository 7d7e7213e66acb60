"""What each game module provides, so the facade can dispatch on ``state.variant``.

A game module (``chickenfoot``, ``mexican_train``) exposes these functions over its own state
class. The state carries at least ``variant``, ``seats``, ``options`` (resolved), ``status``
(``"playing"`` or ``"over"``), ``round_no`` (1-based), ``turn`` (the seat to act, ``None`` when
the match is over) and ``scores`` (``scores[round][seat]`` for every finished round).
"""

from __future__ import annotations

from typing import Any, Protocol

from .moves import Move


class GameState(Protocol):
    variant: str
    seats: int
    options: dict[str, Any]
    status: str
    round_no: int
    turn: int | None
    scores: list[list[int]]


class GameModule(Protocol):
    def new_match(self, seats: int, options: dict[str, Any], seed: str) -> Any: ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...

    def apply_move(self, state: Any, seat: int, move: Move) -> list[dict[str, Any]]: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def redact_event(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]: ...

    def opening_events(self, state: Any) -> list[dict[str, Any]]: ...

    def to_json(self, state: Any) -> dict[str, Any]: ...

    def from_json(self, data: dict[str, Any]) -> Any: ...
