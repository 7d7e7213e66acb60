"""Chicken Foot test helpers: hand-built positions and moves played through the facade.

Positions are built with ``from_json`` (see docs/engine.md): tiles mentioned nowhere are out of
the game; chains list their tiles oriented ``[touching, outer]`` from the centre or the foot.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import engine as E
from games.engine.errors import RuleViolation

CF = "chickenfoot"
DRAW = {"kind": "draw"}
PASS = {"kind": "pass"}
#: Every arm of a 9|9 centre has its first tile: open ends 1, 2, 3, 4.
ARMS = {"arm:0": [[9, 1]], "arm:1": [[9, 2]], "arm:2": [[9, 3]], "arm:3": [[9, 4]]}


def pos(hands: list[list[list[int]]], **kw: Any) -> Any:
    """A position from its hands; ``start_double`` (9), ``chains``, ``feet``, ``options``,
    ``boneyard`` and ``turn`` as keywords, any other key (``seed``...) as is."""
    layout = {
        "start_double": kw.pop("start_double", 9),
        "chains": kw.pop("chains", {}),
        "feet": kw.pop("feet", []),
    }
    data: dict[str, Any] = {
        "variant": CF,
        "seats": len(hands),
        "seed": "test-seed",
        "options": kw.pop("options", {}),
        "hands": hands,
        "boneyard": kw.pop("boneyard", []),
        "layout": layout,
        "turn": kw.pop("turn", 0),
        **kw,
    }
    return E.from_json(data)


def play(tile: list[int], target: str) -> dict[str, Any]:
    return {"kind": "play", "tile": tile, "target": target}


def moves(s: Any, seat: int | None = None) -> list[dict[str, Any]]:
    """The legal moves of ``seat`` (default: the seat on turn), as JSON."""
    return [m.to_json() for m in E.legal_moves(s, s.turn if seat is None else seat)]


def refused(s: Any, seat: int, move: dict[str, Any], rule: str) -> RuleViolation:
    """``move`` by ``seat`` breaks ``rule``, says why, and leaves the state untouched."""
    before = E.to_json(s)
    with pytest.raises(RuleViolation) as info:
        E.apply_move(s, seat, move)
    assert info.value.rule == rule, info.value.detail
    assert info.value.detail
    assert E.to_json(s) == before
    return info.value


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
