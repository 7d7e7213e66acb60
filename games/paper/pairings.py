"""The wall sheet of a stage: each table and who sits at it, and the byes, in large type. It
prints names only: never a scorer code, since anyone may read it at a public event."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from games.paper.layout import build, grid, para, width


def pairings_pdf(
    *, event: str, stage: int, tables: list[tuple[int, list[str]]], byes: list[str]
) -> bytes:
    """``tables`` are (table number, names in seat order), ``byes`` the names sitting out."""
    rows = [
        [
            para(_("Table %(table)s") % {"table": number}, 18, bold=True),
            [para(name, 18) for name in names],
        ]
        for number, names in tables
    ]
    page: list[Flowable] = [
        para(event, 26, bold=True),
        Spacer(1, 3 * mm),
        para(_("Stage %(stage)s: pairings") % {"stage": stage}, 20, bold=True),
        Spacer(1, 8 * mm),
    ]
    if rows:
        page.append(grid(rows, [40 * mm, width() - 40 * mm], header_rows=0, size=18))
    if byes:
        page += [
            Spacer(1, 8 * mm),
            para(_("Byes"), 20, bold=True),
            Spacer(1, 2 * mm),
            *[para(name, 18) for name in byes],
        ]
    return build(
        [page], title=_("%(event)s: stage %(stage)s, pairings") % {"event": event, "stage": stage}
    )
