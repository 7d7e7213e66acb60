"""Drawing one domino: a face of pips (dots up to 9, numerals above), lying along or across."""

from __future__ import annotations

import drawsvg as draw

from chickenfoot.fonts import FAMILY

#: Half a tile's long side, in SVG units: a tile is 2U x U.
U = 22
INK = "#1d2330"
FACE = "#fffdf6"
EDGE = "#4a4f5c"

#: Where the dots of 0 to 9 sit on a 3 x 3 grid (column, row), each 0..2.
_DOTS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
    7: ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
}


def tile_key(a: int, b: int) -> str:
    """A tile's name in the picture's ``data-tile`` attributes: the low end first (``3-5``)."""
    return f"{min(a, b)}-{max(a, b)}"


def _numeral(value: int, x: float, y: float, size: float, **attrs: str) -> draw.Text:
    """``value`` written in the middle of the U x U square whose top left is (x, y)."""
    return draw.Text(
        str(value),
        size,
        x + U / 2,
        y + U / 2,
        text_anchor="middle",
        dominant_baseline="central",
        font_family=FAMILY,
        **attrs,
    )


def _face(group: draw.Group, value: int, x: float, y: float) -> None:
    """The pips of one half, in the U x U square whose top left is (x, y)."""
    if value > 9:
        group.append(_numeral(value, x, y, U * 0.55, font_weight="bold", fill=INK))
        return
    step = U / 4
    for col, row in _DOTS[value]:
        group.append(draw.Circle(x + step * (col + 1), y + step * (row + 1), U * 0.08, fill=INK))


def tile(
    a: int,
    b: int,
    x: float,
    y: float,
    *,
    across: bool = False,
    role: str,
    chain: str | None = None,
    stroke: str = EDGE,
) -> draw.Group:
    """The tile ``a|b`` with its top left at (x, y): ``a`` first (left, or top when ``across``).

    Lying along its chain it is 2U wide and U high; ``across`` (a double laid crosswise) it is U
    wide and 2U high. ``role`` and ``chain`` become ``data-`` attributes, so the picture can be
    read back: ``data-tile`` is :func:`tile_key`.
    """
    attrs: dict[str, str] = {"class_": "tile", "data_tile": tile_key(a, b), "data_role": role}
    if chain is not None:
        attrs["data_chain"] = chain
    group = draw.Group(**attrs)
    width, height = (U, 2 * U) if across else (2 * U, U)
    group.append(
        draw.Rectangle(x, y, width, height, rx=U * 0.18, fill=FACE, stroke=stroke, stroke_width=1.5)
    )
    if across:
        group.append(draw.Line(x + 3, y + U, x + U - 3, y + U, stroke=EDGE, stroke_width=1))
        _face(group, a, x, y)
        _face(group, b, x, y + U)
    else:
        group.append(draw.Line(x + U, y + 3, x + U, y + U - 3, stroke=EDGE, stroke_width=1))
        _face(group, a, x, y)
        _face(group, b, x + U, y)
    return group


def open_end(pip: int | None, x: float, y: float, *, target: str, live: bool) -> draw.Group:
    """A dashed slot at a chain's open end, showing the number it needs.

    ``live`` slots accept a tile now (the engine's open ends); the others wait their turn.
    """
    group = draw.Group(class_="open-end", data_target=target, data_live="1" if live else "0")
    group.append(
        draw.Rectangle(
            x,
            y,
            U,
            U,
            rx=U * 0.18,
            fill="#e8f4ea" if live else "none",
            stroke="#2f8f46" if live else "#9aa0ab",
            stroke_width=1.2,
            stroke_dasharray="3 2",
        )
    )
    if pip is not None:
        group.append(_numeral(pip, x, y, U * 0.5, fill="#2f8f46" if live else "#6b7280"))
    return group
