"""The card on each table of an event's stage: who sits where, a grid to write each round's
scores in, signatures, and the scorer's QR code with its code to type and its address.

The code and the address are never broken across lines: the address is printed under the code
when it fits the QR code's column at ``ADDRESS_SMALLEST`` or more, else below the heading,
across the page (right-aligned, under the QR code), shrunk only if even that is too narrow."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from games.accounts.names import shown_name
from games.engine.tally import start_double
from games.models import Match, Seat
from games.paper.layout import OneLine, build, grid, para, width
from games.paper.qr import QRCode
from games.paper.standings_sheet import division_line
from games.tables.event_links import tables_scorer_links

QR_SIZE = 48 * mm
#: The QR code's column, and the width a flowable in it is given (a cell's padding is 6 pt a
#: side, ReportLab's default).
SCORER_COLUMN = QR_SIZE + 6 * mm
SCORER_TEXT_WIDTH = SCORER_COLUMN - 12
#: The address's size, and the smallest it is printed at under the QR code.
ADDRESS_SIZE = 7
ADDRESS_SMALLEST = 6


@dataclass(frozen=True)
class TableCard:
    table: int
    seats: list[str]  # names, in seat order
    doubles: list[int]  # each round's start double, in order
    url: str | None  # the scorer's page; None: the table needs a new link
    code: str | None
    division: str | None = None  # at an event with divisions: the table's


def _seat_line(number: int, name: str) -> str:
    return _("Seat %(number)s: %(name)s") % {"number": number, "name": name}


def double_label(double: int) -> str:
    return f"{double}|{double}"


def score_grid(
    names: list[str],
    cells: list[list[str]],
    labels: list[str],
    totals: list[str],
    more: list[list[str]] | None = None,
    row_height: float | None = None,
) -> Table:
    """The grid of rounds: a row per round (its number and start double), a column per seat,
    the total row, and ``more`` rows below it; ``cells[round][seat]`` is what a cell holds
    (blank on a card)."""
    header = [_("Round"), _("Double"), *[para(name, 9, bold=True) for name in names]]
    rows = [
        [str(number), label, *cells[number - 1]] for number, label in enumerate(labels, start=1)
    ]
    first = 18 * mm
    second = 18 * mm
    seat = (width() - first - second) / max(len(names), 1)
    footer = [[_("Total"), "", *totals], *(more or [])]
    return grid(
        [header, *rows, *footer],
        [first, second, *[seat] * len(names)],
        footer_rows=len(footer),
        row_height=row_height,
    )


def card_page(*, event: str, stage: int, card: TableCard) -> list[Flowable]:
    """One table's page."""
    seats = [para(_seat_line(n, name), 12) for n, name in enumerate(card.seats, start=1)]
    below: list[Flowable] = []
    if card.url and card.code:
        address = OneLine(card.url, ADDRESS_SIZE)
        scorer: list[Flowable] = [
            QRCode(card.url, QR_SIZE),
            para(_("Scorer code"), 9),
            OneLine(card.code, 16, bold=True),
        ]
        if address.fitted_size(SCORER_TEXT_WIDTH) >= ADDRESS_SMALLEST:
            scorer.append(address)
        else:
            below = [Spacer(1, 1 * mm), OneLine(card.url, ADDRESS_SIZE, right=True)]
    else:
        scorer = [para(_("No scorer link to print: issue a new one for this table."), 10)]
    heading = [
        para(event, 20, bold=True),
        Spacer(1, 2 * mm),
        para(
            _("Stage %(stage)s · Table %(table)s") % {"stage": stage, "table": card.table},
            16,
            bold=True,
        ),
        *division_line(card.division),
        Spacer(1, 4 * mm),
        *seats,
    ]
    top = Table([[heading, scorer]], colWidths=[width() - SCORER_COLUMN, SCORER_COLUMN])
    top.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
    blank = [[""] * len(card.seats) for _double in card.doubles]
    grid_ = score_grid(
        card.seats,
        blank,
        [double_label(d) for d in card.doubles],
        [""] * len(card.seats),
        row_height=10 * mm,
    )
    signatures = grid(
        [[para(_seat_line(n, name), 10), ""] for n, name in enumerate(card.seats, start=1)],
        [70 * mm, width() - 70 * mm],
        header_rows=0,
        row_height=14 * mm,
    )
    return [
        top,
        *below,
        Spacer(1, 6 * mm),
        grid_,
        Spacer(1, 6 * mm),
        para(_("Signatures: each player signs that the totals are right."), 10),
        Spacer(1, 2 * mm),
        signatures,
    ]


def cards_of(
    *,
    tables: list[tuple[int, int]],
    request_base: str,
    divisions: Mapping[int, str] | None = None,
) -> list[TableCard]:
    """The cards of ``tables`` (table number, match id), in that order; ``divisions``: each
    table's division (by table number) at an event with divisions."""
    match_ids = [match_id for _table, match_id in tables]
    matches = {m.pk: m for m in Match.objects.filter(pk__in=match_ids)}
    names: dict[int, list[str]] = {match_id: [] for match_id in match_ids}
    for seat in (
        Seat.objects.filter(match_id__in=match_ids)
        .select_related("player")
        .order_by("match_id", "position")
    ):
        names[seat.match_id].append(shown_name(seat.player.display_name) if seat.player else "")
    links = tables_scorer_links(match_ids=match_ids, request_base=request_base)
    cards = []
    for table, match_id in tables:
        options = matches[match_id].options
        rounds = options.get("rounds") or options["max_pip"] + 1
        cards.append(
            TableCard(
                table=table,
                seats=names[match_id],
                doubles=[start_double(options, n) for n in range(1, rounds + 1)],
                url=links[match_id]["url"],
                code=links[match_id]["code"],
                division=(divisions or {}).get(table),
            )
        )
    return cards


def table_cards_pdf(
    *,
    event: str,
    stage: int,
    tables: list[tuple[int, int]],
    request_base: str,
    divisions: Mapping[int, str] | None = None,
) -> bytes:
    """One page per table of the stage, in table order, each naming its division (by table
    number in ``divisions``) at an event with divisions."""
    cards = cards_of(tables=tables, request_base=request_base, divisions=divisions)
    pages = [card_page(event=event, stage=stage, card=card) for card in cards]
    return build(
        pages,
        title=_("%(event)s: stage %(stage)s, table cards") % {"event": event, "stage": stage},
    )
