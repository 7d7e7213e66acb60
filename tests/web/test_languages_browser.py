"""The table of a match in play and the public wall, in Chromium, for a browser that asks for
Lao, Thai, Armenian or Cebuano: each page says its language (``<html lang>``), its own words
and the words its scripts write are the catalogs' translations, and each is screenshotted
(``tests/artifacts/table-<lang>.png``, ``wall-<lang>.png``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from django.utils import translation

from games.models import Match
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory, token_for
from tests.games.wall_world import enter_round, wall_world
from tests.web.conftest import PAGE_TIMEOUT_MS

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["lo", "th", "hy", "ceb"]
LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    translation.activate("en")


def translated(msgid: str, language: str) -> str:
    """``msgid`` in ``language`` from the pages' catalog; never the English."""
    with translation.override(language):
        text = translation.gettext(msgid)
    assert text != msgid, (language, msgid)
    return text


def translated_js(msgid: str, language: str) -> str:
    """``msgid`` in ``language`` from the scripts' catalog (djangojs); never the English."""
    with (LOCALE / language / "LC_MESSAGES" / "djangojs.po").open("rb") as po:
        text = read_po(po, locale=language)[msgid].string
    assert text, (language, msgid)
    assert text != msgid, (language, msgid)
    return text


@pytest.fixture
def page_in(chromium: Any) -> Iterator[Any]:
    """A page in a context of its own whose browser speaks ``language`` (its Accept-Language)."""
    contexts = []

    def make(language: str, width: int = 1100, height: int = 900) -> Any:
        context = chromium.new_context(locale=language, viewport={"width": width, "height": height})
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def html_lang(page: Any) -> str:
    return page.locator("html").get_attribute("lang")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_of_a_match_in_play_speaks_the_browsers_language(
    live_server: Any, page_in: Any, sign_in: Any, screenshot: Any, language: str
) -> None:
    # given a two-player Chicken Foot match in play, seen by the seat whose turn it is not
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    grace = PlayerFactory(user__username="grace", display_name="Grace")
    seats = [SeatSpec(kind="creator"), SeatSpec(kind="open")]
    match = match_create(creator=ada, variant="chickenfoot", seats=seats, options={"max_pip": 6})
    seat_join(match_id=match.pk, player=grace, position=1)
    match_start(match_id=match.pk, player=ada)
    turn = Match.objects.get(pk=match.pk).state["turn"]
    waiting = (ada, grace)[1 - turn]
    page = page_in(language)
    sign_in(page, live_server.url, token=token_for(waiting), name=waiting.display_name)

    # when the table is open
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#table[data-status='playing']").wait_for()
    tile = page.locator("#hand .tile").first
    tile.wait_for()
    page.locator("#board svg").wait_for()

    # then the page, and what its script writes, are in the language
    assert html_lang(page) == language
    assert page.locator("#hand-title").inner_text() == translated("Your hand", language)
    assert page.locator("#draw").inner_text() == translated("Draw (d)", language)
    assert page.locator("#pass").inner_text() == translated("Pass (p)", language)
    assert tile.get_attribute("title") == translated_js("Not your turn yet", language)
    assert page.locator("#language-picker").input_value() == language
    screenshot(page, f"table-{language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_public_wall_speaks_the_browsers_language(
    live_server: Any, page_in: Any, screenshot: Any, language: str
) -> None:
    # given a public tournament whose table has a round entered
    players = [PlayerFactory(user__username=n, display_name=n.title()) for n in ("ada", "grace")]
    organiser = client_for(players[0])
    wall = wall_world(players, organiser)
    enter_round(organiser, wall.match_id, 1, 0)
    page = page_in(language, width=1280, height=900)

    # when anyone opens its wall
    page.goto(f"{live_server.url}/events/{wall.competition.pk}/")
    page.locator(".wall-table").first.wait_for()

    # then its headings and labels are the language's
    assert html_lang(page) == language
    assert page.locator("#standings-title").inner_text() == translated("Standings", language)
    assert page.locator("#tables-title").inner_text() == translated("Tables", language)
    headings = page.locator("#wall-standings thead th").all_inner_texts()
    assert translated("Name", language) in headings
    assert translated("Points", language) in headings
    assert "Standings" not in page.locator("main").inner_text()
    screenshot(page, f"wall-{language}")
