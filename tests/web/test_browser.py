"""The web table in a real browser: register, play a round against bots by clicking tiles, see
the scores and the board picture; a second player joins an open match from another browser."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import DeviceToken, Match, Move
from games.pictures.tiles import tile_key

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery"


def register(page: Any, base: str, username: str, display: str) -> None:
    page.goto(base + "/")
    form = page.locator("#register-form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Display name").fill(display)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Register").click()
    page.locator("#lobby").wait_for(state="visible")
    assert f"Signed in as {display}" in page.locator("#account").inner_text()


def create_match(page: Any, variant: str, seats: list[str]) -> None:
    """Fill the lobby's form: one round of ``variant``, you first, then ``seats`` (``bot:2``,
    ``open``...), and create it; wait for the match's page."""
    create = page.locator("#create-form")
    create.get_by_label("Game").select_option(variant)
    create.get_by_label("Rounds").fill("1")
    for _ in range(4 - 1 - len(seats)):
        page.locator("#remove-seat").click()
    for position, choice in enumerate(seats, start=2):
        create.get_by_label(f"Seat {position}").select_option(choice)
    create.get_by_role("button", name="Create and start").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))


def take_turn(page: Any, *, keyboard: bool = False) -> None:
    """Play for the human: a playable tile and a target, else draw, else pass. By clicking, or
    with the keyboard only (``keyboard``: Tab to a tile, Enter, Enter on the target the page
    focuses; ``d`` to draw, ``p`` to pass)."""
    table = page.locator("#table")
    version = table.get_attribute("data-version")
    playable = page.locator("#hand .tile.playable")
    if playable.count():
        if keyboard:
            playable.first.focus()
            page.keyboard.press("Enter")
            page.locator("#targets .target").first.wait_for()
            focused = page.evaluate("document.activeElement.classList.contains('target')")
            assert focused, "choosing a tile focuses its first target"
            page.keyboard.press("Enter")
        else:
            playable.first.click()
            page.locator("#targets .target").first.click()
    elif page.locator("#draw").is_enabled():
        page.keyboard.press("d")
    elif keyboard:
        page.keyboard.press("p")
    else:
        page.locator("#pass").click()
    page.wait_for_function(
        "v => document.getElementById('table').dataset.version !== v", arg=version
    )


def tiles_drawn(page: Any, box: str, role: str) -> list[str]:
    """The ``data-tile`` of the tiles of ``role`` in the picture inside ``box``."""
    return page.eval_on_selector_all(
        f"{box} svg .tile[data-role='{role}']", "tiles => tiles.map(t => t.dataset.tile)"
    )


def assert_fits_a_phone(phone: Any) -> None:
    """Nothing on the page is wider than a 390-pixel screen (the board scrolls in its box)."""
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_round_against_three_bots_by_clicking(
    live_server: Any, new_page: Any, screenshot: Any, sign_in: Any
) -> None:
    page = new_page()
    register(page, live_server.url, "ada", "Ada")

    create_match(page, "chickenfoot", ["bot:1", "bot:2", "bot:3"])
    table = page.locator("#table")
    page.wait_for_function("document.getElementById('table').dataset.status === 'playing'")
    page.locator("#board svg .tile[data-role='centre']").wait_for()
    assert page.locator("#board svg .tile[data-role='centre']").count() == 1

    token = page.evaluate("localStorage.getItem('chickenfoot.token')")
    phone = new_page(width=390, height=844)
    sign_in(phone, live_server.url, token=token, name="Ada")
    phone.goto(f"{live_server.url}/")
    phone.locator("#lobby").wait_for(state="visible")
    assert_fits_a_phone(phone)  # the lobby

    turns = 0
    for _ in range(200):
        if table.get_attribute("data-status") == "finished":
            break
        if table.get_attribute("data-your-turn") == "true":
            take_turn(page, keyboard=turns % 2 == 1)  # every other turn by keyboard alone
            turns += 1
            if turns == 2:  # the table mid-play, hand and all, on the phone
                phone.goto(page.url)
                phone.locator("#hand .tile").first.wait_for()
                assert_fits_a_phone(phone)
        else:
            page.wait_for_timeout(200)
    assert table.get_attribute("data-status") == "finished"
    assert turns >= 2

    # The round's scores, the chart, the picture of the round as it ended, the standings.
    match = Match.objects.get()
    scores = page.locator("#scores")
    scores.locator("tr[data-round='1']").wait_for()
    cells = scores.locator("tr[data-round='1'] td").all_inner_texts()
    assert [int(c) for c in cells] == match.state["scores"][0]
    page.locator("#chart svg").first.wait_for()
    # the round as it ended: every tile played in it laid out, every hand left shown
    page.locator("#last-round svg").wait_for()
    moves = list(Move.objects.filter(match=match, round__number=1).order_by("seq"))
    played = sorted(tile_key(*m.tile) for m in moves if m.kind == "play")
    ended = next(e for e in moves[-1].events if e["type"] == "round_ended")
    left = sorted(tile_key(a, b) for hand in ended["hands"] for a, b in hand)
    assert sorted(tiles_drawn(page, "#last-round", "layout")) == played
    assert sorted(tiles_drawn(page, "#last-round", "revealed")) == left
    assert left  # three bots and a human: someone still held tiles
    page.locator("#standings-list li").first.wait_for()
    assert page.locator("#standings-list li").count() == 4
    screenshot(page, "round-over-chickenfoot")

    # Ada's page, from the account corner: one match, its rating chart, the match listed.
    page.locator("#account a").click()
    page.wait_for_url(re.compile(r"/players/\d+/$"))
    page.wait_for_function("document.getElementById('player').dataset.loaded === 'true'")
    assert page.locator("#figures tr[data-figure='Matches'] td").inner_text() == "1"
    assert page.locator("#ratings figure[data-variant='chickenfoot'] svg .point").count() == 2
    assert page.locator(f"#recent tr[data-match='{match.pk}'] a").count() == 1
    assert page.locator("#player-name").inner_text() == "Ada"
    screenshot(page, "player-page")

    # The same table on a phone-sized screen: nothing wider than the screen but the board.
    phone.goto(f"{live_server.url}/matches/{match.pk}/")
    phone.locator("#standings-list li").first.wait_for()
    assert_fits_a_phone(phone)
    screenshot(phone, "round-over-phone")


def test_a_second_player_joins_from_another_browser(
    live_server: Any, new_page: Any, screenshot: Any
) -> None:
    ada = new_page()
    register(ada, live_server.url, "ada", "Ada")
    create_match(ada, "mexican_train", ["open", "bot:2"])
    ada.locator("#waiting").wait_for(state="visible")

    grace = new_page()
    register(grace, live_server.url, "grace", "Grace")
    grace.locator("#open-matches li[data-match] button", has_text="Join").first.click()
    grace.wait_for_url(re.compile(r"/matches/\d+/$"))

    ada.locator("#seats li", has_text="Grace").wait_for()
    ada.locator("#start").click()
    for page in (ada, grace):
        page.wait_for_function("document.getElementById('table').dataset.status === 'playing'")
        page.locator("#board svg").wait_for()

    match = Match.objects.get()
    hands = [
        {t.get_attribute("data-tile") for t in page.locator("#hand .tile").all()}
        for page in (ada, grace)
    ]
    from games import engine

    state = engine.from_json(match.state)
    for seat, hand in enumerate(hands):
        assert hand == {f"{min(a, b)}-{max(a, b)}" for a, b in state.hands[seat]}
    # Neither browser's picture shows the other's tiles.
    for seat, page in enumerate((ada, grace)):
        drawn = {t.get_attribute("data-tile") for t in page.locator("#board svg .tile").all()}
        assert not drawn & hands[1 - seat]
    screenshot(grace, "joined-mexican-train")

    # A web login names its token; signing out revokes it on the server, not only in the browser.
    tokens = DeviceToken.objects.filter(user__username="grace")
    assert list(tokens.values_list("device", flat=True)) == ["Web browser"]
    grace.locator("#account button", has_text="Sign out").click()
    grace.wait_for_url(live_server.url + "/")
    assert not tokens.exists()
    assert DeviceToken.objects.filter(user__username="ada").exists()
