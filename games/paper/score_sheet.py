"""A table match's score sheet: the rounds as entered, each with its start double, the points
per seat, totals, places once finished, and every correction marked, with a footnote from the
score entries' trail (who, when, before, after, why). Dates and points are written as the
active language writes them (``chickenfoot.i18n.formats``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from chickenfoot.i18n.formats import format_datetime, format_decimal
from games.accounts.names import shown_name
from games.engine.tally import start_double
from games.models import Match, Seat
from games.paper.layout import build, para
from games.paper.table_card import double_label, score_grid
from games.tables.models import ScoreEntry
from games.tables.services import final_standings
from scoring.competition_models import CompetitionMatch


@dataclass(frozen=True)
class Correction:
    mark: int
    round: int
    author: str
    at: str
    changes: list[str]  # "Seat 2 (Grace): 30 → 31"
    reason: str


def _author(entry: ScoreEntry) -> str:
    if entry.entered_by is not None:
        return entry.entered_by.display_name
    return _("scorer link %(link)s") % {"link": entry.scorer_link_id}


def _heading(match: Match) -> list[str]:
    """The sheet's title lines: the event, stage and table when the match counts in one."""
    link = (
        CompetitionMatch.objects.filter(match_id=match.pk)
        .select_related("competition", "stage")
        .first()
    )
    if link is None:
        return [_("Match %(match)s") % {"match": match.pk}, _(match.get_variant_display())]
    lines = [link.competition.name]
    if link.stage is not None:
        lines.append(
            _("Stage %(stage)s · Table %(table)s")
            % {"stage": link.stage.number, "table": link.table_number}
        )
    return [
        *lines,
        _("Match %(match)s · %(variant)s")
        % {"match": match.pk, "variant": _(match.get_variant_display())},
    ]


def score_sheet_pdf(*, match: Match) -> bytes:
    """The sheet of table match ``match`` (the caller has checked who may read it)."""
    names = [
        shown_name(seat.player.display_name) if seat.player else ""
        for seat in Seat.objects.filter(match=match).select_related("player").order_by("position")
    ]
    options = match.options
    rounds = options.get("rounds") or options["max_pip"] + 1
    cells = [[""] * len(names) for _round in range(rounds)]
    current: dict[int, list[int]] = {}
    marks: dict[tuple[int, int], list[int]] = {}
    corrections: list[Correction] = []
    for entry in ScoreEntry.objects.filter(match=match).select_related("entered_by").order_by("pk"):
        points = [seat["points"] for seat in entry.seats]
        if entry.before is not None:
            old = [seat["points"] for seat in entry.before]
            changed = [s for s, (a, b) in enumerate(zip(old, points, strict=False)) if a != b]
            mark = len(corrections) + 1
            for s in changed:
                marks.setdefault((entry.number, s), []).append(mark)
            corrections.append(
                Correction(
                    mark=mark,
                    round=entry.number,
                    author=_author(entry),
                    at=f"{format_datetime(entry.created_at, 'short')} UTC",
                    changes=[
                        _("seat %(seat)s (%(name)s): %(old)s → %(new)s")
                        % {
                            "seat": s + 1,
                            "name": names[s],
                            "old": format_decimal(old[s]),
                            "new": format_decimal(points[s]),
                        }
                        for s in changed
                    ],
                    reason=entry.reason,
                )
            )
        current[entry.number] = points
    for number, points in current.items():
        for s, value in enumerate(points):
            mark = "".join(f" *{m}" for m in marks.get((number, s), []))
            cells[number - 1][s] = f"{format_decimal(value)}{mark}"
    totals = [
        format_decimal(sum(points[s] for points in current.values())) for s in range(len(names))
    ]
    more = []
    if match.status == Match.Status.FINISHED:
        places = {row["seat"]: row["place"] for row in final_standings(match=match)}
        more.append([_("Place"), "", *[str(places.get(s, "")) for s in range(len(names))]])
    labels = [double_label(start_double(options, n)) for n in range(1, rounds + 1)]
    title, *subtitles = _heading(match)
    page: list[Flowable] = [
        para(title, 18, bold=True),
        *[para(line, 12) for line in subtitles],
        Spacer(1, 3 * mm),
        para(
            _("Seats: %(seats)s")
            % {"seats": ", ".join(f"{n}. {name}" for n, name in enumerate(names, start=1))},
            10,
        ),
        Spacer(1, 4 * mm),
        score_grid(names, cells, labels, totals, more),
    ]
    if corrections:
        page += [Spacer(1, 5 * mm), para(_("Corrections"), 12, bold=True)]
        for c in corrections:
            page.append(
                para(
                    _(
                        "*%(mark)s Round %(round)s, by %(author)s, %(at)s: %(changes)s. "
                        "Reason: %(reason)s"
                    )
                    % {
                        "mark": c.mark,
                        "round": c.round,
                        "author": c.author,
                        "at": c.at,
                        "changes": "; ".join(c.changes) or _("no points changed"),
                        "reason": c.reason,
                    },
                    9,
                )
            )
    return build([page], title=_("%(title)s: score sheet") % {"title": title})
