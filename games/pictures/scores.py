"""A match's cumulative scores, round by round, as a line chart."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from django.utils.translation import gettext as _

from chickenfoot.charts import WIDTH, Series, line_chart


def scores_chart(
    *, scores: Sequence[Sequence[int]], names: Sequence[str], title: str, width: float = WIDTH
) -> str:
    """One line per seat: its total after each finished round (``scores[r][seat]``), from 0;
    drawn ``width`` wide."""
    rounds = range(1, len(scores) + 1)
    # the steps are also the points' ``data-step`` values, which clients read: not translated;
    # the axis shows them in the reader's language
    steps = ["start", *(f"R{number}" for number in rounds)]
    labels = [_("start"), *(_("R%(number)s") % {"number": number} for number in rounds)]
    series = [
        Series(name, [0, *accumulate(row[seat] for row in scores)])
        for seat, name in enumerate(names)
    ]
    return line_chart(
        title,
        steps,
        series,
        labels=labels,
        y_label=_("points (lower is better)"),
        x_label=_("round"),
        width=width,
    )
