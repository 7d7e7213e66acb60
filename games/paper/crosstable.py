"""The printed crosstable (A4 landscape): a row per entrant in standings order, numbered, with
the value of every tie-break of the order, and a cell per stage: the table, the place of how
many, the placement points, then the opponents by their numbers and the pips. Pages follow one
another down the field (the column headings on each); a tournament with more stages than one
page's width holds is printed in blocks of stages, each block down the whole field. Names and
numbers only: no player ids, since anyone may read it at a public event."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from games.paper.layout import build, grid, para, width
from games.paper.standings_sheet import (
    division_groups,
    division_line,
    figure,
    footer,
    order_line,
    printed_line,
    rank_label,
)
from scoring.competitions.tie_breaks import LABELS

SIZE = 7.5
NUMBER = 9 * mm
RANK = 11 * mm
NAME = 38 * mm
KEY = 18 * mm
#: The narrowest a stage's column may be: "T12 · 10/22 · 12.5 · 140" fits.
STAGE = 25 * mm


def opponent(entry: dict[str, Any]) -> str:
    if entry["bot"]:
        return _("bot")
    return _("guest") if entry["number"] is None else str(entry["number"])


def stage_cell(entry: dict[str, Any]) -> str:
    """A stage of one entrant as one or two short lines (the sheet's legend says how to read
    them)."""
    status = entry["status"]
    rivals = " ".join(opponent(o) for o in entry["opponents"])
    if status == "played":
        first = _("T%(table)s · %(place)s/%(players)s · %(points)s · %(pips)s") % {
            "table": entry["table"],
            "place": entry["place"],
            "players": entry["table_players"],
            "points": figure(entry["placement_points"]),
            "pips": figure(entry["total_points"]),
        }
        return "\n".join([first, _("v %(opponents)s") % {"opponents": rivals}])
    if status in ("playing", "abandoned"):
        word = _("playing") if status == "playing" else _("abandoned")
        first = _("T%(table)s · %(status)s") % {"table": entry["table"], "status": word}
        return "\n".join([first, _("v %(opponents)s") % {"opponents": rivals}])
    if status == "bye":
        return _("bye · %(points)s") % {"points": figure(entry["placement_points"])}
    words = {
        "not_entered": _("not entered"),
        "dropped": _("dropped out"),
        "not_finalist": _("not in the final"),
        "no_show": _("no-show"),
    }
    return words[status]


def _blocks(stages: list[int], keys: int) -> list[list[int]]:
    """The stages cut into blocks that fit a page's width beside the entrant's columns."""
    room = width(sideways=True) - NUMBER - RANK - NAME - keys * KEY
    per_block = max(1, int(room // STAGE))
    return [stages[at : at + per_block] for at in range(0, len(stages), per_block)] or [[]]


def crosstable_pdf(*, sheet: dict[str, Any]) -> bytes:
    """``sheet``: the crosstable as ``scoring.competitions.crosstable`` reads it (``name``,
    ``final``, ``stage_count``, ``tie_breaks``, ``stages`` and ``entrants``); at an event with
    divisions, each division's entrants (their ``division``) are printed on pages of their own."""
    order = sheet["tie_breaks"]
    numbers = [stage["number"] for stage in sheet["stages"]]
    finals = {stage["number"] for stage in sheet["stages"] if stage.get("final_table")}
    blocks = _blocks(numbers, len(order))
    head = [
        para(text, 7, bold=True)
        for text in ("#", _("Rank"), _("Name"), *[str(LABELS[key]) for key in order])
    ]
    title = [
        para(sheet["name"], 18, bold=True),
        Spacer(1, 2 * mm),
        para(
            (_("Final crosstable") if sheet["final"] else _("Crosstable"))
            + " · "
            + _("%(done)s of %(count)s stages")
            % {
                "done": len(numbers),
                "count": sheet["stage_count"] + (1 if sheet.get("final_table") else 0),
            },
            12,
            bold=True,
        ),
        para(order_line(order), 8),
        para(
            _(
                "Each stage: T table · place/players at the table · placement points · the "
                "pips scored there; v the opponents' numbers (bot: a bot)."
            ),
            8,
        ),
        para(printed_line(), 7),
        Spacer(1, 3 * mm),
    ]
    pages: list[list[Flowable]] = []
    for division, entrants in division_groups(sheet["entrants"]):
        for index, block in enumerate(blocks):
            rows: list[list[Any]] = [
                [
                    *head,
                    *[
                        para(
                            _("Final table")
                            if number in finals
                            else _("Stage %(number)s") % {"number": number},
                            7,
                            bold=True,
                        )
                        for number in block
                    ],
                ]
            ]
            for entrant in entrants:
                entries = {entry["stage"]: entry for entry in entrant["stages"]}
                name = entrant["name"]
                if entrant["dropped"]:
                    name = _("%(name)s (dropped out)") % {"name": name}
                rows.append(
                    [
                        str(entrant["number"]),
                        rank_label(entrant),
                        name,
                        *[figure(entrant["tie_breaks"][key]) for key in order],
                        *[stage_cell(entries[number]) for number in block],
                    ]
                )
            stage_width = (
                (width(sideways=True) - NUMBER - RANK - NAME - len(order) * KEY) / len(block)
                if block
                else 0
            )
            widths = [NUMBER, RANK, NAME, *[KEY] * len(order), *[stage_width] * len(block)]
            if not block:
                widths[2] = width(sideways=True) - NUMBER - RANK - len(order) * KEY
            page: list[Flowable] = (
                [*title[:2], *division_line(division), *title[2:]] if index == 0 else []
            )
            if len(blocks) > 1:
                page.append(
                    para(
                        _("Stages %(first)s to %(last)s") % {"first": block[0], "last": block[-1]},
                        10,
                        bold=True,
                    )
                )
            if entrants:
                figures = [0, 1, *range(3, 3 + len(order) + len(block))]
                page.append(grid(rows, widths, size=SIZE, figures=figures))
            else:
                page.append(para(_("No entrants yet."), 12))
            pages.append(page)
    return build(
        pages,
        title=_("%(event)s: crosstable") % {"event": sheet["name"]},
        sideways=True,
        footer=footer(sheet["name"], _("crosstable")),
    )
