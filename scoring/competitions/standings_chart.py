"""A competition's placement points added up, as a line chart (SVG): one line per leader, in
standings order, a tournament's stage by stage and a league's match by match (in the order they
finished).

At an event with divisions the leaders are each division's (``players`` of each, ranked as its
standings rank them), each line naming its division (``data-group``, and after the name in the
legend); or one division's alone (``division``, its name in the title)."""

from __future__ import annotations

from itertools import accumulate
from typing import Any

from django.utils.translation import gettext as _

from chickenfoot.charts import Series, line_chart
from chickenfoot.svg import isolate
from scoring.competitions.standings import points_by_match, points_by_stage, standings
from scoring.models import Competition


def leaders(competition: Competition, players: int, division: str | None) -> list[dict[str, Any]]:
    """The best ``players`` of the standings (of ``division``, when given), or of each
    division in turn at an event with divisions."""
    rows = standings(competition=competition, division=division)
    if not competition.divisions or division is not None:
        return rows[:players]
    return [
        row
        for name in competition.division_names
        for row in [r for r in rows if r["division"] == name][:players]
    ]


def _steps(competition: Competition) -> tuple[list[str], dict[int, list[float]], str, str]:
    """The chart's steps, each player's points per step, its title (naming ``%(competition)s``)
    and its x axis' label."""
    if competition.kind == Competition.Kind.LEAGUE:
        matches, by_match = points_by_match(competition=competition)
        per_step = {p: [got.get(m, 0) for m in matches] for p, got in by_match.items()}
        return (
            [f"#{match_id}" for match_id in matches],
            per_step,
            _("%(competition)s: placement points by match"),
            _("match"),
        )
    by_stage = points_by_stage(competition=competition)
    stages = sorted({s["stage"] for rows in by_stage.values() for s in rows})
    per_step = {
        p: [{s["stage"]: s["placement_points"] for s in rows}.get(n, 0) for n in stages]
        for p, rows in by_stage.items()
    }
    return (
        [f"S{number}" for number in stages],
        per_step,
        _("%(competition)s: placement points by stage"),
        _("stage"),
    )


def standings_chart(*, competition: Competition, players: int, division: str | None) -> str:
    """The chart of the ``players`` leaders (the module says whose), as an SVG document."""
    steps, per_step, title, x_label = _steps(competition)
    series = [
        Series(
            row["name"],
            [0, *accumulate(per_step.get(row["player_id"], [0] * len(steps)))],
            group=row.get("division") if division is None else None,
        )
        for row in leaders(competition, players, division)
    ]
    labels = [
        _("S%(stage)s") % {"stage": step[1:]} if step.startswith("S") else step for step in steps
    ]
    named = isolate(competition.name)
    if division is not None:
        named = f"{named} · {isolate(division)}"
    return line_chart(
        title % {"competition": named},
        ["start", *steps],
        series if steps else [],
        labels=[_("start"), *labels],
        y_label=_("placement points"),
        x_label=x_label,
    )
