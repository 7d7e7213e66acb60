"""Reading back which glyphs a PDF draws and where, to hold them against HarfBuzz's own shaping.

``drawn`` runs each page's content stream (pypdf parses it) as a PDF reader does: the graphics
state's matrix, the text matrix, text rise, char and word spacing, and each shown code's advance
from the font's ``/Widths`` and a ``TJ``'s adjustments. A code is told apart from another by
its glyph in the embedded subset font (fontTools reads it): its outline with every component
resolved, and its advance. The same key, taken from the repository's font file for the glyph
id HarfBuzz chose, says whether the PDF drew that glyph.

``shaped_as_harfbuzz`` is the check a sheet's test makes: every time ``text`` is drawn (set in
one face), its glyphs and their positions are HarfBuzz's shaping of ``text`` with that face's
file, at the size it is drawn.
"""

from __future__ import annotations

import functools
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uharfbuzz
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from pypdf.generic import ContentStream

from chickenfoot.fonts import FACES

#: How far a glyph may sit from where HarfBuzz puts it, in points (the content stream's numbers
#: are rounded; a misplaced mark is off by tens of points at these sizes).
TOLERANCE = 0.02

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _times(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t,
            e * q + f * s + u)  # fmt: skip


@dataclass(frozen=True)
class Glyph:
    #: The font's PostScript name without the subset tag: ``NotoSansThai-Bold``.
    face: str
    #: The glyph's outline and advance (``outline_key``).
    key: tuple[Any, ...]
    #: Its origin on the page and the size it is drawn at, in points.
    x: float
    y: float
    size: float


def outline_key(font: TTFont, name: str) -> tuple[Any, ...]:
    """What tells a glyph apart whatever its id: its outline, components resolved, and its
    advance."""
    glyphs = font.getGlyphSet()
    pen = DecomposingRecordingPen(glyphs)
    glyphs[name].draw(pen)
    return (font["hmtx"][name][0], repr(pen.value))


class _Font:
    """A font resource of a page: its widths and each code's glyph key."""

    def __init__(self, resource: Any) -> None:
        self.face = str(resource["/BaseFont"]).lstrip("/").split("+")[-1]
        self.first = int(resource.get("/FirstChar", 0))
        self.widths = [float(w) for w in resource.get("/Widths", [])]
        descriptor = resource.get("/FontDescriptor")
        file = descriptor.get("/FontFile2") if descriptor is not None else None
        self.font = TTFont(io.BytesIO(file.get_object().get_data())) if file else None
        self.keys: dict[int, tuple[Any, ...]] = {}

    def width(self, code: int) -> float:
        index = code - self.first
        return self.widths[index] / 1000 if 0 <= index < len(self.widths) else 0.0

    def key(self, code: int) -> tuple[Any, ...]:
        if code not in self.keys:
            if self.font is None:
                self.keys[code] = ("unembedded", self.face, code)
            else:
                cmap = next(t.cmap for t in self.font["cmap"].tables if t.cmap)
                self.keys[code] = outline_key(self.font, cmap.get(code, ".notdef"))
        return self.keys[code]


def _codes(operand: Any) -> bytes:
    """A string operand's bytes (pypdf decodes a string it can read as text)."""
    original = getattr(operand, "get_original_bytes", None)
    return original() if original is not None else bytes(operand)


def drawn(pdf: bytes) -> list[list[Glyph]]:
    """Each page's glyphs in the order its content stream draws them."""
    reader = PdfReader(io.BytesIO(pdf))
    return [_page_glyphs(reader, page) for page in reader.pages]


def _page_glyphs(reader: PdfReader, page: Any) -> list[Glyph]:
    resources = page["/Resources"].get("/Font", {})
    fonts: dict[str, _Font] = {}
    out: list[Glyph] = []
    ctm, stack = IDENTITY, []
    tm = tlm = IDENTITY
    font: _Font | None = None
    size = rise = char_space = word_space = leading = 0.0
    scale = 1.0

    def show(codes: bytes, adjust: float = 0.0) -> None:
        nonlocal tm
        assert font is not None, "text shown before Tf"
        if adjust:
            tm = _times((1, 0, 0, 1, -adjust / 1000 * size * scale, 0), tm)
        for code in codes:
            _a, _b, c, d, e, f = _times(_times((size * scale, 0, 0, size, 0, rise), tm), ctm)
            out.append(Glyph(font.face, font.key(code), e, f, math.hypot(c, d)))
            advance = font.width(code) * size + char_space + (word_space if code == 32 else 0)
            tm = _times((1, 0, 0, 1, advance * scale, 0), tm)

    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        op = operator.decode()
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _times(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif op == "BT":
            tm = tlm = IDENTITY
        elif op == "Tf":
            name = str(operands[0])
            if name not in fonts:
                fonts[name] = _Font(resources[name].get_object())
            font, size = fonts[name], float(operands[1])
        elif op == "Tm":
            tm = tlm = tuple(float(v) for v in operands)  # type: ignore[assignment]
        elif op in ("Td", "TD"):
            tx, ty = (float(v) for v in operands)
            if op == "TD":
                leading = -ty
            tm = tlm = _times((1, 0, 0, 1, tx, ty), tlm)
        elif op == "T*":
            tm = tlm = _times((1, 0, 0, 1, 0, -leading), tlm)
        elif op == "TL":
            leading = float(operands[0])
        elif op == "Ts":
            rise = float(operands[0])
        elif op == "Tc":
            char_space = float(operands[0])
        elif op == "Tw":
            word_space = float(operands[0])
        elif op == "Tz":
            scale = float(operands[0]) / 100
        elif op == "Tj":
            show(_codes(operands[0]))
        elif op == "TJ":
            pending = 0.0
            for item in operands[0]:
                if isinstance(item, (int, float)) or hasattr(item, "as_numeric"):
                    pending += float(item)
                else:
                    show(_codes(item), pending)
                    pending = 0.0
            if pending:
                tm = _times((1, 0, 0, 1, -pending / 1000 * size * scale, 0), tm)
        elif op in ("'", '"'):
            tm = tlm = _times((1, 0, 0, 1, 0, -leading), tlm)
            if op == '"':
                word_space, char_space = float(operands[0]), float(operands[1])
            show(_codes(operands[-1]))
    return out


@functools.cache
def _face_file(psname: str) -> Path:
    """The repository's font file whose PostScript name is ``psname``."""
    for face in FACES:
        for bold in (False, True):
            path = face.path(bold=bold)
            if TTFont(path, lazy=True)["name"].getDebugName(6) == psname:
                return path
    raise LookupError(psname)


@functools.cache
def _original(path: Path) -> TTFont:
    return TTFont(path)


@dataclass(frozen=True)
class Shaped:
    """HarfBuzz's shaping of a text: each glyph's key and its origin, in em (1 = the size)."""

    keys: tuple[tuple[Any, ...], ...]
    origins: tuple[tuple[float, float], ...]


@functools.cache
def harfbuzz(text: str, psname: str) -> Shaped:
    """``text`` shaped by HarfBuzz with the face ``psname``'s file, its default features."""
    path = _face_file(psname)
    font = uharfbuzz.Font(uharfbuzz.Face(uharfbuzz.Blob.from_file_path(str(path))))
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    uharfbuzz.shape(font, buffer)
    original = _original(path)
    order = original.getGlyphOrder()
    em = original["head"].unitsPerEm
    keys, origins, pen_x, pen_y = [], [], 0, 0
    for info, position in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True):
        keys.append(outline_key(original, order[info.codepoint]))
        origins.append(((pen_x + position.x_offset) / em, (pen_y + position.y_offset) / em))
        pen_x += position.x_advance
        pen_y += position.y_advance
    return Shaped(tuple(keys), tuple(origins))


def _matches(glyphs: list[Glyph], start: int, shaped: Shaped, face: str) -> bool:
    run = glyphs[start : start + len(shaped.keys)]
    return len(run) == len(shaped.keys) and all(
        g.face == face and g.key == key for g, key in zip(run, shaped.keys, strict=True)
    )


def shaped_as_harfbuzz(pdf: bytes, text: str, face: str) -> int:
    """How many times ``text`` is drawn in ``face``, each time with HarfBuzz's glyphs at
    HarfBuzz's positions (within ``TOLERANCE``); fails on a place drawn with its glyphs
    elsewhere (a line broken inside it). Zero when its glyphs are drawn nowhere."""
    return len(places(pdf, text, face))


def places(pdf: bytes, text: str, face: str) -> list[list[Glyph]]:
    """Each place ``text`` is drawn in ``face`` (``NotoSansLao-Bold``): its glyphs, checked
    to be HarfBuzz's at HarfBuzz's positions (see ``shaped_as_harfbuzz``)."""
    shaped = harfbuzz(text, face)
    found = []
    for glyphs in drawn(pdf):
        for start in range(len(glyphs)):
            if not _matches(glyphs, start, shaped, face):
                continue
            run = glyphs[start : start + len(shaped.keys)]
            size = run[0].size
            ox, oy = shaped.origins[0]
            expected = [((x - ox) * size, (y - oy) * size) for x, y in shaped.origins]
            actual = [(g.x - run[0].x, g.y - run[0].y) for g in run]
            offs = [
                max(abs(ex - ax), abs(ey - ay))
                for (ex, ey), (ax, ay) in zip(expected, actual, strict=True)
            ]
            worst = max(range(len(offs)), key=offs.__getitem__)
            assert offs[worst] <= TOLERANCE, (
                f"{text!r} in {face}: glyph {worst} is drawn at {actual[worst]}, "
                f"{offs[worst]:.3f} pt from where HarfBuzz puts it, {expected[worst]}"
            )
            found.append(run)
    return found
