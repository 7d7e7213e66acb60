"""A match's cumulative scores, round by round, as a line chart."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from django.utils.translation import gettext as _

from chickenfoot.charts import Series, line_chart


def scores_chart(*, scores: Sequence[Sequence[int]], names: Sequence[str], title: str) -> str:
    """One line per seat: its total after each finished round (``scores[r][seat]``), from 0."""
    # the steps are also the points' ``data-step`` values, which clients read: not translated
    steps = ["start", *(f"R{number}" for number in range(1, len(scores) + 1))]
    series = [
        Series(name, [0, *accumulate(row[seat] for row in scores)])
        for seat, name in enumerate(names)
    ]
    return line_chart(
        title, steps, series, y_label=_("points (lower is better)"), x_label=_("round")
    )
