"""Small SVG charts (drawsvg): lines over steps (scores by round, a rating's trend) and bars.

Every mark carries ``data-`` attributes with the value it stands for, so tests (and scripts)
can read a chart back without measuring pixels. Names and titles become text and attribute
values only, escaped as they are written (``chickenfoot.svg``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import drawsvg as draw

from chickenfoot import svg

WIDTH, HEIGHT = 640, 320
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 56, 150, 40, 44
INK = "#1d2330"
GRID = "#d9dde5"
#: Colour-blind-safe series colours (Okabe-Ito), then repeated with dashes.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442")


@dataclass(frozen=True)
class Series:
    """One line: its name and a value per step (``None`` where it has none)."""

    name: str
    values: Sequence[float | None]


def _nice_step(span: float) -> float:
    """A round step for about five grid lines over ``span``."""
    raw = max(span, 1e-9) / 5
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 0.1
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _frame(title: str, y_label: str) -> draw.Drawing:
    drawing = svg.drawing(WIDTH, HEIGHT)
    drawing.append(draw.Rectangle(0, 0, WIDTH, HEIGHT, fill="#ffffff"))
    drawing.append(
        svg.text(
            title,
            15,
            PAD_LEFT,
            22,
            font_weight="bold",
            fill=INK,
            class_="chart-title",
        )
    )
    drawing.append(
        svg.text(
            y_label,
            11,
            12,
            PAD_TOP + (HEIGHT - PAD_TOP - PAD_BOTTOM) / 2,
            fill=INK,
            transform=(f"rotate(-90 12 {PAD_TOP + (HEIGHT - PAD_TOP - PAD_BOTTOM) / 2})"),
            text_anchor="middle",
        )
    )
    return drawing


def _y_axis(drawing: draw.Drawing, low: float, high: float) -> tuple[float, float]:
    """Grid lines and labels; returns the axis' (low, high) after rounding to the step."""
    step = _nice_step(high - low)
    low = step * (low // step)
    high = max(low + step, step * -(-high // step))
    value = low
    while value <= high + 1e-9:
        y = _y(value, low, high)
        drawing.append(draw.Line(PAD_LEFT, y, WIDTH - PAD_RIGHT, y, stroke=GRID))
        label = f"{value:g}"
        drawing.append(
            svg.text(
                label,
                10,
                PAD_LEFT - 6,
                y,
                text_anchor="end",
                dominant_baseline="central",
                fill=INK,
            )
        )
        value += step
    return low, high


def _y(value: float, low: float, high: float) -> float:
    span = (high - low) or 1
    return PAD_TOP + (HEIGHT - PAD_TOP - PAD_BOTTOM) * (1 - (value - low) / span)


def _x(index: int, count: int) -> float:
    inner = WIDTH - PAD_LEFT - PAD_RIGHT
    return PAD_LEFT + (inner * index / (count - 1) if count > 1 else inner / 2)


def _empty(drawing: draw.Drawing) -> str:
    """``drawing`` saying that there is nothing to chart yet, as an SVG document."""
    drawing.append(
        svg.text(
            "No data yet",
            14,
            WIDTH / 2,
            HEIGHT / 2,
            text_anchor="middle",
            fill=INK,
            class_="empty",
        )
    )
    return svg.as_svg(drawing)


def line_chart(
    title: str,
    steps: Sequence[str],
    series: Sequence[Series],
    *,
    y_label: str = "",
    x_label: str = "",
    from_zero: bool = True,
) -> str:
    """Lines over ``steps`` (x labels), one per series, with a legend; an SVG document.

    The y axis starts at 0 (or below, for negative values) unless ``from_zero`` is false, when
    it fits the values (a rating near 1000 then shows its changes).

    Each point is a ``<circle class="point" data-series=… data-step=… data-value=…>``.
    """
    drawing = _frame(title, y_label)
    values = [v for s in series for v in s.values if v is not None]
    if not values or not steps:
        return _empty(drawing)
    low = min(0.0, min(values)) if from_zero else min(values)
    high = max(values) if max(values) > low else low + 1
    low, high = _y_axis(drawing, low, high)
    count = len(steps)
    label_every = max(1, count // 12)
    for index, step in enumerate(steps):
        if index % label_every == 0 or index == count - 1:
            drawing.append(
                svg.text(
                    step,
                    10,
                    _x(index, count),
                    HEIGHT - PAD_BOTTOM + 14,
                    text_anchor="middle",
                    fill=INK,
                )
            )
    if x_label:
        drawing.append(
            svg.text(
                x_label,
                11,
                PAD_LEFT + (WIDTH - PAD_LEFT - PAD_RIGHT) / 2,
                HEIGHT - 8,
                text_anchor="middle",
                fill=INK,
            )
        )
    for number, line in enumerate(series):
        colour = PALETTE[number % len(PALETTE)]
        dash = "5 3" if number >= len(PALETTE) else None
        group = draw.Group(class_="series", data_series=line.name)
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
            x, y = _x(index, count), _y(value, low, high)
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
                    data_series=line.name,
                    data_step=steps[index],
                    data_value=f"{value:g}",
                )
            )
        drawing.append(group)
        legend_y = PAD_TOP + 16 * number
        drawing.append(
            draw.Line(
                WIDTH - PAD_RIGHT + 12,
                legend_y,
                WIDTH - PAD_RIGHT + 30,
                legend_y,
                stroke=colour,
                stroke_width=3,
            )
        )
        drawing.append(
            svg.text(
                svg.isolate(line.name[:22]),
                11,
                WIDTH - PAD_RIGHT + 36,
                legend_y,
                dominant_baseline="central",
                fill=INK,
                class_="legend",
            )
        )
    return svg.as_svg(drawing)


def bar_chart(title: str, bars: Sequence[tuple[str, float]], *, y_label: str = "") -> str:
    """One bar per (label, value); an SVG document. Bars are ``<rect class="bar">``."""
    drawing = _frame(title, y_label)
    if not bars:
        return _empty(drawing)
    low, high = _y_axis(drawing, min(0.0, *(v for _, v in bars)), max(v for _, v in bars))
    inner = WIDTH - PAD_LEFT - PAD_RIGHT
    slot = inner / len(bars)
    zero = _y(0, low, high)
    for index, (label, value) in enumerate(bars):
        x = PAD_LEFT + slot * index + slot * 0.15
        top = _y(value, low, high)
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
                10,
                x + slot * 0.35,
                HEIGHT - PAD_BOTTOM + 14,
                text_anchor="middle",
                fill=INK,
            )
        )
    return svg.as_svg(drawing)
