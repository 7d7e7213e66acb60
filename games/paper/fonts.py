"""The faces the sheets are set in (``chickenfoot.fonts.FACES``: Noto Sans and its Lao, Thai
and Armenian faces, from the repository), registered with ReportLab and embedded in each PDF.

ReportLab sets a run of text in one font and has no fallback, so ``runs`` cuts a text into runs
each of which one face can draw: a name in Lao is set in Noto Sans Lao, the Latin beside it in
Noto Sans (Noto Sans Math has no bold face: its regular one stands in). A character no face
has (Han, an emoji) is printed as U+FFFD, and a mark or format character no face has (a
variation selector) is left out: each face would draw it as an empty box that reads back as
nothing.

Every run is shaped by HarfBuzz (``games.paper.shaping``): registering the faces makes them
``ShapingFont``s and puts the shaping in place, and ``games.paper.layout.style`` turns it on
for each paragraph.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics

from chickenfoot.fonts import FACES
from games.paper import shaping

#: What a character no face has is printed as (Noto Sans has it).
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class Typeface:
    #: ReportLab's names of the regular and bold faces.
    regular: str
    bold: str
    #: The characters (code points) it has.
    chars: frozenset[int]

    def name(self, *, bold: bool = False) -> str:
        return self.bold if bold else self.regular


@functools.cache
def typefaces() -> tuple[Typeface, ...]:
    """Every face, registered once per process (shaped: see above), in the order a character is
    looked for."""
    shaping.install()
    found = []
    for face in FACES:
        regular = shaping.ShapingFont(face.stem, str(face.path()))
        bold = (
            shaping.ShapingFont(f"{face.stem}-Bold", str(face.path(bold=True)))
            if face.has_bold
            else regular
        )
        pdfmetrics.registerFont(regular)
        pdfmetrics.registerFont(bold)
        # (ReportLab's map holds the cmap's end marker, U+FFFF, a noncharacter: not drawn)
        chars = frozenset(regular.face.charToGlyph) & frozenset(bold.face.charToGlyph) - {0xFFFF}
        found.append(Typeface(regular=regular.fontName, bold=bold.fontName, chars=chars))
    return tuple(found)


def typeface() -> Typeface:
    """The main face (Latin): a paragraph's or a cell's own font."""
    return typefaces()[0]


def runs(text: str) -> list[tuple[Typeface, str]]:
    """``text`` cut into runs, each with the face that draws it: a character stays in the run
    before it while that run's face has it (a space or a combining mark keeps its word's face),
    else starts a run in the first face that has it (or is replaced: see above)."""
    faces = typefaces()
    cut: list[tuple[Typeface, str]] = []
    for char in text:
        code = ord(char)
        if cut and code in cut[-1][0].chars:
            cut[-1] = (cut[-1][0], cut[-1][1] + char)
            continue
        face = next((f for f in faces if code in f.chars), None)
        if face is None:
            if unicodedata.category(char) in ("Mn", "Me", "Cf"):
                continue
            face, char = faces[0], REPLACEMENT
        if cut and cut[-1][0] is face:
            cut[-1] = (face, cut[-1][1] + char)
        else:
            cut.append((face, char))
    return cut
