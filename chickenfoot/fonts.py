"""The typefaces pages, pictures and printed sheets are set in, kept in the repository
(``games/static/games/fonts/``, SIL Open Font License: ``OFL.txt`` there), so that no machine
needs a font package: Noto Sans (Latin, Greek, Cyrillic) with its Lao, Thai and Armenian faces,
and the arrows and the minus, not-equal and less/greater-or-equal signs of Noto Sans Math
(a face without a bold one).

``FAMILY`` is the stack the pages' CSS (``games/static/games/web/fonts.css``) and the SVG
pictures name; the PDFs embed ``FACES`` and set each character in the first face that has it
(``games/paper/fonts.py``). ``MONO_FAMILY`` is the pages' stack for code.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent.parent / "games" / "static" / "games" / "fonts"


@dataclass(frozen=True)
class Face:
    #: The font's own family name, as CSS and SVG name it.
    family: str
    #: Its files' stem: ``<stem>-Regular.ttf`` and ``<stem>-Bold.ttf`` in ``FONT_DIR``.
    stem: str
    #: Whether it has a bold file (else bold text is set in the regular one).
    has_bold: bool = True

    def path(self, *, bold: bool = False) -> Path:
        weight = "Bold" if bold and self.has_bold else "Regular"
        return FONT_DIR / f"{self.stem}-{weight}.ttf"


#: In the order a character is looked for: Latin first, so that digits, spaces and punctuation
#: (which the script faces also carry) come from Noto Sans.
FACES = (
    Face("Noto Sans", "NotoSans"),
    Face("Noto Sans Lao", "NotoSansLao"),
    Face("Noto Sans Thai", "NotoSansThai"),
    Face("Noto Sans Armenian", "NotoSansArmenian"),
    Face("Noto Sans Math", "NotoSansMath", has_bold=False),
)

#: The font-family stack of the pages and the SVG pictures.
FAMILY = ", ".join([*(f"'{face.family}'" for face in FACES), "sans-serif"])

#: The pages' code and the rules' diagrams, which line up by character (a Latin subset of Noto
#: Sans Mono, Debian's fonts-noto-mono, without a bold face); a script's letters in them come
#: from its face in ``FAMILY``. Pages only: no picture or sheet is set in it.
MONO = Face("Noto Sans Mono", "NotoSansMono", has_bold=False)
MONO_FAMILY = ", ".join(
    [f"'{MONO.family}'", *(f"'{face.family}'" for face in FACES[1:]), "monospace"]
)
