"""The wall sheet of a stage: each table and who sits at it, and the byes, in large type. It
prints names only: never a scorer code, since anyone may read it at a public event. At an event
with divisions each division is printed in turn, on pages of its own under its own heading."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from games.paper.layout import build, grid, para, width
from games.paper.standings_sheet import division_line


@dataclass(frozen=True)
class PairingsSection:
    """One division's part of the sheet (``division`` ``None``: an event without divisions):
    ``tables`` are (table number, names in seat order), ``byes`` the names sitting out."""

    division: str | None = None
    tables: Sequence[tuple[int, Sequence[str]]] = field(default_factory=list)
    byes: Sequence[str] = field(default_factory=list)


def _page(event: str, stage: int, section: PairingsSection) -> list[Flowable]:
    rows = [
        [
            para(_("Table %(table)s") % {"table": number}, 18, bold=True),
            [para(name, 18) for name in names],
        ]
        for number, names in section.tables
    ]
    page: list[Flowable] = [
        para(event, 26, bold=True),
        Spacer(1, 3 * mm),
        para(_("Stage %(stage)s: pairings") % {"stage": stage}, 20, bold=True),
        *division_line(section.division),
        Spacer(1, 8 * mm),
    ]
    if rows:
        page.append(grid(rows, [40 * mm, width() - 40 * mm], header_rows=0, size=18))
    if section.byes:
        page += [
            Spacer(1, 8 * mm),
            para(_("Byes"), 20, bold=True),
            Spacer(1, 2 * mm),
            *[para(name, 18) for name in section.byes],
        ]
    return page


def pairings_pdf(
    *,
    event: str,
    stage: int,
    tables: Sequence[tuple[int, Sequence[str]]] = (),
    byes: Sequence[str] = (),
    sections: Sequence[PairingsSection] | None = None,
) -> bytes:
    """``tables`` are (table number, names in seat order), ``byes`` the names sitting out; or,
    at an event with divisions, ``sections``, each division's in turn."""
    if sections is None:
        sections = [PairingsSection(tables=tables, byes=byes)]
    return build(
        [_page(event, stage, section) for section in sections],
        title=_("%(event)s: stage %(stage)s, pairings") % {"event": event, "stage": stage},
    )
