"""The table and the finished match as a person sees them at 1280 x 900 and 390 x 844: nothing
covers a playable target and the board uses the room there is; the hand's tiles are drawn as the
board's are; a finished match leads with the winner, the places, the totals and how ties were
decided within the phone's first screen, its chart's text at least 11 px; a tie broken by a
rule says so in every language; logging in says that it is working and sends once. Screenshots:
``tests/artifacts/layout-*.png``, ``finished-*.png``, ``log-in-working.png``."""

from __future__ import annotations

import gettext
import xml.etree.ElementTree as ET
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from chickenfoot import svg
from chickenfoot.i18n.languages import LANGUAGE_CODES
from games import engine
from games.models import Match
from games.pictures.tiles import tile
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory, token_for
from tests.web.test_page_security import finished_match

pytestmark = pytest.mark.django_db(transaction=True)

LOCALE = Path(__file__).resolve().parents[2] / "locale"
SIZES = [(1280, 900), (390, 844)]
#: The geometry a tile's drawing is compared by.
GEOMETRY = ("x", "y", "width", "height", "rx", "cx", "cy", "r", "font-size", "stroke-width")
PAINT = ("d", "fill", "stroke", "font-weight", "text-anchor", "dominant-baseline")


def signed_in(new_page: Any, sign_in: Any, base: str, player: Any, size: tuple[int, int]) -> Any:
    page = new_page(width=size[0], height=size[1])
    sign_in(page, base, token=token_for(player), name=player.display_name, player_id=player.pk)
    return page


def a_long_board() -> tuple[Match, Any, list[int]]:
    """A Mexican Train of eight seats (two people, six bots): the board is long. The person
    whose turn it is holds a tile that goes on the Mexican Train, the board's last row."""
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    grace = PlayerFactory(user__username="grace", display_name="Grace")
    for number in range(200):
        seats = [
            SeatSpec(kind="creator"),
            SeatSpec(kind="open"),
            *[SeatSpec(kind="bot", level=2)] * 6,
        ]
        match = match_create(creator=ada, variant="mexican_train", seats=seats, options={})
        seat_join(match_id=match.pk, player=grace, position=1)
        Match.objects.filter(pk=match.pk).update(seed=f"{number:064x}")
        match_start(match_id=match.pk, player=ada)
        match.refresh_from_db()
        state = engine.from_json(match.state)
        if state.turn not in (0, 1):
            continue
        for move in engine.legal_moves(state, state.turn):
            if move.kind == "play" and move.target == "mexican":
                return match, (ada, grace)[state.turn], sorted(move.tile)
    raise AssertionError("no deal puts a Mexican Train play in a person's hand")


#: Each highlighted target scrolled into view as a person would (as little as needed), then:
#: is it inside the window, and is it what the pointer finds at its middle and near each corner?
TARGETS_SEEN = """() => [...document.querySelectorAll('#board svg .open-end.choice')].map((end) => {
  end.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = end.getBoundingClientRect();
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  const points = [[(r.left + r.right) / 2, (r.top + r.bottom) / 2], [r.left + 3, r.top + 3],
    [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]];
  const on = points.map(([x, y]) => {
    const found = document.elementFromPoint(x, y);
    return Boolean(found && end.contains(found));
  });
  return { target: end.dataset.target, inside, on, box: [r.left, r.top, r.right, r.bottom] };
})"""


#: How the board is drawn: units to a pixel, the box round what it shows (its tiles, open
#: ends, words and lines), the width of its box and the window's height below the box's top.
BOARD_DRAWN = """(() => {
  const box = document.getElementById('board');
  const svg = box.querySelector('svg');
  const parts = [...svg.querySelectorAll('.tile, .open-end, text, .link')]
    .map((part) => part.getBoundingClientRect());
  const left = Math.min(...parts.map((r) => r.left));
  const right = Math.max(...parts.map((r) => r.right));
  const top = Math.min(...parts.map((r) => r.top));
  const bottom = Math.max(...parts.map((r) => r.bottom));
  return { scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,
    units: svg.viewBox.baseVal.width, width: right - left, height: bottom - top,
    room: box.clientWidth, below: innerHeight - (box.getBoundingClientRect().top + scrollY) };
})()"""


def test_a_round_just_dealt_is_drawn_large_at_1280(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    # given: a Chicken Foot round just dealt (a small board: the centre double, four arms)
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    grace = PlayerFactory(user__username="grace", display_name="Grace")
    seats = [SeatSpec(kind="creator"), SeatSpec(kind="open"), *[SeatSpec(kind="bot", level=2)] * 2]
    match = match_create(creator=ada, variant="chickenfoot", seats=seats, options={})
    seat_join(match_id=match.pk, player=grace, position=1)
    match_start(match_id=match.pk, player=ada)

    # when: Ada opens it at 1280 x 900
    page = signed_in(new_page, sign_in, live_server.url, ada, (1280, 900))
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#board svg .tile").first.wait_for()
    page.locator("#hand .tile").first.wait_for()

    # then: the board fills the room beside the hand (its box's width, or the window's height
    # below it), not a corner of it, and the hand is in the window beside it
    drawn = page.evaluate(BOARD_DRAWN)
    assert drawn["width"] >= 0.5 * drawn["room"] or drawn["height"] >= 0.8 * drawn["below"], drawn
    assert drawn["scale"] > 1.2, drawn
    hand = page.locator("#hand-card").bounding_box()
    assert hand["y"] + hand["height"] <= 900, hand
    board = page.locator("#board").bounding_box()
    assert hand["x"] >= board["x"] + board["width"], (hand, board)  # beside it, over nothing
    screenshot(page, "layout-round-dealt-1280")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_nothing_covers_a_playable_target_and_the_board_uses_the_room(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any, size: tuple[int, int]
) -> None:
    # given: a long board, and the person whose turn it is holding a tile for its last row
    match, player, tile_ends = a_long_board()
    page = signed_in(new_page, sign_in, live_server.url, player, size)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#board svg").wait_for()

    # when: they choose that tile
    page.locator(f'#hand .tile[data-tile="{tile_ends[0]}-{tile_ends[1]}"]').click()
    page.locator("#board svg .open-end.choice").first.wait_for()

    # then: every highlighted target can be seen and pointed at: nothing lies over it
    seen = page.evaluate(TARGETS_SEEN)
    assert any(t["target"] == "mexican" for t in seen), seen
    for target in seen:
        assert target["inside"], target
        assert all(target["on"]), target
    # and: never below its own size; on a wide screen, a board longer than the window is drawn
    # to the width of its box beside the hand, up to one and a half times its size
    drawn = page.evaluate(BOARD_DRAWN)
    assert drawn["scale"] >= 1 - 1e-3, drawn
    if size[0] >= 1000:
        assert drawn["scale"] >= min(1.5, drawn["room"] / drawn["units"]) - 1e-3, drawn
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    screenshot(page, f"layout-target-{size[0]}")


def drawn_parts(element: ET.Element) -> list[tuple[str, dict[str, str], str]]:
    """A tile drawing's shapes in order: tag, geometry and paint, and any text."""
    parts = []
    for node in element.iter():
        tag = node.tag.rsplit("}", 1)[-1]
        if tag in ("rect", "path", "circle", "text"):
            attrs = {k: f"{float(v):g}" for k, v in node.attrib.items() if k in GEOMETRY}
            attrs |= {k: v for k, v in node.attrib.items() if k in PAINT}
            parts.append((tag, attrs, (node.text or "").strip()))
    return parts


def test_the_hand_draws_its_tiles_as_the_board_does(
    live_server: Any, new_page: Any, sign_in: Any
) -> None:
    # given: a double-12 Mexican Train in play (numerals above 9), seen by a seated player
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    grace = PlayerFactory(user__username="grace", display_name="Grace")
    match = match_create(creator=ada, variant="mexican_train",
                         seats=[SeatSpec(kind="creator"), SeatSpec(kind="open")],
                         options={"max_pip": 12})  # fmt: skip
    seat_join(match_id=match.pk, player=grace, position=1)
    match_start(match_id=match.pk, player=ada)
    page = signed_in(new_page, sign_in, live_server.url, ada, (1280, 900))
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#hand .tile svg").first.wait_for()

    # then: each tile of the hand is the picture's tile, shape for shape, and no "7|8" text
    hand = page.eval_on_selector_all(
        "#hand .tile", "ts => ts.map(t => [t.dataset.tile, t.textContent, t.innerHTML])"
    )
    assert hand
    for key, text, inner in hand:
        a, b = map(int, key.split("-"))
        picture = svg.drawing(44, 22)
        picture.append(tile(a, b, 0, 0, role="hand"))
        expected = drawn_parts(ET.fromstring(svg.as_svg(picture)))  # noqa: S314
        shown = drawn_parts(ET.fromstring(inner))  # noqa: S314
        assert shown == expected, key
        assert "|" not in text, key
    assert any(max(map(int, key.split("-"))) > 9 for key, _, _ in hand)  # a numeral among them


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_finished_match_leads_with_the_winner_and_the_places_and_its_chart_is_legible(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any, size: tuple[int, int]
) -> None:
    match, players = finished_match(["Ada", "Grace", "Alan"])
    page = signed_in(new_page, sign_in, live_server.url, players[1], size)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_function("document.getElementById('table').dataset.status === 'finished'")
    page.locator("#chart svg .point").first.wait_for()
    page.locator("#last-round svg").wait_for()

    # the winner, every place with its total, within the first screen
    for selector in ("#winner", "#standings"):
        box = page.locator(selector).bounding_box()
        assert box["y"] + box["height"] <= size[1], (selector, box)
    places = page.locator("#standings-list li").all_inner_texts()
    assert len(places) == 3
    assert all("point" in place for place in places), places
    # the details follow: the scores and the chart come after the places
    assert (
        page.locator("#results").bounding_box()["y"]
        > page.locator("#standings").bounding_box()["y"]
    )
    # every text of the chart is drawn 11 px or larger
    assert chart_text_sizes(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    screenshot(page, f"finished-{size[0]}")
    if size[0] > 390:  # a window made narrow: the chart is drawn again for it
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function(
            "Number(document.getElementById('chart').dataset.width)"
            " === Math.max(280, Math.floor(document.getElementById('chart').clientWidth))"
        )
        assert chart_text_sizes(page) == []


def chart_text_sizes(page: Any) -> list[tuple[str, float]]:
    """Each text of the totals chart drawn under 11 px (none, once it is legible)."""
    sizes = page.evaluate(
        "(() => { const svg = document.querySelector('#chart svg');"
        " const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;"
        " return [...svg.querySelectorAll('text')].map(t =>"
        " [t.textContent, parseFloat(t.getAttribute('font-size')) * scale]); })()"
    )
    assert sizes
    return [(text, round(px, 1)) for text, px in sizes if px < 11 - 1e-6]


def test_a_tie_broken_by_a_rule_says_so_in_every_language(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    # given: a table match in which Ada and Grace end level on points; Ada has a round at zero
    ada, grace, _alan = (PlayerFactory(user__username=n.lower(), display_name=n)
                        for n in ("Ada", "Grace", "Alan"))  # fmt: skip
    client = client_for(ada)
    seats = [{"kind": "creator"}, {"kind": "player", "username": "grace"},
             {"kind": "player", "username": "alan"}]  # fmt: skip
    body = {"variant": "chickenfoot", "play": "table", "options": {"max_pip": 6, "rounds": 2},
            "seats": seats}  # fmt: skip
    created = client.post("/api/matches", body, format="json")
    assert created.status_code == HTTPStatus.CREATED, created.content
    match = created.json()["id"]
    for number, points, out in ((1, [0, 4, 20], 0), (2, [10, 6, 0], 2)):
        scores = [{"seat": s, "points": p, "went_out": s == out} for s, p in enumerate(points)]
        entered = client.post(f"/api/matches/{match}/rounds/{number}/scores",
                              {"version": number - 1, "scores": scores}, format="json")  # fmt: skip
        assert entered.status_code == HTTPStatus.CREATED, entered.content
    page = signed_in(new_page, sign_in, live_server.url, grace, (390, 844))
    host = live_server.url.split("//", 1)[1].split(":")[0]

    for language in LANGUAGE_CODES:
        # when: Grace reads it in each language
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "domain": host, "path": "/"}])  # fmt: skip
        page.goto(f"{live_server.url}/matches/{match}/")
        page.wait_for_function("!document.getElementById('winner').hidden")

        # then: the banner and the places say that the rule broke the tie
        js = gettext.translation("djangojs", LOCALE, languages=[language])
        won = js.ngettext("%(who)s won with %(points)s point, on rounds at zero (%(rule)s).",
                          "%(who)s won with %(points)s points, on rounds at zero (%(rule)s).",
                          10) % {"who": "Ada", "points": 10, "rule": "C-WIN"}  # fmt: skip
        expect(page.locator("#winner")).to_have_text(won)
        notes = page.locator("#standings-list .decided").all_inner_texts()
        assert notes == [
            js.gettext("won on rounds at zero (%(rule)s)") % {"rule": "C-WIN"},
            js.gettext("level on points, placed by rounds at zero (%(rule)s)") % {"rule": "C-WIN"},
        ], language
        if language != "en":
            assert "won on rounds at zero" not in won, language
        screenshot(page, f"finished-tie-{language}")


def test_logging_in_says_it_is_working_and_sends_once(
    live_server: Any, new_page: Any, screenshot: Any
) -> None:
    # given: the log-in form, and a server slow to answer (the answer held back)
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    ada.user.set_password("correct horse battery")
    ada.user.save()
    page = new_page(width=390, height=844)
    held: list[Any] = []
    page.route("**/api/auth/token", lambda route: held.append(route))
    page.goto(f"{live_server.url}/")
    form = page.locator("#login-form")
    form.get_by_label("Username").fill("ada")
    form.get_by_label("Password").fill("correct horse battery")

    # when: the button is pressed, then pressed again and Enter too, while it waits
    button = form.locator("button[type=submit]")
    button.click()
    page.wait_for_function(
        "document.getElementById('login-form').getAttribute('aria-busy') === 'true'"
    )
    form.get_by_label("Password").press("Enter")
    page.evaluate("document.getElementById('login-form').requestSubmit()")
    button.click(force=True)

    # then: it says that it is working, and one request went
    assert button.is_disabled()
    expect(button).to_have_text("Logging in…")
    assert button.locator(".spinner").count() == 1
    screenshot(page, "log-in-working")
    assert len(held) == 1

    # and: once the answer comes, the lobby
    held[0].continue_()
    page.locator("#lobby").wait_for(state="visible")
    assert len(held) == 1
