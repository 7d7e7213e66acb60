"""What every sheet shares: user text made safe to set, the styles, the page and its build.

User-written text (names, reasons) is data: ``text`` makes it printable (no control
characters, no lone surrogates) and ``markup`` escapes it for ReportLab's paragraph markup, so
that a name like ``<font size=80>`` is set as it is written, and sets each run of it in the face
that draws it (``games.paper.fonts.runs``): a name in Lao in Noto Sans Lao. Every text a sheet
shows, a grid's cells included, is such a paragraph, and is shaped by HarfBuzz (``style``
turns it on; ``games.paper.shaping``). A text that must not be broken (an address, a code) is
a ``OneLine``: it shrinks to the width it is given instead. What is drawn on a page's canvas
rather than as a flowable (a running header, a page number, a rotated heading) goes through
``draw_text``, shaped and set in each script's face the same way.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal
from xml.sax.saxutils import escape, quoteattr

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import ShapedStr, shapeStr
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle

from games.paper.fonts import REPLACEMENT, runs, typeface

PAGE = A4
MARGIN = 15 * mm
#: Characters a sheet never sets: controls (a line break is a blank), and lone surrogates.
_BLANKS = re.compile(r"[\t\n\r\x0b\x0c\x1c-\x1f\x85\u2028\u2029]+")
_INVISIBLE = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ud800-\udfff]")


def text(value: str) -> str:
    """``value`` as a sheet prints it: one line, controls and lone surrogates shown as U+FFFD."""
    return _INVISIBLE.sub(REPLACEMENT, _BLANKS.sub(" ", value))


def markup(value: str, *, bold: bool = False) -> str:
    """``value`` for a ``Paragraph``: printable (``text``), its ``&``, ``<`` and ``>`` escaped,
    and each run not in the main face wrapped in a ``<font>`` naming the face that draws it."""
    main = typeface()
    return "".join(
        escape(run)
        if face is main
        else f"<font face={quoteattr(face.name(bold=bold))}>{escape(run)}</font>"
        for face, run in runs(text(value))
    )


def style(size: float, *, bold: bool = False, leading: float | None = None) -> ParagraphStyle:
    face = typeface()
    return ParagraphStyle(
        f"s{size}{bold}",
        fontName=face.bold if bold else face.regular,
        fontSize=size,
        leading=leading if leading is not None else size * 1.25,
        shaping=1,  # HarfBuzz (games.paper.shaping)
    )


def para(value: str, size: float = 10, *, bold: bool = False) -> Paragraph:
    """A paragraph of user text (escaped), or of the sheet's own words."""
    return Paragraph(markup(value, bold=bold), style(size, bold=bold))


class OneLine(Flowable):
    """``value`` (escaped, as ``para``) on one line, never broken: at ``size`` when it fits the
    width it is given, else as much smaller as it takes (``fitted_size``); aligned to the left
    or, with ``right``, to the right."""

    def __init__(self, value: str, size: float, *, bold: bool = False, right: bool = False) -> None:
        super().__init__()
        self.value, self.size, self.bold, self.right = value, size, bold, right
        natural = self._paragraph(size)
        natural.wrap(1e6, 1e6)  # wide enough for any one line
        #: Its width at ``size``.
        self.natural_width = max(natural.getActualLineWidths0(), default=0.0)
        self._set: Paragraph | None = None

    def _paragraph(self, size: float) -> Paragraph:
        base = style(size, bold=self.bold)
        one_line = ParagraphStyle(
            f"{base.name}-line",
            parent=base,
            splitLongWords=0,
            alignment=TA_RIGHT if self.right else TA_LEFT,
        )
        return Paragraph(markup(self.value, bold=self.bold), one_line)

    def fitted_size(self, width: float) -> float:
        """The size it is set at in ``width``: ``size``, or less (to a hundredth of a point)."""
        if self.natural_width <= width:
            return self.size
        return math.floor(self.size * width / self.natural_width * 100) / 100

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        self._set = self._paragraph(self.fitted_size(availWidth))
        _width, self.height = self._set.wrap(availWidth, availHeight)
        self.width = availWidth
        return self.width, self.height

    def draw(self) -> None:
        paragraph = self._set or self._paragraph(self.size)  # platypus wraps before it draws
        paragraph.drawOn(self.canv, 0, 0)


Shaped = list[tuple[str, Any, float]]


def shaped_line(value: str, size: float, *, bold: bool = False) -> tuple[Shaped, float]:
    """``value`` (printable as ``text`` makes it) cut into runs, each in its face and shaped by
    HarfBuzz as a paragraph is: (font name, shaped text, advance) each, and the whole width."""
    pieces = []
    for face, run in runs(text(value)):
        font = face.name(bold=bold)
        shaped = shapeStr(run, font, size)
        advance = (
            sum(data.x_advance for data in shaped.__shapeData__) * size / 1000
            if isinstance(shaped, ShapedStr)
            else pdfmetrics.stringWidth(shaped, font, size)
        )
        pieces.append((font, shaped, advance))
    return pieces, sum(advance for _font, _shaped, advance in pieces)


def _draw_shaped(canvas: Canvas, x: float, y: float, pieces: Shaped, size: float) -> None:
    line = canvas.beginText(x, y)
    for font, shaped, _advance in pieces:
        line.setFont(font, size)
        line.textOut(shaped)
    canvas.drawText(line)


def draw_text(
    canvas: Canvas,
    x: float,
    y: float,
    value: str,
    size: float,
    *,
    bold: bool = False,
    align: Literal["left", "right", "centre"] = "left",
) -> float:
    """Draw ``value`` (user text or the sheet's own words: printable as ``text`` makes it) on
    one line straight on ``canvas``, its baseline at ``y`` and its ``align`` ("left", "right"
    or "centre") at ``x``: each run in its face, shaped by HarfBuzz as a paragraph is. Returns
    its width."""
    pieces, total = shaped_line(value, size, bold=bold)
    start = {"left": x, "right": x - total, "centre": x - total / 2}[align]
    _draw_shaped(canvas, start, y, pieces, size)
    return total


class Figures(Flowable):
    """A table cell of the sheet's own short lines (``T3 · 1/4 · 5``, ``bye · 3``), one line
    each (``value`` split at line breaks), shaped and set in each script's face as ``draw_text``
    sets them, without a paragraph's line breaking: a long field's table has thousands of such
    cells. A line wider than the cell's column is set as a paragraph instead (``lines``)."""

    def __init__(self, value: str, size: float) -> None:
        super().__init__()
        self.size, self.leading = size, size * 1.25
        self.values = value.split("\n")
        self.shaped = [shaped_line(line, size) for line in self.values]
        self._wrapped: Paragraph | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        if any(line_width > availWidth for _pieces, line_width in self.shaped):
            self._wrapped = lines(self.values, self.size)
            return self._wrapped.wrap(availWidth, availHeight)
        self._wrapped = None
        self.width = max(line_width for _pieces, line_width in self.shaped)
        self.height = self.leading * len(self.shaped)
        return self.width, self.height

    def draw(self) -> None:
        if self._wrapped is not None:
            self._wrapped.drawOn(self.canv, 0, 0)
            return
        descent = self.leading - self.size * 1.07  # Noto Sans's ascent: 1.069 em
        for number, (pieces, _width) in enumerate(self.shaped):
            baseline = self.height - (number + 1) * self.leading + descent
            _draw_shaped(self.canv, 0, baseline, pieces, self.size)


def lines(values: Sequence[str], size: float = 10, *, bold: bool = False) -> Paragraph:
    """One paragraph of several lines of text (each escaped as ``para`` escapes it): a cell
    of two short lines costs a table one paragraph, not two."""
    return Paragraph(
        "<br/>".join(markup(value, bold=bold) for value in values), style(size, bold=bold)
    )


def grid(
    rows: Sequence[Sequence[Any]],
    widths: Sequence[float] | None = None,
    *,
    header_rows: int = 1,
    footer_rows: int = 0,
    size: float = 10,
    row_height: float | None = None,
    figures: Sequence[int] = (),
) -> Table:
    """A ruled table; its first ``header_rows`` and last ``footer_rows`` rows in bold; every
    row but the header ``row_height`` tall when given (room to write in). A cell that is a
    string is set as a paragraph (``para``) of ``size``, but for the sheet's own figures: a
    string cell of the columns ``figures`` lists (below the header) is a ``Figures``, a line
    each, shaped as a paragraph, without its cost. A figures column never holds what a user
    wrote."""
    commands: list[tuple[Any, ...]] = [
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]
    if header_rows:
        commands += [
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.HexColor("#e8e8e8")),
        ]
    if footer_rows:
        commands += [
            ("LINEABOVE", (0, -footer_rows), (-1, -footer_rows), 1.5, colors.black),
        ]
    heights = None
    if row_height is not None:
        heights = [None] * header_rows + [row_height] * (len(rows) - header_rows)
    bold = set(range(header_rows)) | set(range(len(rows) - footer_rows, len(rows)))
    shaped_figures = set(figures)

    def cell_of(number: int, column: int, cell: Any) -> Any:
        if not isinstance(cell, str) or not cell:
            return cell
        if column in shaped_figures and number not in bold:
            return Figures(cell, size)
        return para(cell, size, bold=number in bold)

    cells = [
        [cell_of(number, column, cell) for column, cell in enumerate(row)]
        for number, row in enumerate(rows)
    ]
    table = Table(cells, colWidths=widths, rowHeights=heights, repeatRows=header_rows)
    table.setStyle(TableStyle(commands))
    return table


def _page_foot(footer: Callable[[int], str]) -> Callable[[Canvas, Any], None]:
    """What draws ``footer(page number)`` at the foot of each page (``draw_text``: each run in
    its face, shaped)."""

    def draw(canvas: Canvas, document: Any) -> None:
        draw_text(canvas, document.leftMargin, MARGIN / 2, footer(canvas.getPageNumber()), 8)

    return draw


def build(
    pages: Sequence[Sequence[Flowable]],
    *,
    title: str,
    sideways: bool = False,
    footer: Callable[[int], str] | None = None,
) -> bytes:
    """The PDF of ``pages`` (each a list of flowables, each page starting on a new sheet), on
    A4 upright, or lying on its side (landscape) when ``sideways``; ``footer`` gives the line
    printed at the foot of each page from its number (none when not given)."""
    from reportlab.platypus import PageBreak

    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=landscape(PAGE) if sideways else PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=text(title),
        author="Chickenfoot",
    )
    story: list[Flowable] = []
    for number, page in enumerate(pages):
        if number:
            story.append(PageBreak())
        story.extend(page)
    if not story:
        story.append(para(" "))
    if footer is None:
        document.build(story)
    else:
        document.build(story, onFirstPage=_page_foot(footer), onLaterPages=_page_foot(footer))
    return out.getvalue()


def width(*, sideways: bool = False) -> float:
    """The width a sheet's content may take (on a landscape page when ``sideways``)."""
    return (landscape(PAGE) if sideways else PAGE)[0] - 2 * MARGIN
