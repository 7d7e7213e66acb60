"""The "How to play" page: the rules (docs/rules.md, or its translation) as HTML.

The page renders the repository's own rules document in the language asked for in the path
(``/how-to-play/lo/``) or, without one, the active language (English when that has no rules
document), and links to the same rules in every other language.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404
from django.utils.translation import get_language
from django.views.generic import TemplateView
from markdown_it import MarkdownIt
from markdown_it.token import Token

DOCS = Path(settings.BASE_DIR) / "docs"
#: Each language the rules are written in: its name, in itself.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "lo": "ພາສາລາວ",
    "th": "ภาษาไทย",
    "hy": "Հայերեն",
    "ceb": "Sinugboanon",
}
#: The page's title in each language.
TITLES: dict[str, str] = {
    "en": "How to play",
    "lo": "ວິທີຫຼິ້ນ",
    "th": "วิธีเล่น",
    "hy": "Ինչպես խաղալ",
    "ceb": "Unsaon pagdula",
}
DEFAULT_LANGUAGE = "en"


def rules_path(language: str) -> Path:
    """docs/rules.md for English, docs/rules.<language>.md for the others."""
    return DOCS / ("rules.md" if language == DEFAULT_LANGUAGE else f"rules.{language}.md")


def heading_slug(text: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as ``-``.

    Letters, combining marks (the vowel signs of Lao and Thai) and digits stay.
    """
    kept = (
        char
        for char in text.strip().lower()
        if char in " -_" or unicodedata.category(char)[0] in "LMN"
    )
    return "".join(kept).replace(" ", "-")


def _anchor_headings(tokens: list[Token]) -> None:
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", heading_slug(tokens[index + 1].content))


def _page_links(tokens: list[Token]) -> None:
    """Links to the other rules documents go to their pages; links to other files are text."""
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        children: list[Token] = []
        dropped = 0
        for child in token.children:
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                target = _rules_page(href)
                if target:
                    child.attrSet("href", target)
                elif not href.startswith("#"):
                    dropped += 1
                    continue
            elif child.type == "link_close" and dropped:
                dropped -= 1
                continue
            children.append(child)
        token.children = children


def _rules_page(href: str) -> str:
    """The page of a rules document the link names (``rules.lo.md``), or ``""``."""
    for language in LANGUAGES:
        if href == rules_path(language).name:
            return f"/how-to-play/{language}/"
    return ""


@lru_cache(maxsize=len(LANGUAGES) * 2)
def _rendered(language: str, modified: int) -> str:
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = parser.parse(rules_path(language).read_text(encoding="utf-8"))
    _anchor_headings(tokens)
    _page_links(tokens)
    return parser.renderer.render(tokens, parser.options, {})


def rules_html(language: str) -> str:
    """The rules document of ``language`` as HTML (rendered again when the file changes)."""
    return _rendered(language, rules_path(language).stat().st_mtime_ns)


def written() -> list[str]:
    """The languages of LANGUAGES whose rules document is in docs/."""
    return [language for language in LANGUAGES if rules_path(language).is_file()]


def active_language() -> str:
    """The active language if the rules are written in it (``th-TH`` counts as ``th``), else en."""
    code = (get_language() or DEFAULT_LANGUAGE).lower()
    for candidate in (code, code.split("-")[0]):
        if candidate in written():
            return candidate
    return DEFAULT_LANGUAGE


class HowToPlayPage(TemplateView):
    """Every rule and house option, in the language of the path or else the active language."""

    template_name = "games/web/how_to_play.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        language = kwargs.get("language") or active_language()
        languages = written()
        if language not in languages:
            raise Http404("The rules are not written in that language.")
        context["language"] = language
        context["title"] = TITLES[language]
        context["rules"] = rules_html(language)
        context["others"] = [
            (code, LANGUAGES[code], TITLES[code]) for code in languages if code != language
        ]
        return context
