"""The scripts render: the fonts the pages' CSS, the SVG pictures and the PDFs name are the
repository's own (``games/static/games/fonts/``), and together they have every character of
every catalog's translations, of the rules in each language, of dates and numbers as each
language writes them, and of names in each script (read with fontTools)."""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.utils import translation
from fontTools.ttLib import TTFont

from chickenfoot.charts import Series, bar_chart, line_chart
from chickenfoot.fonts import FACES, FAMILY, FONT_DIR, MONO, MONO_FAMILY
from chickenfoot.i18n.formats import format_date, format_datetime, format_decimal
from games import engine
from games.paper.fonts import typefaces
from games.pictures.board import board_svg
from games.pictures.scores import scores_chart

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "games" / "static" / "games" / "web"
#: A name in each script the service's players write in.
NAMES = ["ສົມພອນ", "สมชาย", "Արամ", "Maria Santos"]
LANGUAGES = ("en", "lo", "th", "hy", "ceb")
GENERIC = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-monospace",
           "ui-sans-serif", "ui-serif", "inherit", "initial", "unset"}  # fmt: skip


@dataclass(frozen=True)
class Declared:
    """One ``@font-face`` of the pages' CSS."""

    family: str
    weight: str
    file: Path
    ranges: tuple[tuple[int, int], ...]  # empty: every character

    def covers(self, code: int) -> bool:
        in_range = not self.ranges or any(low <= code <= high for low, high in self.ranges)
        return in_range and code in cmap(self.file)


@functools.cache
def cmap(path: Path) -> frozenset[int]:
    return frozenset(TTFont(path).getBestCmap())


def family_name(path: Path) -> str:
    names = TTFont(path)["name"]
    return str(names.getDebugName(16) or names.getDebugName(1))


def css(path: Path) -> str:
    return re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.DOTALL)


def families(stack: str) -> list[str]:
    return [name.strip().strip("'\"") for name in stack.split(",")]


def unicode_ranges(value: str) -> tuple[tuple[int, int], ...]:
    ranges = []
    for part in value.split(","):
        low, _, high = part.strip().removeprefix("U+").partition("-")
        ranges.append((int(low, 16), int(high or low, 16)))
    return tuple(ranges)


@functools.cache
def declared() -> tuple[Declared, ...]:
    faces = []
    for block in re.findall(r"@font-face\s*\{([^}]*)\}", css(WEB / "fonts.css")):
        props = dict(re.findall(r"([\w-]+)\s*:\s*([^;]+);", block))
        (url,) = re.findall(r"url\('([^']+)'\)", props["src"])
        faces.append(
            Declared(
                family=props["font-family"].strip("'\""),
                weight=props["font-weight"],
                file=(WEB / url).resolve(),
                ranges=unicode_ranges(props["unicode-range"]) if "unicode-range" in props else (),
            )
        )
    return tuple(faces)


def svgs() -> Iterator[str]:
    """Every kind of picture, with a name in each script."""
    yield scores_chart(scores=[[5, 0, 12, 3], [3, 8, 0, 1]], names=NAMES, title=NAMES[0])
    yield line_chart(NAMES[1], ["start", NAMES[2]], [Series(name, [0, 3]) for name in NAMES])
    yield bar_chart(NAMES[2], [(name, 3) for name in NAMES], y_label=NAMES[0])
    state = engine.new_match("mexican_train", 4, {"open_hands": True, "max_pip": 12}, seed="f")
    hands = [[[10, 11]], [[3, 4]], [[5, 12]], [[1, 1]]]
    yield board_svg(engine.view(state, 0), names=NAMES, caption=NAMES[3], revealed_hands=hands)


def catalog_texts() -> Iterator[tuple[str, str]]:
    """(where, text): each translation of each catalog there is, and the rules as each
    language has them."""
    for po in sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as handle:
            for message in read_po(handle):
                strings = message.string if isinstance(message.string, tuple) else [message.string]
                for string in strings:
                    if string and message.id:
                        yield f"{po.relative_to(ROOT)}: {message.id!r}", string
    for rules in sorted((ROOT / "docs").glob("rules*.md")):
        yield str(rules.relative_to(ROOT)), rules.read_text()


def formatted_texts() -> Iterator[tuple[str, str]]:
    """Dates (every month and weekday) and numbers as each language writes them."""
    ours = settings.LANGUAGES if settings.is_overridden("LANGUAGES") else []  # not Django's all
    codes = {*LANGUAGES, *(code for code, _ in ours)}
    for code in sorted(codes):
        with translation.override(code):
            for month in range(1, 13):
                when = dt.datetime(2026, month, month + 10, 15, 7, tzinfo=dt.UTC)
                for length in ("short", "medium", "long", "full"):
                    yield code, format_date(when.date(), length)
                    yield code, format_datetime(when, length)
            yield code, format_decimal(-1234567.25)


def every_text() -> list[tuple[str, str]]:
    return [*catalog_texts(), *formatted_texts(), *(("a name", name) for name in NAMES)]


def shown(char: str) -> bool:
    """Whether a font must draw ``char``: not a control or an invisible format character."""
    return unicodedata.category(char) not in ("Cc", "Cf")


def test_the_vendored_files_are_the_faces_their_names_say() -> None:
    for face in (*FACES, MONO):
        for bold in (False, True):
            path = face.path(bold=bold)
            assert path.is_file(), path
            assert family_name(path) == face.family, path
            expected = 700 if bold and face.has_bold else 400
            assert TTFont(path)["OS/2"].usWeightClass == expected, path
    assert (FONT_DIR / "OFL.txt").read_text().count("SIL OPEN FONT LICENSE Version 1.1") == 1
    on_disk = {p.name for p in FONT_DIR.glob("*.ttf")}
    named = {face.path(bold=bold).name for face in (*FACES, MONO) for bold in (False, True)}
    assert on_disk == named
    assert sum(p.stat().st_size for p in FONT_DIR.glob("*.ttf")) < 1_400_000
    # the mono face holds Latin (code, diagrams) and nothing of the scripts' faces
    assert all(code < 0x0530 or code >= 0x2000 for code in cmap(MONO.path()))


def test_the_pages_css_declares_each_face_from_the_vendored_files() -> None:
    faces = declared()
    expected = {
        (face.family, face.path(bold=bold)) for face in (*FACES, MONO) for bold in (False, True)
    }
    assert {(face.family, face.file) for face in faces} == expected
    for face in faces:
        assert face.file.parent == FONT_DIR, face
        assert family_name(face.file) == face.family, face


def test_the_pages_css_and_the_svgs_name_the_vendored_stack() -> None:
    families_declared = {face.family for face in declared()}
    assert families(FAMILY)[:-1] == [face.family for face in FACES]
    for path in sorted(WEB.glob("*.css")):
        for stack in re.findall(r"font-family\s*:\s*([^;]+);", css(path)):
            unknown = [f for f in families(stack) if f not in families_declared | GENERIC]
            assert unknown == [], (path.name, unknown)
            if MONO.family in families(stack) and len(families(stack)) > 1:
                # code: a script's letters in it come from the script's face
                assert families(stack) == families(MONO_FAMILY), (path.name, stack)
    for name in ("app.css", "wall.css"):
        text = css(WEB / name)
        assert '@import url("fonts.css");' in text, name
        (root,) = re.findall(r":root\s*\{[^}]*font-family\s*:\s*([^;]+);", text)
        assert families(root) == families(FAMILY), name
    for picture in svgs():
        named = set(re.findall(r'font-family="([^"]*)"', picture))
        assert named == {FAMILY.replace("'", "&apos;")}, named


def test_the_pdfs_embed_the_vendored_faces() -> None:
    registered = typefaces()
    assert [(t.regular, t.bold) for t in registered] == [
        (face.stem, f"{face.stem}-Bold" if face.has_bold else face.stem) for face in FACES
    ]
    for typeface, face in zip(registered, FACES, strict=True):
        assert typeface.chars == cmap(face.path()) & cmap(face.path(bold=True))


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_the_fonts_cover_every_character_of_the_catalogs_rules_formats_and_names(
    bold: bool,
) -> None:
    weight = "700" if bold else "400"
    stack = [
        face
        for family in families(FAMILY)
        for face in declared()
        if face.family == family and (face.weight == weight or len(_weights(family)) == 1)
    ]
    pdf_chars = frozenset().union(*(t.chars for t in typefaces()))
    missing: dict[str, set[str]] = {}
    texts = every_text()
    assert any(where == "a name" for where, _ in texts)
    for where, text in texts:
        for char in {c for c in text if shown(c)}:
            code = ord(char)
            on_pages = any(face.covers(code) for face in stack)
            if not on_pages or code not in pdf_chars:
                missing.setdefault(f"U+{code:04X} {unicodedata.name(char, '?')}", set()).add(where)
    assert missing == {}, {char: sorted(wheres)[:3] for char, wheres in missing.items()}


def _weights(family: str) -> set[str]:
    return {face.weight for face in declared() if face.family == family}
