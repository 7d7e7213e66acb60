"""The table as a picture: an SVG drawn from one seat's view, never from the engine's state.

Everything drawn comes from ``engine.view(state, seat)`` (C-HIDDEN: the view holds the seat's
own hand and nothing of the others' or of the boneyard but their sizes) and, for a finished
round, the hands its ``round_ended`` event revealed. So no picture can show a tile its viewer
may not see.

Layout: every chain (a Chicken Foot arm or toe, a Mexican Train train) is a row of its own, so
rows never overlap however long they grow; a chicken foot's double stands crosswise at the end
of the chain it was played on and its three toes are the rows below it, starting at the double.
Each tile is a ``<g class="tile">`` with ``data-tile`` (``3-5``), ``data-role`` (``centre``,
``layout``, ``hand``, ``revealed``) and, on the table, ``data-chain``; tests read them back.
Names are text only, escaped as they are written (``chickenfoot.svg``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import drawsvg as draw
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from chickenfoot import svg
from games.pictures.tiles import INK, U, open_end, tile

MARGIN = 16
GAP = 4
ROW_H = 2 * U + 18  # a row holds a crosswise double and its label
LABEL = 11
MUTED = "#6b7280"
ACCENT = "#c2410c"
HAND_WIDTH = 720
VARIANT_NAMES = {
    "chickenfoot": gettext_lazy("Chicken Foot"),
    "mexican_train": gettext_lazy("Mexican Train"),
}


@dataclass
class _Canvas:
    """What is drawn so far and how far it reaches (the drawing is sized at the end)."""

    items: list[Any] = field(default_factory=list)
    width: float = 0
    height: float = 0

    def add(self, item: Any, right: float, bottom: float) -> None:
        self.items.append(item)
        self.width = max(self.width, right)
        self.height = max(self.height, bottom)


def _text(canvas: _Canvas, text: str, x: float, y: float, size: float = 13, **attrs: Any) -> None:
    attrs.setdefault("fill", INK)
    canvas.add(
        svg.text(text, size, x, y, **attrs),
        x + len(text) * size * 0.6,
        y + size * 0.4,
    )


def _chain_tiles(
    canvas: _Canvas, tiles: Sequence[Sequence[int]], x: float, y: float, chain: str
) -> float:
    """Draw a chain's tiles from (x, row top y); a double stands across. Returns the end x."""
    mid = y + U  # the row's centre line
    for a, b in tiles:
        if a == b:
            canvas.add(
                tile(a, b, x, mid - U, across=True, role="layout", chain=chain), x + U, mid + U
            )
            x += U + GAP
        else:
            canvas.add(tile(a, b, x, mid - U / 2, role="layout", chain=chain), x + 2 * U, mid + U)
            x += 2 * U + GAP
    return x


def _connector(canvas: _Canvas, x1: float, y1: float, x2: float, y2: float) -> None:
    path = draw.Path(stroke="#b6bcc8", stroke_width=1.5, fill="none", class_="link")
    path.M(x1, y1).L(x1 + (x2 - x1) / 2, y1).L(x1 + (x2 - x1) / 2, y2).L(x2, y2)
    canvas.add(path, max(x1, x2), max(y1, y2))


def _header(canvas: _Canvas, view: dict[str, Any], names: Sequence[str], caption: str) -> float:
    """Title, whose turn, every seat's hand count and total, the boneyard. Returns the next y."""
    variant = VARIANT_NAMES.get(view["variant"], view["variant"])
    title = _("%(variant)s · round %(round)s of %(rounds)s") % {
        "variant": variant,
        "round": view["round"],
        "rounds": view["rounds"],
    }
    _text(canvas, title, MARGIN, MARGIN + 14, 16, font_weight="bold")
    status = caption
    if not status:
        if view["status"] == "over":
            status = _("Match over")
        elif view.get("turn") is not None:
            status = _("%(name)s to play") % {"name": names[view["turn"]]}
    y = MARGIN + 34
    if status:
        _text(canvas, status, MARGIN, y, 13, fill=ACCENT, class_="status")
        y += 20
    totals = view.get("totals") or [0] * view["seats"]
    markers = set(view.get("layout", {}).get("markers", []))
    for seat in range(view["seats"]):
        count = view["hand_counts"][seat]
        line = ngettext(
            "%(name)s: %(count)s tile, %(points)s points",
            "%(name)s: %(count)s tiles, %(points)s points",
            count,
        ) % {"name": names[seat], "count": count, "points": totals[seat]}
        if seat in markers:
            line = _("%(line)s · marker up") % {"line": line}
        if seat == view.get("seat"):
            line = _("%(line)s (you)") % {"line": line}
        to_play = seat == view.get("turn")
        if to_play:  # a triangle, drawn: no face the pictures are set in has ▶
            canvas.add(
                draw.Lines(
                    MARGIN, y - 9, MARGIN + 8, y - 4.5, MARGIN, y, close=True, fill=INK,
                    class_="turn-marker",
                ),
                MARGIN + 8,
                y,
            )  # fmt: skip
        _text(
            canvas,
            line,
            MARGIN + 12,
            y,
            12,
            font_weight="bold" if to_play else "normal",
            class_="seat",
            data_seat=str(seat),
        )
        y += 17
    _text(
        canvas,
        ngettext("Boneyard: %(count)s tile", "Boneyard: %(count)s tiles", view["boneyard"])
        % {"count": view["boneyard"]},
        MARGIN,
        y,
        12,
        fill=MUTED,
        class_="boneyard",
    )
    return y + 22


def _chickenfoot(canvas: _Canvas, view: dict[str, Any], top: float) -> float:
    """The centre double, its arms, and every foot below the chain it stands on."""
    layout = view["layout"]
    chains = {c["id"]: c for c in layout["arms"]}
    for foot in layout["feet"]:
        chains.update({toe["id"]: toe for toe in foot["toes"]})
    feet_on = {foot["on"]: foot for foot in layout["feet"]}
    live = {end["target"] for end in layout["open_ends"]}
    centre_x = MARGIN
    start_x = centre_x + U + 5 * GAP
    row = 0

    def draw_row(chain_id: str, x: float, label: str) -> float:
        """Draw a chain and, below it, any foot at its end. Returns the y of its centre line."""
        nonlocal row
        y = top + row * ROW_H
        row += 1
        _text(canvas, label, x, y + 2, LABEL - 1, fill=MUTED, class_="chain-label")
        chain = chains[chain_id]
        end_x = _chain_tiles(canvas, chain["tiles"], x, y + 4, chain_id)
        if chain["open"] is not None:
            canvas.add(
                open_end(
                    chain["open"], end_x, y + 4 + U / 2, target=chain_id, live=chain_id in live
                ),
                end_x + U,
                y + 4 + 2 * U,
            )
        foot = feet_on.get(chain_id)
        if foot is not None:
            double_right = end_x - GAP
            for index, toe in enumerate(foot["toes"]):
                label = _("foot %(foot)s, toe %(toe)s") % {
                    "foot": int(foot["id"].split(":")[1]) + 1,
                    "toe": index + 1,
                }
                toe_y = draw_row(toe["id"], end_x + 3 * GAP, label)
                _connector(canvas, double_right, y + 4 + U, end_x + 3 * GAP, toe_y)
        return y + 4 + U

    arm_lines = [
        draw_row(arm["id"], start_x, _("arm %(arm)s") % {"arm": index + 1})
        for index, arm in enumerate(layout["arms"])
    ]
    first, last = arm_lines[0], arm_lines[-1]
    centre_y = (first + last) / 2
    d = layout["start_double"][0]
    canvas.add(
        tile(d, d, centre_x, centre_y - U, across=True, role="centre", chain="centre"),
        centre_x + U,
        centre_y + U,
    )
    for line_y in arm_lines:
        _connector(canvas, centre_x + U, centre_y, start_x, line_y)
    return top + row * ROW_H


def _mexican_train(
    canvas: _Canvas, view: dict[str, Any], names: Sequence[str], top: float
) -> float:
    """The engine in the hub, then one row per train: its marker and owner written above the
    row (so no name, however long, reaches the engine), its tiles, its open end."""
    layout = view["layout"]
    hub_x = MARGIN
    start_x = hub_x + U + 5 * GAP
    lines = []
    live_targets = {m.get("target") for m in view.get("legal_moves", [])}
    for index, train in enumerate(layout["trains"]):
        y = top + index * ROW_H
        owner = train["owner"]
        label = (
            _("Mexican Train") if owner is None else _("%(name)s's train") % {"name": names[owner]}
        )
        label_x = start_x
        if train.get("marker"):
            canvas.add(
                draw.Circle(
                    start_x + 5, y - 4, 5, fill=ACCENT, class_="marker", data_train=train["id"]
                ),
                start_x + 10,
                y + 1,
            )
            label_x += 14
        _text(canvas, label, label_x, y, LABEL, class_="train-label", data_train=train["id"])
        end_x = _chain_tiles(canvas, train["tiles"], start_x, y + 4, train["id"])
        if train["open_double"]:
            # The open double is the train's last tile: ring it.
            canvas.add(
                draw.Rectangle(
                    end_x - U - GAP - 3,
                    y + 2,
                    U + 6,
                    2 * U + 4,
                    rx=5,
                    fill="none",
                    stroke=ACCENT,
                    stroke_width=2,
                    class_="open-double",
                    data_train=train["id"],
                ),
                end_x,
                y + 2 * U + 6,
            )
        canvas.add(
            open_end(
                train["open_end"],
                end_x,
                y + 4 + U / 2,
                target=train["id"],
                live=train["id"] in live_targets,
            ),
            end_x + U,
            y + 4 + 2 * U,
        )
        lines.append(y + 4 + U)
    centre_y = (lines[0] + lines[-1]) / 2
    e = layout["engine"][0]
    canvas.add(
        tile(e, e, hub_x, centre_y - U, across=True, role="centre", chain="engine"),
        hub_x + U,
        centre_y + U,
    )
    for line_y in lines:
        _connector(canvas, hub_x + U, centre_y, start_x, line_y)
    return top + len(lines) * ROW_H


def _tile_row(
    canvas: _Canvas,
    title: str,
    tiles: Sequence[Sequence[int]],
    y: float,
    role: str,
    width: float,
    highlight: Sequence[int] | None = None,
) -> float:
    """A labelled row of tiles that wraps at ``width``. Returns the next y."""
    _text(canvas, title, MARGIN, y + 12, 12, font_weight="bold")
    y += 20
    x = MARGIN
    for a, b in tiles:
        if x + 2 * U > max(width, MARGIN + 2 * U):
            x = MARGIN
            y += U + 2 * GAP
        stroke = ACCENT if highlight is not None and sorted(highlight) == sorted((a, b)) else None
        kwargs = {"stroke": stroke} if stroke else {}
        canvas.add(tile(a, b, x, y, role=role, **kwargs), x + 2 * U, y + U)
        x += 2 * U + GAP
    return y + U + 2 * GAP


def board_svg(
    view: dict[str, Any],
    *,
    names: Sequence[str],
    caption: str = "",
    revealed_hands: Sequence[Sequence[Sequence[int]]] | None = None,
    with_hand: bool = True,
) -> str:
    """The SVG of ``view`` (``engine.view`` of one seat, or a spectator's).

    ``names`` are the seats' display names. ``revealed_hands`` are the hands a finished round's
    ``round_ended`` event revealed (every seat's, shown under the table); pass them only for a
    round that is over. ``with_hand=False`` leaves the viewer's own hand out (a page that
    shows it as buttons of its own).
    """
    canvas = _Canvas()
    names = [svg.isolate(name) for name in names]
    top = _header(canvas, view, names, caption)
    if view["variant"] == "mexican_train":
        bottom = _mexican_train(canvas, view, names, top)
    else:
        bottom = _chickenfoot(canvas, view, top)
    face_up = view.get("hands")  # Mexican Train with open_hands: every hand lies face up
    rows_of_tiles = (with_hand and view.get("hand") is not None) or face_up or revealed_hands
    # rows of hands wrap at a hand's width; a table alone is as wide as what it holds, so a
    # page can scale it to the room it has
    width = max(canvas.width, HAND_WIDTH) if rows_of_tiles else canvas.width
    y = bottom + 8
    if with_hand and view.get("hand") is not None:
        y = _tile_row(
            canvas,
            _("Your hand"),
            view["hand"],
            y,
            "hand",
            width - MARGIN,
            highlight=view.get("drawn"),
        )
    shown: list[tuple[str, Any]] = []
    if revealed_hands is None and face_up is not None:
        shown = [
            (_("%(name)s's hand (face up)") % {"name": names[seat]}, hand)
            for seat, hand in enumerate(face_up)
            if seat != view.get("seat")
        ]
    shown += [
        (_("%(name)s held") % {"name": names[seat]}, hand)
        for seat, hand in enumerate(revealed_hands or [])
    ]
    for label, hand in shown:
        y = _tile_row(canvas, label, hand, y, "revealed", width - MARGIN)
    drawing = svg.drawing(width + MARGIN, max(canvas.height, y) + MARGIN)
    drawing.append(
        draw.Rectangle(0, 0, width + MARGIN, max(canvas.height, y) + MARGIN, fill="#f3efe4")
    )
    for item in canvas.items:
        drawing.append(item)
    return svg.as_svg(drawing)
