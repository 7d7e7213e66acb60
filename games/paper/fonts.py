"""The typeface the sheets are set in: DejaVu Sans (Debian's ``fonts-dejavu-core``) when the
machine has it, else the PDF's own Helvetica, with what Helvetica cannot draw replaced.

More scripts can be covered later by adding their TTF files to ``CANDIDATES``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

#: Where the regular and bold faces are looked for, in order.
CANDIDATES = (
    (
        "DejaVuSans",
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ),
)


@dataclass(frozen=True)
class Typeface:
    regular: str
    bold: str
    #: Helvetica draws Latin-1 only (its PDF encoding): other characters become "?".
    latin1_only: bool


@functools.cache
def typeface() -> Typeface:
    """The registered typeface (registered once per process)."""
    for name, regular, bold in CANDIDATES:
        if regular.is_file() and bold.is_file():
            pdfmetrics.registerFont(TTFont(name, str(regular)))
            pdfmetrics.registerFont(TTFont(f"{name}-Bold", str(bold)))
            return Typeface(regular=name, bold=f"{name}-Bold", latin1_only=False)
    return Typeface(regular="Helvetica", bold="Helvetica-Bold", latin1_only=True)
