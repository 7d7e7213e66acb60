"""Every text on the sheets shaped by HarfBuzz (uharfbuzz), as a browser shapes a page: Thai
and Lao marks stacked and placed by the font's own GSUB and GPOS rules, Armenian and Latin
ligatures and kerning.

ReportLab does the rest: a paragraph whose style says ``shaping=1`` (``layout.style`` does) is
cut into words, each word's glyphs and offsets are drawn with ``TJ`` and text rise. Three things
change here:

- **Shaping a word** (``shape_frag_word``, in place of ReportLab's ``shapeFragWord``): ReportLab
  shapes a whole word with its first run's face, so ``(ສົມພອນ)`` (brackets in Noto Sans, the name
  in Noto Sans Lao) comes out as empty boxes. Here each run of one face is shaped with that face,
  with HarfBuzz's default features, and its result is kept per face and text (a crosstable sets
  the same names and numbers again and again).
- **What a glyph reads back as** (``ShapingFont``'s ToUnicode map): ReportLab names a glyph no
  character maps to (ปิ่'s shifted tone mark, a ligature) by a private-use character, so copying
  or searching a shaped name fails. Here each glyph is given a code of its own for the text it
  was shaped from: a ligature reads back as its letters (Armenian ``մն`` as ``մն``, not as
  ``ﬓ``, the character the font maps to the same glyph).
- **A word too long for its line** (``ShapedText``): ReportLab breaks it a character at a time
  and draws the pieces as bare codes, unshaped; here each piece keeps its glyphs' shaping, and
  a broken word joined again (a table wraps a cell more than once) is shaped anew from the text
  it came from (``ShapingFont.source``).

``install`` puts ``shape_frag_word`` where ReportLab looks for it (its paragraphs, and its
``shapeStr``, which ``layout.draw_text`` uses: a canvas's own ``drawString`` shapes nothing
without rlbidi); ``games.paper.fonts.typefaces`` calls it when it registers the faces, so every
sheet is shaped.
"""

from __future__ import annotations

import functools
import itertools
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import uharfbuzz
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import ShapeData, ShapedStr, TTFont, makeShapedFragWord
from reportlab.platypus import paragraph

#: The private-use code points a glyph is given when no character names what it was shaped
#: from (the font's own cmap has none of them).
_PRIVATE = (range(0xE000, 0xF900), range(0xF0000, 0xFFFFE), range(0x100000, 0x10FFFE))
#: How many shaped texts each face keeps.
CACHED_TEXTS = 8192


class ShapedText(ShapedStr):
    """ReportLab's ``ShapedStr`` whose characters keep their glyphs' shaping one by one: a
    word too long for its line is split a character at a time (``_splitFragWord``), and each
    piece is then drawn shaped, not as bare codes."""

    def __iter__(self) -> Iterator[str]:
        for index in range(len(self)):
            yield self[index]


@dataclass(frozen=True)
class Shaped:
    """A run of text in one face as HarfBuzz shapes it: for each part of the run (a frag), the
    codes that draw its glyphs, ReportLab's ``ShapeData`` of each (HarfBuzz's advance and
    offset and the glyph's own width, in thousandths of the size) and its advance; and whether
    any of it differs from setting the characters one after the other."""

    parts: tuple[tuple[str, list[ShapeData], float], ...]
    changed: bool


class ShapingFont(TTFont):
    """A TrueType face shaped with HarfBuzz, whose PDF subsets read back as the text shaped."""

    def __init__(self, name: str, filename: str) -> None:
        super().__init__(name, filename)
        self._hb_font = uharfbuzz.Font(uharfbuzz.Face(uharfbuzz.Blob.from_file_path(filename)))
        self._scale = 1000 / self._hb_font.face.upem
        self._lock = threading.Lock()
        self._codes: dict[tuple[int, str], str] = {}
        self._free = itertools.chain(*_PRIVATE)
        #: What each private code reads back as.
        self._texts: dict[int, str] = {}
        self.shaped = functools.lru_cache(maxsize=CACHED_TEXTS)(self._shape)

    def source(self, text: str) -> str:
        """``text`` with each code this face gave a glyph (``_code``) back as the text it was
        shaped from: ReportLab joins the pieces of a split word again when it wraps a
        paragraph a second time (a table's cell is wrapped more than once), and shapes that."""
        return str(text).translate(self._texts) if self._texts else str(text)

    def _shape(self, texts: tuple[str, ...]) -> Shaped:
        """``texts`` (a run of frags in this face) shaped by HarfBuzz as one text, with its
        default features: each glyph with the code that draws it and reads back as its part
        of the text, in the part its cluster starts in."""
        text = "".join(texts)
        if not text:
            return Shaped(parts=tuple(("", [], 0.0) for _part in texts), changed=False)
        owner = [n for n, part in enumerate(texts) for _char in part]  # each character's part
        parts: list[tuple[list[str], list[ShapeData]]] = [([], []) for _part in texts]
        advances = [0.0] * len(texts)
        changed = False
        buffer = uharfbuzz.Buffer()
        buffer.cluster_level = uharfbuzz.BufferClusterLevel.MONOTONE_CHARACTERS
        buffer.add_str(text)
        buffer.guess_segment_properties()
        uharfbuzz.shape(self._hb_font, buffer)
        infos, positions = buffer.glyph_infos, buffer.glyph_positions
        starts = sorted({info.cluster for info in infos})
        ends = dict(zip(starts, [*starts[1:], len(text)], strict=True))
        first = 0
        while first < len(infos):
            cluster = infos[first].cluster
            last = first
            while last + 1 < len(infos) and infos[last + 1].cluster == cluster:
                last += 1
            ids = [info.codepoint for info in infos[first : last + 1]]
            codes = self._cluster_codes(ids, text[cluster : ends[cluster]])
            for code, position in zip(codes, positions[first : last + 1], strict=True):
                x_advance = position.x_advance * self._scale
                y_advance = position.y_advance * self._scale
                x_offset = position.x_offset * self._scale
                y_offset = position.y_offset * self._scale
                width = self.face.charWidths[ord(code)]
                part = owner[cluster]
                parts[part][0].append(code)
                parts[part][1].append(
                    ShapeData(cluster, x_advance, y_advance, x_offset, y_offset, width)
                )
                advances[part] += x_advance
                changed = changed or bool(x_offset or y_offset) or x_advance != width
            first = last + 1
        joined = tuple(
            ("".join(codes), data, advance)
            for (codes, data), advance in zip(parts, advances, strict=True)
        )
        changed = changed or any(
            codes != part for (codes, _data, _advance), part in zip(joined, texts, strict=True)
        )
        return Shaped(parts=joined, changed=changed)

    def _cluster_codes(self, ids: Sequence[int], text: str) -> list[str]:
        """The codes of a cluster's glyphs. One glyph reads back as the whole text (a ligature
        as its letters). Several read back as the text's characters, or as those of its
        compatibility decomposition (Thai sara am is drawn as nikhahit and sara aa), each
        glyph the character the cmap maps to it and the others in turn (a tone mark's smaller
        form); failing that, the first as the whole text and the others as nothing."""
        if len(ids) == 1:
            return [self._code(ids[0], text)]
        chars = self.face.charToGlyph
        for letters in (text, unicodedata.normalize("NFKD", text)):
            left = list(letters)
            found: list[str | None] = []
            for gid in ids:
                char = next((c for c in left if chars.get(ord(c)) == gid), None)
                if char is not None:
                    left.remove(char)
                found.append(char)
            if found.count(None) == len(left):
                rest = iter(left)
                pairs = zip(ids, found, strict=True)
                return [self._code(gid, char or next(rest)) for gid, char in pairs]
        return [self._code(gid, text if n == 0 else "") for n, gid in enumerate(ids)]

    def _code(self, gid: int, text: str) -> str:
        """The code of glyph ``gid`` read back as ``text``: the character itself when the
        font's cmap maps it to that glyph, else a private-use code of its own."""
        if len(text) == 1 and self.face.charToGlyph.get(ord(text)) == gid:
            return text
        with self._lock:
            code = self._codes.get((gid, text))
            if code is None:
                face = self.face
                point = next((p for p in self._free if p not in face.charToGlyph), None)
                if point is None:  # every private code given: drawn right, read back as before
                    return next(c for (g, _text), c in self._codes.items() if g == gid)
                face.charToGlyph[point] = gid
                face.charWidths[point] = self._hb_font.get_glyph_h_advance(gid) * self._scale
                self._texts[point] = text
                code = self._codes[(gid, text)] = chr(point)
            return code

    def addObjects(self, doc: Any) -> None:  # noqa: N802 (ReportLab's name)
        """ReportLab's subsets of this face, each with a ToUnicode map that reads a code back as
        the text it was shaped from."""
        state = self.state.get(doc)
        subsets = [list(subset) for subset in state.subsets] if state is not None else []
        super().addObjects(doc)
        face = self.face
        for number, subset in enumerate(subsets):
            name = b"".join((ttfonts.SUBSETN(number), b"+", face.name, face.subfontNameX))
            stream = doc.idToObject["toUnicodeCMap:" + name.decode("pdfdoc")]
            stream.content = to_unicode_cmap(
                name.decode("pdfdoc"), [self._texts.get(code, chr(code)) for code in subset]
            )


def to_unicode_cmap(name: str, texts: list[str]) -> str:
    """A ToUnicode CMap (PDF 32000-1, 9.10.3) reading code ``n`` as ``texts[n]`` (UTF-16, so a
    character beyond the BMP is a surrogate pair; an empty text reads as nothing)."""
    entries = [f"<{code:02X}> <{text.encode('utf-16-be').hex().upper()}>" for code, text in
               enumerate(texts)]  # fmt: skip
    blocks = []
    for start in range(0, len(entries), 100):  # at most 100 to a block
        chunk = entries[start : start + 100]
        blocks += [f"{len(chunk)} beginbfchar", *chunk, "endbfchar"]
    return "\n".join(
        [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            f"/CIDSystemInfo << /Registry ({name}) /Ordering ({name}) /Supplement 0 >> def",
            f"/CMapName /{name} def",
            "/CMapType 2 def",
            "1 begincodespacerange",
            f"<00> <{len(texts) - 1:02X}>",
            "endcodespacerange",
            *blocks,
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
    )


_reportlab_shape_frag_word = ttfonts.shapeFragWord


def shape_frag_word(word: list[Any], features: Any = None, force: bool = False) -> list[Any]:
    """ReportLab's ``shapeFragWord``: ``word`` is ``[width, (frag, text), ...]``; the result
    has the same form, each text a ``ShapedStr`` with HarfBuzz's glyphs and positions, or is
    ``word`` itself when shaping changes nothing. Each run of frags in one face is shaped with
    that face (``features``, ReportLab's own choice, are not used: HarfBuzz's defaults are
    a browser's)."""
    if isinstance(word, ttfonts.ShapedFragWord):
        return word
    frags = word[1:]
    if any(hasattr(frag, "cbDefn") for frag, _text in frags):  # an image or an anchor
        return _reportlab_shape_frag_word(word, force=force)
    out: list[tuple[Any, str]] = []
    width = 0.0
    changed = force
    start = 0
    while start < len(frags):
        end = start + 1
        while end < len(frags) and frags[end][0].fontName == frags[start][0].fontName:
            end += 1
        run = frags[start:end]
        font = pdfmetrics.getFont(run[0][0].fontName)
        if isinstance(font, ShapingFont):
            shaped = font.shaped(tuple(font.source(text) for _frag, text in run))
            for (frag, _text), (codes, data, advance) in zip(run, shaped.parts, strict=True):
                out.append((frag, ShapedText(codes, shapeData=list(data))))
                width += advance * frag.fontSize / 1000
            changed = changed or shaped.changed
        else:
            out += [tuple(frag) for frag in run]
            width += sum(pdfmetrics.stringWidth(t, f.fontName, f.fontSize) for f, t in run)
        start = end
    if not changed:
        return word
    return makeShapedFragWord(word)([width, *out])


def install() -> None:
    """Make ReportLab shape with ``shape_frag_word``: its paragraphs and its ``shapeStr`` look
    the function up by these module names."""
    ttfonts.shapeFragWord = shape_frag_word
    paragraph.shapeFragWord = shape_frag_word
