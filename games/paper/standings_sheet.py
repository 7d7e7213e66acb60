"""The printed standings, for the notice board: each player's rank, name, matches and the value
of every tie-break of the competition's order, in that order; names only (no player ids, no
ratings), since anyone may read it at a public event. Figures are written as the active
language writes them (``chickenfoot.i18n.formats``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from chickenfoot.i18n.formats import format_datetime, format_decimal
from games.paper.layout import build, grid, para, width
from scoring.competitions.tie_breaks import LABELS

#: What the sheets print for a figure there is none of (an en dash).
NONE = "\u2013"
#: More tie-breaks than this and the sheet is printed on its side (landscape).
UPRIGHT_KEYS = 5


def figure(value: float | int | None) -> str:
    """A figure as the sheet prints it: the language's digits and decimal sign; ``NONE``."""
    return NONE if value is None else format_decimal(value)


def rank_label(row: dict[str, Any]) -> str:
    """``2=`` for a shared rank, ``NONE`` for a player not ranked yet."""
    if row["rank"] is None:
        return NONE
    return f"{row['rank']}=" if row["shared"] else str(row["rank"])


def printed_line() -> str:
    """When the sheet was printed (UTC), so that a sheet on the board says how old it is."""
    return _("Printed %(when)s UTC") % {"when": format_datetime(timezone.now(), "short")}


def heading(sheet: dict[str, Any]) -> str:
    """What the standings are: final, after how many stages, or so far (a league)."""
    if sheet["final"]:
        return _("Final standings")
    if sheet["stage_count"]:
        return _("Standings after %(done)s of %(count)s stages") % {
            "done": sheet["stages_finished"],
            "count": sheet["stage_count"],
        }
    return _("Standings so far")


def order_line(order: list[str]) -> str:
    return _("Ranked by: %(order)s") % {"order": " · ".join(str(LABELS[key]) for key in order)}


def footer(event: str, what: str) -> Callable[[int], str]:
    """The foot of each page: the event, the sheet and the page number."""
    return lambda page: (
        _("%(event)s · %(sheet)s · page %(page)s")
        % {
            "event": event,
            "sheet": what,
            "page": page,
        }
    )


def division_groups(rows: list[dict[str, Any]]) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """``rows`` cut where their ``division`` changes (an event with divisions lists each
    division's in turn): one group, ``None``, without divisions."""
    groups: list[tuple[str | None, list[dict[str, Any]]]] = []
    for row in rows:
        division = row.get("division")
        if not groups or groups[-1][0] != division:
            groups.append((division, []))
        groups[-1][1].append(row)
    return groups or [(None, [])]


def division_line(division: str | None) -> list[Flowable]:
    """A division's heading under the sheet's title (nothing without divisions)."""
    if division is None:
        return []
    return [para(_("Division %(division)s") % {"division": division}, 14, bold=True)]


def standings_pdf(*, sheet: dict[str, Any]) -> bytes:
    """``sheet``: ``event`` (the competition's name), ``final``, ``stage_count`` (null: a
    league), ``stages_finished``, ``min_matches``, ``tie_breaks`` (the order) and ``rows``,
    best first, each with ``rank`` (null: not ranked yet), ``shared``, ``name``, ``matches``,
    ``dropped``, the value of each key of the order and, at an event with divisions, its
    ``division`` (each division is printed on pages of its own)."""
    order = sheet["tie_breaks"]
    sideways = len(order) > UPRIGHT_KEYS
    pages = [
        _standings_page(sheet, division, rows, sideways=sideways)
        for division, rows in division_groups(sheet["rows"])
    ]
    what = _("standings")
    return build(
        pages,
        title=_("%(event)s: standings") % {"event": sheet["event"]},
        sideways=sideways,
        footer=footer(sheet["event"], what),
    )


def _standings_page(
    sheet: dict[str, Any], division: str | None, rows_in: list[dict[str, Any]], *, sideways: bool
) -> list[Flowable]:
    order = sheet["tie_breaks"]
    head = [
        para(text, 8, bold=True)
        for text in ("#", _("Name"), _("Matches"), *[str(LABELS[key]) for key in order])
    ]
    rows = [
        [
            rank_label(row),
            _("%(name)s (dropped out)") % {"name": row["name"]} if row["dropped"] else row["name"],
            figure(row["matches"]),
            *[figure(row[key]) for key in order],
        ]
        for row in rows_in
    ]
    figures = 20 * mm
    name = max(width(sideways=sideways) - 12 * mm - figures * (1 + len(order)), 40 * mm)
    page: list[Flowable] = [
        para(sheet["event"], 20, bold=True),
        Spacer(1, 2 * mm),
        *division_line(division),
        para(heading(sheet), 14, bold=True),
        para(order_line(order), 9),
        para(printed_line(), 8),
        Spacer(1, 5 * mm),
    ]
    if rows:
        widths = [12 * mm, name, *[figures] * (1 + len(order))]
        numbers = [0, *range(2, 3 + len(order))]
        page.append(grid([head, *rows], widths, size=9, figures=numbers))
    else:
        page.append(para(_("No standings yet."), 12))
    notes = [_("A rank marked = is shared: nothing in the order parts those players.")]
    if any(row["rank"] is None for row in rows_in):
        notes.append(
            _("%(none)s: not ranked yet, with fewer than %(min_matches)s matches.")
            % {"none": NONE, "min_matches": sheet["min_matches"]}
        )
    page += [Spacer(1, 4 * mm), *[para(note, 8) for note in notes]]
    return page
