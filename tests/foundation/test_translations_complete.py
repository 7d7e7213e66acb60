"""Every message is translated in every language, and no translation drops or adds a
placeholder: what the server puts into a message must have a place in each language's text."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from chickenfoot.i18n.catalogs import DOMAINS, po_path
from chickenfoot.i18n.languages import LANGUAGE_CODES

#: Languages translated from English (English's catalog is the source).
TRANSLATED = [code for code in LANGUAGE_CODES if code != "en"]
#: What the code fills in: %(name)s and its kin, a bare %s or %d, and {name}. ``%%`` is a
#: literal percent sign, not a placeholder.
PLACEHOLDER = re.compile(
    r"%\([A-Za-z_]\w*\)[#0 +-]?\d*(?:\.\d+)?[sdifrx]|%[sdifr]|\{[A-Za-z_]\w*\}"
)


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


def _messages(language: str, domain: str) -> list[object]:
    with po_path(language, domain).open("rb") as file:
        return [m for m in read_po(file, locale=language, domain=domain) if m.id]


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated(language: str, domain: str) -> None:
    untranslated = [
        m.id
        for m in _messages(language, domain)
        if not (all(m.string) if isinstance(m.string, (list, tuple)) else m.string)
    ]
    assert not untranslated, f"{language}/{domain}.po lacks {len(untranslated)}: {untranslated[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_no_translation_drops_or_adds_a_placeholder(language: str, domain: str) -> None:
    wrong = []
    for message in _messages(language, domain):
        if isinstance(message.id, (list, tuple)):
            # a plural: each form may leave out the count's own placeholder (one form for
            # every count, in a language that has one), never add one or drop another
            wanted = set(placeholders(message.id[1])) | set(placeholders(message.id[0]))
            for text in message.string:
                if not set(placeholders(text)) <= wanted or not placeholders(text):
                    wrong.append((message.id[0], text))
        elif placeholders(message.string) != placeholders(message.id):
            wrong.append((message.id, message.string))
    assert not wrong, f"{language}/{domain}.po: {wrong[:5]}"


#: Each language's letters: a translation into it holds at least one of them.
SCRIPTS = {"lo": "[\u0e80-\u0eff]", "th": "[\u0e00-\u0e7f]", "hy": "[\u0530-\u058f]"}
#: Words a message may hold that no language translates: the product's name, a tie-break
#: named after a person (Buchholz), file formats, rule ids (C-WIN), code in backticks, a key in
#: parentheses ("Draw (d)").
KEPT = re.compile(
    r"\bChickenfoot\b|\bBuchholz\b|\bReDoc\b|\bAPI\b|\bPDF\b|\bCSV\b|\bJSON\b|\bQR\b"
    r"|\b[A-Z]{1,3}(?:-[A-Z0-9]+)+\b|`[^`]*`|\([a-z]\)"
)
#: Cebuano, written in Latin letters, takes these from English as they are (a review of each
#: message a Cebuano catalog leaves as English writes it: a new one fails the test below).
CEBUANO_AS_IN_ENGLISH = {
    "Account",
    "Password",
    "Username",
    "Rating",
    "rating",
    "Total",
    "bot",
    "live",
    "Chickenfoot: lobby",
    "Crosstable",
    "crosstable",
    "%(event)s: crosstable",
    "Head-to-head",
    "bye · %(points)s",
    "Tile %(a)s\u2013%(b)s",
    "Tile %(a)s\u2013%(b)s: %(reason)s",
}


def words(text: str) -> list[str]:
    """The words of ``text`` a translator translates: without placeholders and kept words."""
    return re.findall(r"[A-Za-z]{1,}", KEPT.sub(" ", PLACEHOLDER.sub(" ", text)))


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_no_message_is_left_in_english(language: str, domain: str) -> None:
    """A message shown as its English ("R1" on the Lao scorer's page) was not translated: in
    Lao, Thai and Armenian a translation of words holds letters of the language; in Cebuano it
    differs from the English, but for the words Cebuano takes as they are."""
    left = []
    for message in _messages(language, domain):
        ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        if not words(ids[0]):
            continue  # nothing to translate: placeholders, a name, a rule id
        for string in strings:
            if language in SCRIPTS:
                if not re.search(SCRIPTS[language], string):
                    left.append((ids[0], string))
            elif string in ids and ids[0] not in CEBUANO_AS_IN_ENGLISH:
                left.append((ids[0], string))
    assert not left, f"{language}/{domain}.po leaves {len(left)} in English: {left[:8]}"


def test_the_pattern_finds_what_the_code_fills_in() -> None:
    assert placeholders("Seat %(seat)s of %(count)d, %s and {max_length}, 100%%") == [
        "%(count)d",
        "%(seat)s",
        "%s",
        "{max_length}",
    ]
    assert placeholders("The %(scheme)r scheme") == ["%(scheme)r"]
