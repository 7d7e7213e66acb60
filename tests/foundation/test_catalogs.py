"""The message catalogs: up to date with what the code marks, compiled by Babel, and read by
Django in each of the five languages."""

from __future__ import annotations

import gettext
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from django.utils import translation
from django.utils.translation import get_language_info

from chickenfoot.i18n.catalogs import (
    DOMAINS,
    LOCALE_DIR,
    compile_all,
    extract,
    message_keys,
    po_path,
)
from chickenfoot.i18n.languages import LANGUAGE_CODES, NATIVE_NAMES


@pytest.fixture(scope="module")
def marked() -> dict[str, set[tuple[str, str | None]]]:
    return {domain: message_keys(catalog) for domain, catalog in extract().items()}


@pytest.mark.parametrize("language", LANGUAGE_CODES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_catalogs_hold_every_message_the_code_marks(
    marked: dict[str, set[tuple[str, str | None]]], language: str, domain: str
) -> None:
    with po_path(language, domain).open("rb") as file:
        committed = message_keys(read_po(file, locale=language, domain=domain))
    missing = sorted(marked[domain] - committed, key=str)
    gone = sorted(committed - marked[domain], key=str)
    assert not missing, f"marked but not in {language}/{domain}.po (run `make messages`): {missing}"
    assert not gone, f"in {language}/{domain}.po but no longer marked (run `make messages`): {gone}"


def test_the_pages_and_their_scripts_are_marked(
    marked: dict[str, set[tuple[str, str | None]]],
) -> None:
    django_ids = {msgid for msgid, _ in marked["django"]}
    js_ids = {msgid for msgid, _ in marked["djangojs"]}
    assert {"Your hand", "Score the table", "Tournaments and leagues", "Language"} <= django_ids
    assert {"Your turn: choose a tile.", "Sign out", "%(name)s to play."} <= js_ids


def test_extraction_reads_only_literal_messages(tmp_path: Path) -> None:
    # given: a module that translates a looked-up message and marks one of its own
    package = tmp_path / "games"
    package.mkdir()
    (package / "mod.py").write_text(
        "from django.utils.translation import gettext as _, pgettext_lazy\n"
        "TITLES = {'a': 'x'}\n"
        "def f(kind):\n"
        "    # Translators: a seat at a table\n"
        "    return _(TITLES[kind]), _('Seat %(n)s') % {'n': 1}, pgettext_lazy('tile', 'Double')\n",
        encoding="utf-8",
    )
    # when
    catalog = extract(base=tmp_path)["django"]
    # then
    assert message_keys(catalog) == {("Seat %(n)s", None), ("Double", "tile")}
    assert catalog.get("Seat %(n)s").auto_comments == ["a seat at a table"]


def test_a_translation_compiles_and_django_reads_it(tmp_path: Path) -> None:
    # given: the Lao catalog with one message translated
    locale_dir = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale_dir, ignore=shutil.ignore_patterns("*.mo"))
    path = po_path("lo", "djangojs", locale_dir)
    with path.open("rb") as file:
        catalog = read_po(file, locale="lo", domain="djangojs")
    catalog["Sign out"].string = "ອອກຈາກລະບົບ"
    with path.open("wb") as file:
        write_po(file, catalog)
    # when
    written = compile_all(locale_dir)
    # then
    assert len(written) == len(LANGUAGE_CODES) * len(DOMAINS)
    with path.with_suffix(".mo").open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    assert compiled.gettext("Sign out") == "ອອກຈາກລະບົບ"
    assert compiled.gettext("Your hand") == "Your hand"  # untranslated: English


@pytest.mark.parametrize("language", LANGUAGE_CODES)
def test_django_knows_each_language_and_its_own_name(language: str) -> None:
    info = get_language_info(language)
    assert info["code"] == language
    assert info["bidi"] is False
    assert NATIVE_NAMES[language]
    assert translation.check_for_language(language)  # a compiled catalog is found
