"""Mexican Train test helpers: hand-built positions and moves played through the facade.

Positions are built with ``from_json`` (see docs/engine.md): tiles mentioned nowhere are out of
the game, trains list their tiles oriented ``[touching, open]`` from the hub.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engine as E
from games.engine.errors import RuleViolation

MT = "mexican_train"
DRAW = {"kind": "draw"}
PASS = {"kind": "pass"}


def pos(hands: list[list[tuple[int, int]]], **kw: Any) -> Any:
    """A position from its hands; ``trains``, ``markers``, ``open_doubles``, ``boneyard``,
    ``turn`` and ``options`` (over ``max_pip`` 12) as keywords, any other key as is."""
    data: dict[str, Any] = {
        "variant": MT,
        "seats": len(hands),
        "seed": "test-seed",
        "options": {"max_pip": 12, **kw.pop("options", {})},
        "hands": [[list(t) for t in h] for h in hands],
        "boneyard": [list(t) for t in kw.pop("boneyard", [])],
        "layout": {
            "trains": kw.pop("trains", {}),
            "markers": kw.pop("markers", []),
            "open_doubles": kw.pop("open_doubles", []),
        },
        "turn": kw.pop("turn", 0),
    }
    data.update(kw)
    return E.from_json(data)


def play(tile: tuple[int, int], target: str) -> dict[str, Any]:
    return {"kind": "play", "tile": list(tile), "target": target}


def legal(state: Any) -> list[dict[str, Any]]:
    """The legal moves of the seat on turn, as JSON."""
    return [m.to_json() for m in E.legal_moves(state, state.turn)]


def act(state: Any, move: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply ``move`` for the seat on turn; return its events."""
    return E.apply_move(state, state.turn, move)[1]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def refused(state: Any, move: dict[str, Any], rule: str) -> None:
    """``move`` by the seat on turn breaks ``rule`` and leaves the state untouched."""
    before = E.to_json(state)
    with pytest.raises(RuleViolation) as info:
        E.apply_move(state, state.turn, move)
    assert info.value.rule == rule
    assert E.to_json(state) == before


def layout(state: Any) -> dict[str, Any]:
    """The public layout of the table (a spectator's view)."""
    return E.view(state, None)["layout"]


def play_out(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Play random legal moves to the end of the match; return every event."""
    events: list[dict[str, Any]] = []
    while state.status == "playing":
        seat = state.turn
        events += E.apply_move(state, seat, rng.choice(E.legal_moves(state, seat)))[1]
    return events
