"""Small SVG charts (drawsvg): lines over steps (scores by round, a rating's trend) and bars.

Every mark carries ``data-`` attributes with the value it stands for, so tests (and scripts)
can read a chart back without measuring pixels. Names and titles become text and attribute
values only, escaped as they are written (``chickenfoot.svg``).

A chart is drawn for the width it will be shown at (``width``, 640 by default), so that its
text is never smaller than ``SMALLEST`` units a pixel: a page asks for the width of its box (a
phone's ~350 px) instead of scaling a wide chart down. Narrower than ``NARROW`` the legend
goes under the plot instead of beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import drawsvg as draw
from django.utils.translation import gettext as _

from chickenfoot import svg

WIDTH, HEIGHT = 640, 320
#: The narrowest and widest a chart is drawn.
MIN_WIDTH, MAX_WIDTH = 280, 1600
#: Below this width the legend goes under the plot.
NARROW = 480
PAD_LEFT, PAD_TOP, PAD_BOTTOM = 56, 40, 46
#: The smallest text a chart holds (tick and step labels), in units of its width.
SMALLEST = 11
LEGEND_ROW = 18
INK = "#1d2330"
GRID = "#d9dde5"
#: Colour-blind-safe series colours (Okabe-Ito), then repeated with dashes.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442")


@dataclass(frozen=True)
class Series:
    """One line: its name and a value per step (``None`` where it has none); ``group``: the
    group it belongs to (a division), written as ``data-group`` and after its name in the
    legend."""

    name: str
    values: Sequence[float | None]
    group: str | None = None


@dataclass(frozen=True)
class _Frame:
    """Where a chart's plot sits: the drawing's size and the plot's edges."""

    width: float
    height: float
    plot_right: float
    legend_below: bool

    @property
    def plot_bottom(self) -> float:
        return (HEIGHT if self.legend_below else self.height) - PAD_BOTTOM

    def y(self, value: float, low: float, high: float) -> float:
        span = (high - low) or 1
        return PAD_TOP + (self.plot_bottom - PAD_TOP) * (1 - (value - low) / span)

    def x(self, index: int, count: int) -> float:
        inner = self.plot_right - PAD_LEFT
        return PAD_LEFT + (inner * index / (count - 1) if count > 1 else inner / 2)

    def legend_at(self, number: int) -> tuple[float, float]:
        """Where series ``number``'s key starts (its line's left end, its middle)."""
        if self.legend_below:
            return PAD_LEFT - 40, HEIGHT + 4 + LEGEND_ROW * number
        return self.plot_right + 12, PAD_TOP + 16 * number


def _frame_for(width: float, legend_rows: int) -> _Frame:
    width = min(max(width, MIN_WIDTH), MAX_WIDTH)
    if width < NARROW:
        height = HEIGHT + 12 + LEGEND_ROW * legend_rows
        return _Frame(width=width, height=height, plot_right=width - 16, legend_below=True)
    return _Frame(width=width, height=HEIGHT, plot_right=width - 150, legend_below=False)


def _nice_step(span: float) -> float:
    """A round step for about five grid lines over ``span``."""
    raw = max(span, 1e-9) / 5
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 0.1
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _start(frame: _Frame, title: str, y_label: str) -> draw.Drawing:
    drawing = svg.drawing(frame.width, frame.height)
    drawing.append(draw.Rectangle(0, 0, frame.width, frame.height, fill="#ffffff"))
    title_size = 15 if frame.width >= NARROW else 13
    drawing.append(
        svg.text(
            title,
            title_size,
            PAD_LEFT if frame.width >= NARROW else 12,
            22,
            font_weight="bold",
            fill=INK,
            class_="chart-title",
        )
    )
    middle = PAD_TOP + (frame.plot_bottom - PAD_TOP) / 2
    drawing.append(
        svg.text(
            y_label,
            SMALLEST,
            12,
            middle,
            fill=INK,
            transform=f"rotate(-90 12 {middle})",
            text_anchor="middle",
        )
    )
    return drawing


def _y_axis(drawing: draw.Drawing, frame: _Frame, low: float, high: float) -> tuple[float, float]:
    """Grid lines and labels; returns the axis' (low, high) after rounding to the step."""
    step = _nice_step(high - low)
    low = step * (low // step)
    high = max(low + step, step * -(-high // step))
    value = low
    while value <= high + 1e-9:
        y = frame.y(value, low, high)
        drawing.append(draw.Line(PAD_LEFT, y, frame.plot_right, y, stroke=GRID))
        drawing.append(
            svg.text(
                f"{value:g}",
                SMALLEST,
                PAD_LEFT - 6,
                y,
                text_anchor="end",
                dominant_baseline="central",
                fill=INK,
            )
        )
        value += step
    return low, high


def _empty(drawing: draw.Drawing, frame: _Frame) -> str:
    """``drawing`` saying that there is nothing to chart yet, as an SVG document."""
    drawing.append(
        svg.text(
            _("No data yet"),
            14,
            frame.width / 2,
            HEIGHT / 2,
            text_anchor="middle",
            fill=INK,
            class_="empty",
        )
    )
    return svg.as_svg(drawing)


def _label_every(frame: _Frame, labels: Sequence[str]) -> int:
    """Label every n-th step so that no two labels meet (each about 0.6 em a character)."""
    longest = max((len(label) for label in labels), default=1)
    room = (frame.plot_right - PAD_LEFT) / max(len(labels) - 1, 1)
    return max(1, math.ceil((longest * SMALLEST * 0.6 + 6) / room))


def line_chart(
    title: str,
    steps: Sequence[str],
    series: Sequence[Series],
    *,
    labels: Sequence[str] | None = None,
    y_label: str = "",
    x_label: str = "",
    from_zero: bool = True,
    width: float = WIDTH,
) -> str:
    """Lines over ``steps``, one per series, with a legend; an SVG document ``width`` wide.

    ``steps`` are the points' ``data-step`` values, which clients read (the same in every
    language); ``labels`` are what the x axis shows for them (translated), ``steps`` if none.
    The y axis starts at 0 (or below, for negative values) unless ``from_zero`` is false, when
    it fits the values (a rating near 1000 then shows its changes).

    Each point is a ``<circle class="point" data-series=… data-step=… data-value=…>`` (and
    ``data-group=…`` for a series of a group).
    """
    frame = _frame_for(width, len(series))
    drawing = _start(frame, title, y_label)
    values = [v for s in series for v in s.values if v is not None]
    if not values or not steps:
        return _empty(drawing, frame)
    shown = list(labels) if labels is not None else list(steps)
    low = min(0.0, min(values)) if from_zero else min(values)
    high = max(values) if max(values) > low else low + 1
    low, high = _y_axis(drawing, frame, low, high)
    count = len(steps)
    every = _label_every(frame, shown)
    for index, label in enumerate(shown):
        if index % every == 0 or index == count - 1:
            drawing.append(
                svg.text(
                    label,
                    SMALLEST,
                    frame.x(index, count),
                    frame.plot_bottom + 15,
                    text_anchor="middle",
                    fill=INK,
                    class_="step",
                )
            )
    if x_label:
        drawing.append(
            svg.text(
                x_label,
                SMALLEST,
                PAD_LEFT + (frame.plot_right - PAD_LEFT) / 2,
                frame.plot_bottom + 34,
                text_anchor="middle",
                fill=INK,
            )
        )
    for number, line in enumerate(series):
        colour = PALETTE[number % len(PALETTE)]
        dash = "5 3" if number >= len(PALETTE) else None
        tags = {"data_series": line.name}
        if line.group is not None:
            tags["data_group"] = line.group
        group = draw.Group(class_="series", **tags)
        path = draw.Path(
            stroke=colour,
            stroke_width=2,
            fill="none",
            **({"stroke_dasharray": dash} if dash else {}),
        )
        group.append(path)
        started = False
        for index, value in enumerate(line.values):
            if value is None:
                started = False
                continue
            x, y = frame.x(index, count), frame.y(value, low, high)
            if started:
                path.L(x, y)
            else:
                path.M(x, y)
            started = True
            group.append(
                draw.Circle(
                    x,
                    y,
                    3,
                    fill=colour,
                    class_="point",
                    **tags,
                    data_step=steps[index],
                    data_value=f"{value:g}",
                )
            )
        drawing.append(group)
        key_x, key_y = frame.legend_at(number)
        drawing.append(draw.Line(key_x, key_y, key_x + 18, key_y, stroke=colour, stroke_width=3))
        room = 40 if frame.legend_below else 22
        legend = svg.isolate(line.name[:room])
        if line.group is not None:
            kept = min(len(line.group), room // 2)
            name, group = svg.isolate(line.name[: room - kept - 3]), svg.isolate(line.group[:kept])
            legend = f"{name} · {group}"
        drawing.append(
            svg.text(
                legend,
                SMALLEST,
                key_x + 24,
                key_y,
                dominant_baseline="central",
                fill=INK,
                class_="legend",
            )
        )
    return svg.as_svg(drawing)


def bar_chart(title: str, bars: Sequence[tuple[str, float]], *, y_label: str = "") -> str:
    """One bar per (label, value); an SVG document. Bars are ``<rect class="bar">``."""
    frame = _frame_for(WIDTH, 0)
    drawing = _start(frame, title, y_label)
    if not bars:
        return _empty(drawing, frame)
    low, high = _y_axis(drawing, frame, min(0.0, *(v for _, v in bars)), max(v for _, v in bars))
    inner = frame.plot_right - PAD_LEFT
    slot = inner / len(bars)
    zero = frame.y(0, low, high)
    for index, (label, value) in enumerate(bars):
        x = PAD_LEFT + slot * index + slot * 0.15
        top = frame.y(value, low, high)
        drawing.append(
            draw.Rectangle(
                x,
                min(top, zero),
                slot * 0.7,
                abs(zero - top),
                fill=PALETTE[0],
                class_="bar",
                data_label=label,
                data_value=f"{value:g}",
            )
        )
        drawing.append(
            svg.text(
                label[:14],
                SMALLEST,
                x + slot * 0.35,
                frame.plot_bottom + 15,
                text_anchor="middle",
                fill=INK,
            )
        )
    return svg.as_svg(drawing)
