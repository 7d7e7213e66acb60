"""SVG documents that hold what users wrote (names, titles) as text and attribute values only.

drawsvg escapes text content (``xml.sax.saxutils.escape``) but writes attribute values as it is
given them, so a name in a ``data-`` attribute could close the attribute and add elements. Every
picture is drawn through :func:`drawing`, whose context escapes each attribute value with the
same function as it is written, quotes included, and serialised by :func:`as_svg`, which puts
U+FFFD in place of the characters XML 1.0 cannot hold at all (NUL and other C0 controls, lone
surrogates, U+FFFE/U+FFFF), so that every picture parses whatever a name holds. A name that
other text follows on a line is drawn as a bidi isolate (:func:`isolate`).
"""

from __future__ import annotations

import re
from typing import Any, TextIO
from xml.sax.saxutils import escape

import drawsvg as draw

from chickenfoot.fonts import FAMILY

#: What an attribute value escapes beyond ``&``, ``<`` and ``>``: both quotes, and the white
#: space an XML parser would otherwise normalise to a space.
_ATTRIBUTE_ENTITIES = {'"': "&quot;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
#: Characters outside XML 1.0's Char production (not even a character reference may name them).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: What ``str.splitlines`` breaks a line at: drawsvg would turn a text holding one into lines.
_LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+")


class EscapingContext(draw.Context):
    """drawsvg's context, escaping every attribute value as its tag is written."""

    def _write_tag_args(
        self, args: dict[str, Any], output_file: TextIO, id_map: Any = None
    ) -> None:
        escaped = {
            key: escape(value, _ATTRIBUTE_ENTITIES) if isinstance(value, str) else value
            for key, value in args.items()
        }
        super()._write_tag_args(escaped, output_file, id_map=id_map)


def drawing(width: float, height: float) -> draw.Drawing:
    """An empty picture of ``width`` x ``height`` whose attribute values are escaped."""
    return draw.Drawing(width, height, context=EscapingContext())


def one_line(text: str) -> str:
    """``text`` with each run of line breaks made one space: a label stays one ``<text>``."""
    return _LINE_BREAKS.sub(" ", text)


def isolate(name: str) -> str:
    """``name`` as a bidi isolate (FSI ... PDI): a right-to-left override in it cannot reorder
    the text that follows it on the line."""
    return f"\u2068{name}\u2069"


def text(content: str, size: float, x: float, y: float, **attrs: Any) -> draw.Text:
    """A one-line ``<text>`` (drawsvg escapes its content), in the pages' font stack unless
    ``font_family`` says otherwise."""
    attrs.setdefault("font_family", FAMILY)
    return draw.Text(one_line(content), size, x, y, **attrs)


def as_svg(picture: draw.Drawing) -> str:
    """The SVG document, with U+FFFD for each character XML cannot hold."""
    return _NOT_XML.sub("\ufffd", picture.as_svg())
