"""The "How to play" page: the rules in each language, linked to the others and from the footer."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any
from urllib.parse import unquote

import pytest
from django.test import Client
from django.utils import translation

from games.web import how_to_play
from games.web.how_to_play import LANGUAGES, TITLES, rules_path
from tests.foundation.test_rules_doc import DEFINITION, TRANSLATIONS
from tests.web.test_page_security import violations, watched

pytestmark = pytest.mark.django_db

WRITTEN = ("en", *TRANSLATIONS)


def page(path: str) -> str:
    response = Client().get(path)
    assert response.status_code == HTTPStatus.OK, (path, response.status_code)
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


@pytest.mark.parametrize("language", WRITTEN)
def test_the_page_shows_the_rules_in_its_language(language: str) -> None:
    html = page(f"/how-to-play/{language}/")
    assert f'<article class="card rules" lang="{language}">' in html
    assert f"<title>Chickenfoot: {TITLES[language]}</title>" in html
    for rule in DEFINITION.findall(rules_path(language).read_text(encoding="utf-8")):
        assert f"<strong>{rule}</strong>" in html, rule
    assert "<code>double_blank_points</code>" in html
    # nothing the site's policy would refuse (style-src 'self', script-src 'self')
    assert "style=" not in html
    assert all(' src="' in tag for tag in re.findall(r"<script[^>]*>", html))  # none inline
    assert "<table>" in html
    # its headings carry the anchors of its contents (a browser decodes the fragment)
    anchors = re.findall(r'<a href="#([^"]+)"', html)
    assert len(anchors) == 5
    for anchor in anchors:
        assert f'id="{unquote(anchor)}"' in html, anchor


@pytest.mark.parametrize("language", WRITTEN)
def test_the_page_links_to_every_other_language(language: str) -> None:
    html = page(f"/how-to-play/{language}/")
    for other in WRITTEN:
        link = f'<a href="/how-to-play/{other}/" lang="{other}" hreflang="{other}">'
        assert (link in html) == (other != language), other
    assert LANGUAGES["en"] in html or language == "en"


def test_links_to_the_other_documents_are_no_dead_links() -> None:
    html = page("/how-to-play/en/")
    hrefs = set(re.findall(r'href="([^"]+)"', html))
    assert not {href for href in hrefs if href.endswith(".md") or ".md#" in href}
    assert "errors.md" in html  # named, as text


def test_without_a_language_the_page_follows_the_active_one(monkeypatch: Any) -> None:
    assert '<article class="card rules" lang="en">' in page("/how-to-play/")
    for language in WRITTEN:
        # the language the request made active (the middleware's choice, whatever it is)
        monkeypatch.setattr(how_to_play, "get_language", lambda language=language: language)
        html = page("/how-to-play/")
        assert f'<article class="card rules" lang="{language}">' in html


@pytest.mark.parametrize(
    ("active", "shown"),
    [("lo", "lo"), ("lo-LA", "lo"), ("en-us", "en"), ("fr", "en"), (None, "en")],
)
def test_the_active_language_falls_back_to_english(active: str | None, shown: str) -> None:
    if active is None:
        with translation.override(None):
            assert how_to_play.active_language() == shown
        return
    with translation.override(active):
        assert how_to_play.active_language() == shown


def test_a_language_the_rules_are_not_written_in_is_not_found() -> None:
    assert Client().get("/how-to-play/xx/").status_code == HTTPStatus.NOT_FOUND
    assert Client().get("/how-to-play/../").status_code == HTTPStatus.NOT_FOUND


def test_every_page_links_to_how_to_play_in_its_footer() -> None:
    for path in ("/", "/competitions/", "/leaderboards/chickenfoot/", "/how-to-play/lo/"):
        footer = page(path).split("<footer>")[1]
        assert '<a href="/how-to-play/">' in footer, path


def test_the_docs_name_every_language_the_page_shows() -> None:
    assert how_to_play.written() == list(WRITTEN)  # every translation is tested
    web = (rules_path("en").parent / "web.md").read_text(encoding="utf-8")
    (row,) = (line for line in web.splitlines() if line.startswith("| `/how-to-play/`"))
    for language in WRITTEN:
        assert f"`{language}`" in row, language
        assert language == "en" or f"(rules.{language}.md)" in row, language


@pytest.mark.django_db(transaction=True)
def test_in_a_browser_the_contents_lead_to_their_sections(
    live_server: Any, new_page: Any, screenshot: Any
) -> None:
    browser = watched(new_page)
    browser.goto(f"{live_server.url}/")
    browser.locator("footer a", has_text="How to play").click()
    browser.wait_for_url(f"{live_server.url}/how-to-play/")
    browser.locator("nav.languages a[lang='lo']").click()
    browser.wait_for_url(f"{live_server.url}/how-to-play/lo/")
    contents = browser.locator("article.rules ul").first.locator("a")
    assert contents.count() == 5
    contents.nth(3).click()  # 4. the house options
    heading = browser.locator("article.rules h2").nth(3)
    assert heading.inner_text() == "4. ທາງເລືອກຂອງເຮືອນ"
    assert (
        browser.evaluate("decodeURIComponent(location.hash)") == f"#{heading.get_attribute('id')}"
    )
    assert heading.is_visible()
    assert violations(browser) == []
    screenshot(browser, "how-to-play-lo")
