"""The message catalogs: extracted from the code (``make messages``), compiled (``make install``).

Pure Python (Babel), so a fresh machine needs no GNU gettext. Two domains, as Django's:

- ``django``: the Python code of ``chickenfoot/``, ``games/`` and ``scoring/`` (``gettext``,
  ``gettext_lazy``, ``pgettext``, ``ngettext``...) and the Django templates (``{% translate %}``,
  ``{% blocktranslate %}``, read through Django's own ``templatize``, as ``makemessages`` does);
- ``djangojs``: the pages' scripts (``gettext``, ``ngettext``, ``pgettext``, served by
  Django's ``JavaScriptCatalog`` at ``/jsi18n/``).

Each language's ``locale/<lang>/LC_MESSAGES/<domain>.po`` keeps its translations when the code
changes: a message that appears is added with an empty ``msgstr``, one that went away is dropped.
The files name where each message is used (without line numbers, so that moving code leaves
them alone) and are sorted by message, so two changes rarely touch the same lines.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract as babel_extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from chickenfoot.i18n.languages import LANGUAGE_CODES

BASE_DIR = Path(__file__).resolve().parent.parent.parent
LOCALE_DIR = BASE_DIR / "locale"
DOMAINS = ("django", "djangojs")
#: Where the code whose messages are extracted lives (tests, tools and benchmarks are not shown
#: to players).
SOURCE_DIRS = ("chickenfoot", "games", "scoring")
#: Where a page's scripts live.
SCRIPT_DIRS = ("games/static",)

#: The functions whose string arguments are messages (Babel's keyword specs: which argument is
#: the message, the plural, the context).
PYTHON_KEYWORDS = {
    "_": None,
    "N_": None,  # the engine's messages (games/engine/text.py): translated when shown
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
JS_KEYWORDS = {
    "gettext": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
COMMENT_TAGS = ["Translators:"]
#: A fixed creation date for a new catalog: the files change only when their messages do.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

Found = tuple[int, str | tuple[str, ...], list[str], str | None]


def _files(dirs: Iterable[str], suffix: str, base: Path) -> Iterator[Path]:
    for name in dirs:
        yield from sorted(p for p in (base / name).rglob(f"*{suffix}") if p.is_file())


def _code_messages(source: bytes) -> Iterator[Found]:
    """The messages of a Python module: each call of a keyword whose message arguments are
    string literals (``_(TITLES[kind])`` marks nothing here: its message is marked where it is
    written, with ``gettext_noop``). A ``# Translators:`` comment just above a call goes with it."""
    lines = source.decode("utf-8").splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in PYTHON_KEYWORDS:
            continue
        spec = PYTHON_KEYWORDS[name] or (1,)
        context = None
        strings = []
        for part in spec:
            index = part[0] if isinstance(part, tuple) else part
            arg = node.args[index - 1] if len(node.args) >= index else None
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                break
            if isinstance(part, tuple):
                context = arg.value
            else:
                strings.append(arg.value)
        else:
            comments = _translator_comments(lines, node.lineno)
            message = strings[0] if len(strings) == 1 else tuple(strings)
            yield node.lineno, message, comments, context


def _translator_comments(lines: list[str], lineno: int) -> list[str]:
    found: list[str] = []
    number = lineno - 2
    while number >= 0 and lines[number].strip().startswith("#"):
        found.insert(0, lines[number].strip().lstrip("#").strip())
        number -= 1
    for index, text in enumerate(found):
        if text.startswith(COMMENT_TAGS[0]):
            return [" ".join(found[index:]).removeprefix(COMMENT_TAGS[0]).strip()]
    return []


def _python_messages(source: bytes) -> Iterator[Found]:
    yield from babel_extract(
        "python", io.BytesIO(source), PYTHON_KEYWORDS, COMMENT_TAGS, strip_comment_tags=True
    )


def _template_messages(path: Path) -> Iterator[Found]:
    # Django's own reading of a template's translation tags (what makemessages feeds xgettext)
    from django.utils.translation.template import templatize

    code = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    yield from _python_messages(code.encode("utf-8"))


def _js_messages(path: Path) -> Iterator[Found]:
    with path.open("rb") as source:
        yield from babel_extract(
            "javascript", source, JS_KEYWORDS, COMMENT_TAGS, strip_comment_tags=True
        )


def _add(catalog: Catalog, path: Path, base: Path, found: Iterable[Found]) -> None:
    where = path.relative_to(base).as_posix()
    for lineno, message, comments, context in found:
        catalog.add(
            message,
            locations=[(where, lineno)],
            auto_comments=comments,
            context=context,
        )


def extract(base: Path = BASE_DIR) -> dict[str, Catalog]:
    """The messages the code marks, by domain (a template catalog: no translations)."""
    catalogs = {domain: Catalog(project="chickenfoot", creation_date=EPOCH) for domain in DOMAINS}
    for path in _files(SOURCE_DIRS, ".py", base):
        if "migrations" in path.parts:
            continue
        _add(catalogs["django"], path, base, _code_messages(path.read_bytes()))
    for path in _files(SOURCE_DIRS, ".html", base):
        _add(catalogs["django"], path, base, _template_messages(path))
    for path in _files(SOURCE_DIRS, ".txt", base):
        if "templates" in path.parts:
            _add(catalogs["django"], path, base, _template_messages(path))
    for path in _files(SCRIPT_DIRS, ".js", base):
        _add(catalogs["djangojs"], path, base, _js_messages(path))
    return catalogs


def po_path(language: str, domain: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, language: str, domain: str) -> Catalog:
    """The catalog at ``path`` (a new, empty one if there is none yet)."""
    if path.exists():
        with path.open("rb") as file:
            return read_po(file, locale=language, domain=domain)
    return Catalog(
        locale=language,
        domain=domain,
        header_comment=(
            f"# Chickenfoot's messages ({domain}) in {language}: `make messages` writes the\n"
            "# msgids; a translation goes in msgstr and keeps every %(name)s placeholder."
        ),
        project="chickenfoot",
        version="1",
        msgid_bugs_address="",
        last_translator="",
        language_team="",
        creation_date=EPOCH,
        revision_date=EPOCH,
        fuzzy=False,
    )


def message_keys(catalog: Catalog) -> set[tuple[str, str | None]]:
    """Each message of ``catalog`` as (msgid, context); the header left out."""
    return {
        (message.id if isinstance(message.id, str) else message.id[0], message.context)
        for message in catalog
        if message.id
    }


def update(locale_dir: Path = LOCALE_DIR, base: Path = BASE_DIR) -> list[Path]:
    """``make messages``: each language's catalogs made to hold exactly what the code marks.

    English, the source language, keeps its ``msgstr`` empty: a message is its own English.
    """
    written = []
    for domain, template in extract(base).items():
        for language in LANGUAGE_CODES:
            path = po_path(language, domain, locale_dir)
            catalog = read_catalog(path, language, domain)
            catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
            catalog.obsolete.clear()
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as file:
                write_po(file, catalog, width=99, sort_output=True, include_lineno=False)
            written.append(path)
    return written


def compile_all(locale_dir: Path = LOCALE_DIR, paths: list[Path] | None = None) -> list[Path]:
    """``make install``: each ``.po`` (of ``paths``, or all) compiled to the ``.mo`` Django reads
    (translations only: an empty ``msgstr`` stays English)."""
    written = []
    for path in paths or sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        language = path.parent.parent.name
        with path.open("rb") as file:
            catalog = read_po(file, locale=language, domain=path.stem)
        target = path.with_suffix(".mo")
        with target.open("wb") as file:
            write_mo(file, catalog, use_fuzzy=False)
        written.append(target)
    return written


def stale_catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """The ``.po`` files whose ``.mo`` is missing or older."""
    stale = []
    for path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        compiled = path.with_suffix(".mo")
        if not compiled.exists() or compiled.stat().st_mtime < path.stat().st_mtime:
            stale.append(path)
    return stale
