"""The pages as a demanding player sees them: the waiting room, the table at desktop and phone
sizes, a finished match, logging in from a page, the lobby's form, the records pages."""

from __future__ import annotations

import re
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from babel.numbers import format_decimal
from django.test import Client

from games import engine
from games.accounts.names import BOT_NAMES
from games.models import Match
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory, token_for
from tests.web.test_page_security import finished_match
from tests.web.test_standings_page import finished_tournament

pytestmark = pytest.mark.django_db(transaction=True)

DOCS = Path(__file__).resolve().parents[2] / "docs"
PASSWORD = "correct horse battery"


def signed_in_page(new_page: Any, sign_in: Any, base: str, player: Any, **size: int) -> Any:
    page = new_page(**size)
    sign_in(page, base, token=token_for(player), name=player.display_name, player_id=player.pk)
    return page


def open_table(page: Any, base: str, match_id: int, status: str) -> None:
    page.goto(f"{base}/matches/{match_id}/")
    page.wait_for_function("s => document.getElementById('table').dataset.status === s", arg=status)


def two_player_match(
    variant: str = "chickenfoot", names: tuple[str, str] = ("Ada", "Grace")
) -> tuple[Match, list[Any]]:
    players = [PlayerFactory(user__username=f"u{i}", display_name=n) for i, n in enumerate(names)]
    match = match_create(
        creator=players[0], variant=variant, seats=[SeatSpec(kind="creator"), SeatSpec(kind="open")]
    )
    return match, players


def box(page: Any, selector: str) -> dict[str, float]:
    return page.locator(selector).first.bounding_box()


def test_the_waiting_room_offers_start_to_the_creator_alone(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    # given an open match of Ada's with one seat free
    match, (ada, grace) = two_player_match()
    ada_page = signed_in_page(new_page, sign_in, live_server.url, ada)
    open_table(ada_page, live_server.url, match.pk, "open")
    assert ada_page.locator("#waiting-title").inner_text() == "Waiting for players"
    assert ada_page.locator("#start").is_visible()
    assert ada_page.locator("#start").is_disabled()

    # when Grace takes the last seat and opens the page
    seat_join(match_id=match.pk, player=grace, position=1)
    grace_page = signed_in_page(new_page, sign_in, live_server.url, grace)
    open_table(grace_page, live_server.url, match.pk, "open")
    ada_page.locator("#waiting-title", has_text="Every seat is taken").wait_for()

    # then only Ada may start it; Grace is told who will, and no page still waits for players
    assert not grace_page.locator("#start").is_visible()
    assert grace_page.locator("#start-note").inner_text() == "Waiting for the creator to start."
    assert grace_page.locator("#waiting-title").inner_text() == "Every seat is taken"
    assert ada_page.locator("#start").is_enabled()
    assert not ada_page.locator("#start-note").is_visible()
    for page in (ada_page, grace_page):
        assert "Waiting for players" not in page.locator("#table").inner_text()
    screenshot(grace_page, "waiting-room-not-creator")
    ada_page.locator("#start").click()
    ada_page.wait_for_function("document.getElementById('table').dataset.status === 'playing'")
    assert ada_page.locator("#messages .error").count() == 0


def test_the_table_draws_the_hand_once_in_view_with_reasons(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    # given a Mexican Train of eight seats (a tall board), Ada's page at 1280 x 900
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    grace = PlayerFactory(user__username="grace", display_name="Grace")
    seats = [SeatSpec(kind="creator"), SeatSpec(kind="open")]
    seats += [SeatSpec(kind="bot", level=2)] * 6
    match = match_create(creator=ada, variant="mexican_train", seats=seats, options={})
    seat_join(match_id=match.pk, player=grace, position=1)
    match_start(match_id=match.pk, player=ada)
    match.refresh_from_db()
    state = engine.from_json(match.state)
    waiting = 1 - state.turn if state.turn in (0, 1) else 0  # a human whose turn it is not
    player = (ada, grace)[waiting]
    page = signed_in_page(new_page, sign_in, live_server.url, player, width=1280, height=900)

    # when the table is open
    open_table(page, live_server.url, match.pk, "playing")
    page.locator("#board svg").wait_for()
    page.locator("#hand .tile").first.wait_for()

    # then the hand is drawn once: as buttons, not in the picture
    hand = {f"{min(a, b)}-{max(a, b)}" for a, b in state.hands[waiting]}
    assert {t.get_attribute("data-tile") for t in page.locator("#hand .tile").all()} == hand
    assert page.locator("#board svg .tile[data-role='hand']").count() == 0
    # the hand is on screen without scrolling
    hand_box = box(page, "#hand")
    assert hand_box["y"] >= 0, hand_box
    assert hand_box["y"] + hand_box["height"] <= 900, hand_box
    # a tile that cannot be played says why: in its name and in a tooltip
    tile = page.locator("#hand .tile").first
    assert tile.get_attribute("title") == "Not your turn yet"
    assert tile.get_attribute("aria-disabled") == "true"
    named = page.get_by_role("button", name=re.compile(r"^Tile \d+\u2013\d+: not your turn yet$"))
    assert named.count() == len(state.hands[waiting])
    tile.hover()
    screenshot(page, "table-hand-in-view")


def test_mexican_train_labels_clear_the_engine_in_the_page(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    long = ("Maximiliana Wolfeschlegelsteinhausen", "Bartholomew Featherstonehaugh-Smythe")
    match, players = two_player_match("mexican_train", long)
    seat_join(match_id=match.pk, player=players[1], position=1)
    match_start(match_id=match.pk, player=players[0])
    page = signed_in_page(new_page, sign_in, live_server.url, players[0], width=1280, height=900)
    open_table(page, live_server.url, match.pk, "playing")
    page.locator("#board svg .train-label").first.wait_for()

    boxes = page.eval_on_selector_all(
        "#board svg .train-label, #board svg .tile[data-role='centre']",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.getAttribute('class'), r.left, r.top, r.right, r.bottom]; })",
    )
    engine_box = next(b for b in boxes if b[0] == "tile")
    labels = [b for b in boxes if b[0] == "train-label"]
    assert len(labels) == 3
    for label in labels:
        apart = (
            label[3] <= engine_box[1]
            or engine_box[3] <= label[1]
            or label[4] <= engine_box[2]
            or engine_box[4] <= label[2]
        )
        assert apart, (label, engine_box)
    screenshot(page, "mexican-train-labels")


def test_a_finished_match_shows_the_winner_first_and_the_board_once(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    # given a finished match whose players' names hold markup
    match, players = finished_match(["<b>Ada</b>", "Grace & co", "Alan"])
    page = signed_in_page(new_page, sign_in, live_server.url, players[1], width=1280, height=900)

    # when one of them opens it
    open_table(page, live_server.url, match.pk, "finished")
    page.locator("#last-round svg").wait_for()
    page.locator("#winner").wait_for(state="visible")

    # then the winner is at the top, named as text, and the board is drawn once
    banner = box(page, "#winner")
    assert banner["y"] + banner["height"] <= 900
    order = engine.standings(engine.from_json(match.state))
    first = [row for row in order if row["place"] == 1]
    names = [p.display_name for p in players]
    text = page.locator("#winner").inner_text()
    for row in first:
        assert names[row["seat"]] in text
    assert page.locator("#winner b").count() == 0  # "<b>Ada</b>" stays text
    assert not page.locator("#play").is_visible()
    assert page.locator("svg .tile[data-role='centre']").count() == 1
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 3000, height
    # text columns read from the left, numbers line up on the right
    align = page.eval_on_selector_all(
        "#scores tbody tr[data-round='1'] > *", "cs => cs.map(c => getComputedStyle(c).textAlign)"
    )
    assert align == ["left", "right", "right", "right"]
    screenshot(page, "finished-match")


def test_the_board_scrolls_sideways_on_a_phone(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    # given: a match in play, and one over (its last round's picture is wider than a phone),
    # both played before a page polls the database
    match, players = two_player_match()
    seat_join(match_id=match.pk, player=players[1], position=1)
    match_start(match_id=match.pk, player=players[0])
    over, seated = finished_match(["Ada2", "Grace2", "Alan2"])
    phone = signed_in_page(new_page, sign_in, live_server.url, players[0], width=390, height=844)
    open_table(phone, live_server.url, match.pk, "playing")
    phone.locator("#board svg").wait_for()

    # then: the board is drawn at one unit a pixel at least (its pips can be read), and the
    # page never scrolls sideways
    scale = phone.evaluate(
        "(() => { const svg = document.querySelector('#board svg');"
        " return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; })()"
    )
    assert scale >= 1 - 1e-3, scale
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "board-on-phone")

    # and: a board wider than the phone keeps its size and scrolls sideways in its box
    phone = signed_in_page(new_page, sign_in, live_server.url, seated[0], width=390, height=844)
    open_table(phone, live_server.url, over.pk, "finished")
    phone.locator("#last-round svg").wait_for()
    box = phone.evaluate(
        "(() => { const b = document.getElementById('last-round');"
        " const svg = b.querySelector('svg');"
        " return [b.scrollWidth, b.clientWidth, getComputedStyle(b).overflowX,"
        " svg.getBoundingClientRect().width / svg.viewBox.baseVal.width]; })()"
    )
    assert box[0] > box[1], box
    assert box[2] == "auto", box
    assert box[3] >= 1 - 1e-3, box
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.evaluate("document.getElementById('last-round').scrollLeft = 200")
    assert phone.evaluate("document.getElementById('last-round').scrollLeft") > 0
    screenshot(phone, "board-scrolls-on-phone")


def test_log_in_first_links_to_the_log_in_form_and_back(
    live_server: Any, new_page: Any, screenshot: Any
) -> None:
    # given a match page opened by someone not logged in
    match, (ada, _) = two_player_match()
    ada.user.set_password(PASSWORD)
    ada.user.save()
    page = new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/")

    # then the message links to the log-in form, with the page to come back to
    link = page.locator("#messages a", has_text="Log in")
    here = f"/matches/{match.pk}/"
    assert link.get_attribute("href") == f"/?next={quote(here, safe='')}#login-form"
    screenshot(page, "log-in-first")

    # and logging in there comes back to the match
    link.click()
    form = page.locator("#login-form")
    form.get_by_label("Username").fill("u0")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}{here}")
    page.wait_for_function("document.getElementById('table').dataset.status === 'open'")

    # a next that leads off the site is ignored
    page.evaluate("localStorage.clear()")
    page.goto(f"{live_server.url}/?next=//example.invalid/")
    form.get_by_label("Username").fill("u0")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    page.locator("#lobby").wait_for(state="visible")
    assert page.url.startswith(live_server.url)


def test_the_lobby_shows_the_options_of_the_game_chosen_and_the_bots_by_name(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    page = signed_in_page(new_page, sign_in, live_server.url, ada)
    page.goto(f"{live_server.url}/")
    form = page.locator("#create-form")
    form.locator("summary", has_text="House options").click()

    form.get_by_label("Game").select_option("chickenfoot")
    assert form.get_by_label("Spinner arms").is_visible()
    assert not form.get_by_label("Hands face up").is_visible()
    screenshot(page, "lobby-chicken-foot-options")

    form.get_by_label("Game").select_option("mexican_train")
    assert form.get_by_label("Hands face up").is_visible()
    assert not form.get_by_label("Spinner arms").is_visible()
    assert not form.get_by_label("A playable drawn tile must be played").is_visible()

    # every bot the API has, under the name the API gives it
    options = form.get_by_label("Seat 2").locator("option").all_inner_texts()
    for level, name in BOT_NAMES.items():
        assert any(o.startswith(f"{name} (level {level})") for o in options), (name, options)

    # the records are a click away
    page.locator("#lobby a", has_text="Tournaments and leagues").click()
    page.wait_for_url(f"{live_server.url}/competitions/")


def test_the_docs_name_the_bots_the_api_has() -> None:
    web = (DOCS / "web.md").read_text()
    api = (DOCS / "api.md").read_text()
    assert "level 1\u20133" not in web
    for level, name in BOT_NAMES.items():
        assert f"{name} (level {level})" in web
        assert f"| {level} | {name} |" in api


def test_the_competitions_index_the_leaderboard_and_the_favicon(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    # given a finished tournament and a league nobody has played in yet
    players = [PlayerFactory(user__username=f"w{i}", display_name=f"Walker {i}") for i in range(5)]
    tournament_id, standings = finished_tournament(players)
    organiser = client_for(PlayerFactory(is_organiser=True))
    league = organiser.post(
        "/api/competitions",
        {"kind": "league", "name": "Quiet <league>", "variant": "mexican_train", "table_size": 4},
        format="json",
    )
    assert league.status_code == HTTPStatus.CREATED, league.content
    page = signed_in_page(new_page, sign_in, live_server.url, players[0], width=1280, height=900)

    # the index: every competition, its kind and status, a link to each
    page.goto(f"{live_server.url}/competitions/")
    page.wait_for_function("document.getElementById('competitions').dataset.loaded === 'true'")
    rows = page.locator("#competition-list tbody tr")
    assert rows.count() == 2
    league_row = page.locator(f"tr[data-competition='{league.json()['id']}']")
    assert league_row.locator("td").all_inner_texts()[:4] == [
        "Quiet <league>",
        "League",
        "Mexican Train",
        "registering players",
    ]
    tournament_row = page.locator(f"tr[data-competition='{tournament_id}']")
    assert "finished" in tournament_row.inner_text()
    screenshot(page, "competitions-index")

    # the league has nothing to chart yet, and says so instead of drawing an empty chart
    league_row.locator("a").click()
    page.wait_for_function("document.getElementById('competition').dataset.loaded === 'true'")
    assert page.locator("#by-stage").inner_text() == "No rated matches yet."
    assert page.locator("#by-stage svg").count() == 0
    screenshot(page, "league-no-matches")

    # the leaderboard, as the API ranks it, names left and numbers right
    board = client_for(players[0]).get("/api/leaderboards/chickenfoot").json()["results"]
    page.goto(f"{live_server.url}/leaderboards/chickenfoot/")
    page.wait_for_function("document.getElementById('leaderboard').dataset.loaded === 'true'")
    rows = page.locator("#leaderboard-table tbody tr")
    assert rows.count() == len(board) > 0
    for index, row in enumerate(board):
        cells = rows.nth(index).locator("td").all_inner_texts()
        # numbers as the page's language writes them (English here: 1,920)
        assert [cells[0], cells[1], cells[3]] == [
            format_decimal(row["rank"], locale="en"),
            row["name"],
            format_decimal(row["display"], locale="en"),
        ]
    align = page.eval_on_selector_all(
        "#leaderboard-table tbody tr:first-child td",
        "cs => cs.map(c => getComputedStyle(c).textAlign)",
    )
    assert align == ["right", "left", "left", "right", "right"]
    assert standings["standings"]  # the tournament rated its players
    screenshot(page, "leaderboard")

    # the icon: an SVG in the site's static files, and /favicon.ico leads to it
    icon = page.locator("link[rel='icon']").get_attribute("href")
    assert icon.endswith("/favicon.svg")
    http = Client()
    served = http.get("/favicon.ico")
    assert served.status_code == HTTPStatus.MOVED_PERMANENTLY
    assert served["Location"] == icon
    fetched = page.request.get(live_server.url + icon)
    assert fetched.status == HTTPStatus.OK
    assert fetched.headers["content-type"].startswith("image/svg+xml")


def test_the_player_page_shows_one_rating_scale(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    match, players = finished_match(["Ada", "Grace", "Alan"])
    page = signed_in_page(new_page, sign_in, live_server.url, players[0], width=1280, height=900)
    page.goto(f"{live_server.url}/players/{players[0].pk}/")
    page.wait_for_function("document.getElementById('player').dataset.loaded === 'true'")

    figure = page.locator("#ratings figure[data-variant='chickenfoot']")
    values = [
        float(v)
        for v in figure.locator("svg .point").evaluate_all(
            "ps => ps.map(p => p.getAttribute('data-value'))"
        )
    ]
    trend = int(figure.get_attribute("data-trend"))
    assert trend == values[-1] - values[0]  # the chart's own scale
    caption = figure.locator("figcaption").inner_text()
    display = int(re.search(r": (\d+) ", caption).group(1))
    assert display == values[-1]
    assert f"{trend:+d} over the last 1" in caption
    assert match.pk
    screenshot(page, "player-rating-scale")
