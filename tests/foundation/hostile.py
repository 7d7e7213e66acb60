"""Names a hostile player might choose, and how to read a picture back to check that none of
them became markup."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

#: The reported exploit: a name that closes the ``data-series`` attribute and adds an element
#: with an event handler.
EXPLOIT = 'x"/><image href="y" onerror="window.xss=1"/><g a="'

#: Names every layer can store (PostgreSQL's text holds no NUL): markup, quotes, entities,
#: CDATA's end, a right-to-left override, a line break, a control XML cannot hold, a formula.
STORABLE = (
    EXPLOIT,
    "<script>window.xss=2</script>",
    "Tom & Jerry &amp; &#x3c;",
    'it\'s "quoted"',
    "]]><!-- -->",
    "\u202eevil\u202c",
    "two\nlines",
    "bell\x07",
    '=HYPERLINK("x")',
)
#: Names only a renderer called directly can be given (the API refuses them): NUL, lone
#: surrogates.
UNSTORABLE = ("nul\x00byte", "lone \ud800 high", "lone \udfff low")
HOSTILE = STORABLE + UNSTORABLE

#: The characters XML 1.0 cannot hold (the pictures draw U+FFFD instead).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+")


def as_attribute(name: str) -> str:
    """What an attribute holding ``name`` reads back as."""
    return _NOT_XML.sub("\ufffd", name)


def as_text(name: str) -> str:
    """What a one-line text holding ``name`` reads back as."""
    return _NOT_XML.sub("\ufffd", _LINE_BREAKS.sub(" ", name))


def as_isolated_text(name: str) -> str:
    """What a one-line text holding ``name`` as a bidi isolate (FSI ... PDI) reads back as."""
    return f"\u2068{as_text(name)}\u2069"


def parse(svg: str) -> ET.Element:
    """The picture as XML (a parse error fails the test)."""
    return ET.fromstring(svg.encode())  # noqa: S314 (our own output)


def shape(svg: str) -> list[tuple[str, tuple[str, ...]]]:
    """Every element's tag and attribute names, in document order: what markup there is,
    whatever the values."""
    return [(e.tag, tuple(sorted(e.attrib))) for e in parse(svg).iter()]


def texts(svg: str) -> list[str]:
    """The text of every element that holds text directly."""
    return [e.text for e in parse(svg).iter() if e.text and e.text.strip()]


def attribute_values(svg: str) -> list[str]:
    return [value for e in parse(svg).iter() for value in e.attrib.values()]
