"""The language picker in a browser: chosen with the keyboard, it sets the cookie, saves the
signed-in player's language and reloads the page in it; a page with no choice follows the
browser's Accept-Language."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Player
from tests.games.factories import PlayerFactory, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_choosing_a_language_with_the_keyboard_saves_it_and_reloads_the_page(
    live_server: Any, new_page: Any, sign_in: Any
) -> None:
    # given Ada signed in on the lobby, in English
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    page = new_page()
    sign_in(page, live_server.url, token=token_for(ada), name="Ada", player_id=ada.pk)
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    picker = page.get_by_label("Language", exact=True)
    assert picker.locator("option").all_inner_texts() == [
        "English",
        "ລາວ",
        "ไทย",
        "Հայերեն",
        "Cebuano",
    ]

    # when she reaches the picker by keyboard, moves to Thai (nothing happens yet) and says so
    picker.focus()
    picker.select_option("th")
    assert page.locator("html").get_attribute("lang") == "en"
    page.keyboard.press("Tab")  # to the picker's button
    with page.expect_navigation():
        page.keyboard.press("Enter")

    # then the page comes back in Thai, the cookie holds it and her player keeps it
    page.wait_for_function("document.documentElement.lang === 'th'")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies["django_language"] == "th"
    assert Player.objects.get(pk=ada.pk).language == "th"
    assert page.locator("#language-picker").input_value() == "th"


def test_a_page_without_a_choice_follows_the_browsers_language(
    live_server: Any, chromium: Any
) -> None:
    context = chromium.new_context(locale="hy-AM")
    try:
        page = context.new_page()
        page.goto(live_server.url + "/competitions/")
        assert page.locator("html").get_attribute("lang") == "hy"
        assert page.locator("#language-picker").input_value() == "hy"
    finally:
        context.close()
