"""The default avatar: the initials of a player's name on a coloured disc, as an SVG.

The letters are the glyph outlines of the bundled fonts (``chickenfoot.fonts``: Noto Sans and
its Lao, Thai and Armenian faces), drawn as paths, so that the picture looks the same wherever
it is shown, also as an ``<img>`` under the SVG policy that loads no font. The name itself is
the picture's ``<title>`` (its text for a screen reader), escaped as every picture's text is
(``chickenfoot.svg``); the initials become path data, never text. A letter no bundled face has
(a Chinese character, an emoji) is passed over; a name with none draws the disc alone.
"""

from __future__ import annotations

import hashlib
import threading
import unicodedata
from functools import cache, lru_cache

import drawsvg as draw
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

from chickenfoot.fonts import FACES
from chickenfoot.svg import as_svg, drawing

#: The picture's side, in its own units (it scales to any size).
SIDE = 256
#: The letters' cap height, as a share of the side.
LETTER_HEIGHT = 0.36
#: The discs' colours (white letters on each keep a contrast of at least 4.5:1), one chosen
#: by the player's id.
PALETTE = (
    "#1f5f8b",
    "#8b1f4f",
    "#2e6b30",
    "#7a4a00",
    "#5b3a8c",
    "#00696b",
    "#9c2f1b",
    "#45525e",
)

#: The faces are read lazily (a table when first asked for), and fontTools' lazy reading is not
#: safe across threads: a second thread may find a table half read. Every read of a face holds
#: this lock (re-entrant: a drawing asks which face has a letter).
_FONTS = threading.RLock()


@cache
def _font(face_index: int) -> TTFont:
    return TTFont(FACES[face_index].path(bold=True), lazy=True)


def initials(name: str) -> str:
    """Up to two letters: the first letter of the name's first word and of its last word,
    upper-cased, among those the bundled faces can draw."""
    words = [w for w in name.split() if any(_drawable(c) for c in w)]
    if not words:
        return ""
    chosen = [words[0]] if len(words) == 1 else [words[0], words[-1]]
    letters = [next(c for c in word if _drawable(c)) for word in chosen]
    return "".join(_upper(c) for c in letters)


def _drawable(char: str) -> bool:
    return unicodedata.category(char)[0] in "LN" and _face_of(char) is not None


def _upper(char: str) -> str:
    upper = char.upper()
    return upper if len(upper) == 1 and _face_of(upper) is not None else char


@lru_cache(maxsize=1024)
def _face_of(char: str) -> int | None:
    """The first bundled face that has a glyph for ``char``."""
    with _FONTS:
        for index in range(len(FACES)):
            if ord(char) in (_font(index).getBestCmap() or {}):
                return index
    return None


def _letters_path(letters: str) -> tuple[str, float]:
    """The outlines of ``letters`` set on one line from x = 0, baseline at y = 0 (SVG's y
    downwards), in units of the cap height; and the line's width in those units."""
    paths: list[str] = []
    x = 0.0
    with _FONTS:
        for char in letters:
            face = _face_of(char)
            if face is None:
                continue
            font = _font(face)
            glyphs = font.getGlyphSet()
            name = (font.getBestCmap() or {})[ord(char)]
            scale = 1 / _cap_height(font)
            pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:.3f}".rstrip("0").rstrip("."))
            glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, x, 0)))
            paths.append(pen.getCommands())
            x += glyphs[name].width * scale
    return " ".join(p for p in paths if p), x


def _cap_height(font: TTFont) -> float:
    os2 = font["OS/2"]
    return float(getattr(os2, "sCapHeight", 0) or font["head"].unitsPerEm * 0.7)


@lru_cache(maxsize=4096)
def initials_svg(name: str, player_id: int) -> str:
    """The default avatar of the player ``player_id`` named ``name``."""
    picture = drawing(SIDE, SIDE)
    picture.append_title(name)
    colour = PALETTE[player_id % len(PALETTE)]
    picture.append(draw.Circle(SIDE / 2, SIDE / 2, SIDE / 2, fill=colour))
    path, width = _letters_path(initials(name))
    if path:
        height = SIDE * LETTER_HEIGHT
        left = (SIDE - width * height) / 2
        baseline = (SIDE + height) / 2
        transform = f"translate({left:.2f} {baseline:.2f}) scale({height:.3f})"
        picture.append(draw.Path(d=path, fill="#ffffff", transform=transform))
    return as_svg(picture)


@lru_cache(maxsize=32_768)
def initials_digest(name: str, player_id: int) -> str:
    """The SHA-256 (hex) of the default avatar's bytes: its address. Kept for many more
    players than the pictures (64 characters each, about 5 MiB when full): every ``hello`` of
    a match socket names its seats' avatars, and ten thousand sockets show thousands of
    players, more than ``initials_svg`` keeps, so each would be drawn again to be named."""
    return hashlib.sha256(initials_svg(name, player_id).encode()).hexdigest()
