"""Tiles and sets (C-SET, C-PIPS).

A tile is a tuple ``(a, b)`` with ``a <= b``; JSON carries it as ``[a, b]``.
"""

from __future__ import annotations

from typing import Any

from games.engine.text import N_

from .errors import MalformedMove

Tile = tuple[int, int]

#: Supported set sizes (C-SET): the highest pip of a double-N set.
SUPPORTED_MAX_PIPS: tuple[int, ...] = (6, 9, 12, 15, 18)


def set_size(max_pip: int) -> int:
    """Number of tiles in a double-``max_pip`` set: (N+1)(N+2)/2."""
    return (max_pip + 1) * (max_pip + 2) // 2


def full_set(max_pip: int) -> list[Tile]:
    """Every tile of a double-``max_pip`` set, in canonical order (a ascending, then b)."""
    return [(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]


def tile(a: int, b: int) -> Tile:
    """The normalised tile with ends ``a`` and ``b`` (either order)."""
    return (a, b) if a <= b else (b, a)


def pips(t: Tile, double_blank_points: int = 50) -> int:
    """What a tile left in hand scores against its holder (C-PIPS)."""
    a, b = t
    if a == 0 and b == 0:
        return double_blank_points
    return a + b


def hand_points(hand: list[Tile] | tuple[Tile, ...], double_blank_points: int = 50) -> int:
    """Sum of C-PIPS over a hand."""
    total = 0
    for a, b in hand:
        total += double_blank_points if (a == 0 and b == 0) else a + b
    return total


def parse_tile(value: Any, max_pip: int | None = None) -> Tile:
    """Read a tile from JSON (``[a, b]``, either order); ``MalformedMove`` if it is not one."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise MalformedMove(
            N_("A tile is a pair of integers like [3, 5]; got %(value)r.", value=value),
            field="tile",
        )
    a, b = value
    top = max_pip if max_pip is not None else max(SUPPORTED_MAX_PIPS)
    if not (0 <= a <= top and 0 <= b <= top):
        raise MalformedMove(
            N_("Tile %(value)s is not in a double-%(top)s set.", value=list(value), top=top),
            rule="C-SET",
            field="tile",
        )
    return tile(a, b)


def tile_json(t: Tile) -> list[int]:
    """A tile as JSON."""
    return [t[0], t[1]]
