"""The scorer's page on a phone (390 x 844), opened at a scorer link's QR URL, and the
organiser's dashboard, in Chromium on Daphne (``manage.py runserver``, sockets and all): a
round entered by numbers shows on the public wall without a reload, a correction with its
reason reaches the score log, a round entered with the tile picker finishes the match, an
answer lost on the way and sent again enters once, a refusal names the seat, a revoked code
says so, and hostile names stay text. Screenshots: ``tests/artifacts/scorer-*.png`` and
``stage-dashboard.png``.
"""

from __future__ import annotations

import itertools
import sqlite3
from http import HTTPStatus
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.foundation.hostile import EXPLOIT
from tests.foundation.live_server import request
from tests.web.conftest import PAGE_TIMEOUT_MS
from tests.web.test_wall_browser import Hall, call, hall  # noqa: F401 (the server fixture)

# Text a redraw writes is waited for as long as a page's other steps may take on a busy machine.
expect.set_options(timeout=PAGE_TIMEOUT_MS)

PASSWORD = "correct horse battery"
#: Names that are markup: they must show as text and run nothing.
SCRIPT_NAME = "<script>window.xss=2</script>"
_serial = itertools.count(1)


def register(server: Hall, name: str, *, organiser: bool = False) -> tuple[int, str]:
    """A new account named ``name`` (an organiser's, with ``organiser``): its id and token."""
    username = f"p{next(_serial)}"
    body = {"username": username, "password": PASSWORD, "display_name": name}
    data = call(server, "POST", "/api/players", body=body)
    if organiser:
        with sqlite3.connect(server.database) as db:
            db.execute(
                "UPDATE games_player SET is_organiser = 1 WHERE id = ?", (data["player"]["id"],)
            )
    return data["player"]["id"], data["token"]


def table_event(server: Hall, *, rounds: int = 2) -> dict[str, Any]:
    """A public one-stage tournament whose table 1 is a match scored at the table, seating
    the organiser, a player named ``EXPLOIT`` and a guest named ``SCRIPT_NAME``."""
    _, ada = register(server, "Ada", organiser=True)
    grace_id, grace = register(server, EXPLOIT)
    body = {"kind": "tournament", "play": "table", "name": f"Hall cup {next(_serial)}",
            "variant": "chickenfoot", "table_size": 3, "stage_count": 2}  # fmt: skip
    competition = call(server, "POST", "/api/competitions", ada, body)["id"]
    for token in (ada, grace):
        call(server, "POST", f"/api/competitions/{competition}/register", token)
    seats = [{"kind": "creator"}, {"kind": "player", "player_id": grace_id},
             {"kind": "guest", "name": SCRIPT_NAME}]  # fmt: skip
    match_body = {"variant": "chickenfoot", "play": "table",
                  "options": {"max_pip": 6, "rounds": rounds}, "seats": seats}  # fmt: skip
    match = call(server, "POST", "/api/matches", ada, match_body)["id"]
    with sqlite3.connect(server.database) as db:
        stage = db.execute(
            "INSERT INTO scoring_stage (competition_id, number, status, started_at)"
            " VALUES (?, 1, 'playing', datetime('now'))",
            (competition,),
        ).lastrowid
        db.execute(
            "INSERT INTO scoring_competitionmatch"
            " (competition_id, match_id, stage_id, table_number, finished) VALUES (?, ?, ?, 1, 0)",
            (competition, match, stage),
        )
        db.execute("UPDATE scoring_competition SET status = 'running', current_stage = 1"
                   " WHERE id = ?", (competition,))  # fmt: skip
    call(server, "POST", f"/api/competitions/{competition}/publish", ada)
    link = call(server, "POST", f"/api/matches/{match}/scorer-links", ada)
    return {"competition": competition, "match": match, "ada": ada, "grace": grace, "link": link}


def open_scorer(new_page: Any, url: str) -> Any:
    phone = new_page(width=390, height=844)
    phone.goto(url)
    phone.wait_for_function("document.getElementById('scorer').dataset.state !== 'loading'")
    return phone


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390


def type_points(phone: Any, points: list[int | None], went_out: int | None) -> None:
    for seat, value in enumerate(points):
        if value is not None:
            phone.fill(f"#entry-points-{seat}", str(value))
    phone.check(f"#entry-out-{went_out}" if went_out is not None else "#nobody-out")


def score_log(server: Hall, event: dict[str, Any]) -> list[dict[str, Any]]:
    return call(server, "GET", f"/api/matches/{event['match']}/score-log", event["ada"])["entries"]


@pytest.fixture
def event(hall: Hall) -> dict[str, Any]:  # noqa: F811
    return table_event(hall)


def test_a_phone_scores_the_table_and_the_wall_follows_without_a_reload(
    hall: Hall,  # noqa: F811
    event: dict[str, Any],
    new_page: Any,
    screenshot: Any,
) -> None:
    # given: the wall open on one screen, the scorer's page at the QR URL on a phone
    wall = new_page(width=390, height=844)
    wall.goto(f"{hall.server.base}/events/{event['competition']}/")
    wall.wait_for_function("document.getElementById('wall-live').dataset.state === 'live'")
    wall.evaluate("window.notReloaded = true")
    phone = open_scorer(new_page, event["link"]["url"])
    assert phone.evaluate("document.getElementById('scorer').dataset.state") == "playing"
    legends = phone.locator("#seat-fields legend").all_text_contents()
    assert legends == ["Ada", EXPLOIT, SCRIPT_NAME]  # as text, in seat order
    assert phone.locator("#event").text_content().endswith("Stage 1 · Table 1")
    expect(phone.locator("#round-line")).to_have_text("Round 1 of 2 · starts with 6|6")
    assert phone.locator("#code-form").is_hidden()  # the address held the code
    no_sideways_scroll(phone)
    screenshot(phone, "scorer-phone")

    # when: round 1 by numbers, Ada out
    type_points(phone, [None, 9, 14], went_out=0)
    phone.click("#submit")

    # then: the phone shows it, and the wall redraws the table without a reload
    phone.wait_for_function("document.querySelector('#rounds th[data-round=\"1\"]') !== null")
    assert phone.locator("#rounds td.total").all_text_contents() == ["0", "9", "14"]
    wall.wait_for_function(
        "document.querySelector('.wall-table .progress').textContent"
        " === 'playing: round 1 of 2 entered'"
    )
    assert wall.evaluate("window.notReloaded") is True
    expect(phone.locator("#round-line")).to_have_text("Round 2 of 2 · starts with 5|5")

    # when: round 1 corrected, with a reason
    phone.select_option("#correct-round", "1")
    phone.fill("#correct-points-2", "15")
    phone.fill("#correct-reason", "Counted again: 15")
    phone.click("#correct-submit")

    # then: the score log shows the correction and its reason
    phone.wait_for_function(
        "document.querySelector('#score-log li[data-kind=\"correction\"] .reason')"
        "?.textContent === 'Counted again: 15'"
    )
    assert [e["kind"] for e in score_log(hall, event)] == ["entry", "correction"]
    assert phone.locator("#rounds td.total").all_text_contents() == ["0", "9", "15"]

    # when: round 2 with the tile picker: 5|5 (the start double) greyed out
    phone.click("#mode-tiles")
    assert phone.locator('.seat[data-seat="1"] button[data-tile="5-5"]').is_disabled()
    phone.locator('.seat[data-seat="1"] summary').click()
    phone.locator('.seat[data-seat="1"] button[data-tile="1-2"]').click()
    phone.locator('.seat[data-seat="1"] button[data-tile="3-4"]').click()
    phone.locator('.seat[data-seat="2"] summary').click()
    phone.locator('.seat[data-seat="2"] button[data-tile="0-0"]').click()
    expect(phone.locator('.seat[data-seat="1"] .sum')).to_have_text("1|2 3|4 = 10")
    no_sideways_scroll(phone)
    screenshot(phone, "scorer-tiles")
    phone.check("#entry-out-0")
    phone.click("#submit")

    # then: the server summed the tiles and the match is over: the final places
    phone.wait_for_function("document.getElementById('scorer').dataset.state === 'finished'")
    phone.wait_for_function("!document.getElementById('final').hidden")
    assert phone.locator("#rounds td.total").all_text_contents() == ["0", "19", "65"]
    places = phone.locator("#places li").all_text_contents()
    assert places == ["1. Ada · 0 points", f"2. {EXPLOIT} · 19 points",
                      f"3. {SCRIPT_NAME} · 65 points"]  # fmt: skip
    wall.wait_for_function(
        "document.querySelector('#wall-standings tbody td.name')?.textContent === 'Ada'"
        " && document.querySelector('.wall-stage h3 .status').textContent === '(finished)'"
    )
    assert wall.evaluate("window.notReloaded") is True
    assert phone.locator("#entry").is_hidden()
    for page in (phone, wall):
        assert page.evaluate("typeof window.xss") == "undefined"
        assert page.locator("image, img").count() == 0
    no_sideways_scroll(phone)
    screenshot(phone, "scorer-final")


def test_an_answer_lost_on_the_way_is_sent_again_and_entered_once(
    hall: Hall,  # noqa: F811
    event: dict[str, Any],
    new_page: Any,
) -> None:
    # given: the first answer to the entry is lost after the server has entered it
    phone = open_scorer(new_page, event["link"]["url"])
    keys: list[str | None] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the server enters it ...
            route.abort()  # ... and its answer never arrives
        else:
            route.continue_()

    phone.route("**/rounds/1/scores", lose_the_first_answer)
    type_points(phone, [0, 9, 14], went_out=0)

    # when: the scorer sends it again
    phone.click("#submit")
    phone.wait_for_function("document.getElementById('submit').textContent.startsWith('Retry')")
    phone.click("#submit")

    # then: the same key both times, and one entry
    phone.wait_for_function("document.querySelector('#rounds th[data-round=\"1\"]') !== null")
    assert len(keys) == 2
    assert keys[0] is not None
    assert keys[0] == keys[1]
    assert [e["round"] for e in score_log(hall, event)] == [1]
    expect(phone.locator("#messages")).to_contain_text("Round 1 entered.")


def test_a_stale_version_reloads_the_match_and_keeps_what_was_typed(
    hall: Hall,  # noqa: F811
    event: dict[str, Any],
    new_page: Any,
) -> None:
    # given: the phone's page at version 0 (its 5 s check held back), and round 1 entered
    # meanwhile from another phone
    phone = new_page(width=390, height=844)
    phone.clock.install()
    phone.goto(event["link"]["url"])
    phone.wait_for_function("document.getElementById('scorer').dataset.state === 'playing'")
    scores = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 3},
              {"seat": 2, "points": 4}]  # fmt: skip
    call(hall, "POST", f"/api/matches/{event['match']}/rounds/1/scores", event["ada"],
         {"version": 0, "scores": scores})  # fmt: skip
    type_points(phone, [0, 9, 14], went_out=0)

    # when
    phone.click("#submit")

    # then: the match reloaded (round 1 is in, round 2 next) and the typed values are kept
    phone.wait_for_function("document.getElementById('scorer').dataset.version === '1'")
    # (the message follows the reload's redraw)
    phone.wait_for_function(
        "document.getElementById('messages').textContent.includes('changed meanwhile')"
    )
    expect(phone.locator("#entry-title")).to_have_text("Round 2")
    assert [phone.input_value(f"#entry-points-{seat}") for seat in range(3)] == ["0", "9", "14"]
    assert phone.is_checked("#entry-out-0")
    assert [e["round"] for e in score_log(hall, event)] == [1]


def test_a_refusal_names_the_seat(
    hall: Hall,  # noqa: F811
    event: dict[str, Any],
    new_page: Any,
) -> None:
    phone = open_scorer(new_page, event["link"]["url"])
    type_points(phone, [0, -5, 14], went_out=0)

    phone.click("#submit")

    phone.wait_for_function("document.querySelector('.seat.invalid') !== null")
    message = phone.locator("#messages").text_content()
    assert EXPLOIT in message
    assert "C-PIPS" in message
    assert phone.locator(".seat.invalid").get_attribute("data-seat") == "1"
    assert phone.locator('.seat[data-seat="1"] .seat-error').is_visible()
    assert score_log(hall, event) == []
    assert phone.evaluate("typeof window.xss") == "undefined"
    no_sideways_scroll(phone)


def test_a_revoked_code_and_an_unknown_one_say_so(
    hall: Hall,  # noqa: F811
    event: dict[str, Any],
    new_page: Any,
    screenshot: Any,
) -> None:
    # given: the link revoked by the match's creator
    links = call(hall, "GET", f"/api/matches/{event['match']}/scorer-links", event["ada"])
    link_id = links["links"][0]["id"]
    status, _, _ = request(
        hall.server.port, "DELETE", f"/api/matches/{event['match']}/scorer-links/{link_id}",
        token=event["ada"],
    )  # fmt: skip
    assert status == HTTPStatus.NO_CONTENT

    for url in (event["link"]["url"], f"{hall.server.base}/score/ABCDEFGHJK/"):
        # when
        phone = open_scorer(new_page, url)

        # then
        assert phone.evaluate("document.getElementById('scorer').dataset.state") == "refused"
        expect(phone.locator("#refused")).to_contain_text("unknown or has been revoked")
        assert phone.locator("#entry").is_hidden()
        no_sideways_scroll(phone)
    screenshot(phone, "scorer-revoked")


def test_the_code_rides_in_the_fragment_and_no_request_s_address_holds_it(
    hall: Hall,  # noqa: F811
    event: dict[str, Any],
    new_page: Any,
) -> None:
    # given: the QR code's address holds the code after "#" only
    code = event["link"]["code"]
    assert event["link"]["url"] == f"{hall.server.base}/score/#{code}"
    phone = new_page(width=390, height=844)
    addresses: list[str] = []
    phone.on("request", lambda sent: addresses.append(sent.url))

    # when: the code is typed in from the table card, as a person would (lower case, a dash)
    phone.goto(f"{hall.server.base}/score/")
    phone.wait_for_function("document.getElementById('scorer').dataset.state === 'code'")
    assert phone.locator("#code-form").is_visible()
    assert phone.locator("#entry").is_hidden()
    phone.fill("#code-input", f"{code[:5].lower()}-{code[5:]}")
    phone.click("#code-form button[type=submit]")
    phone.wait_for_function("document.getElementById('scorer').dataset.state === 'playing'")
    assert phone.locator("#code-form").is_hidden()

    # then: the table opens, the address keeps the code in its fragment, and no request sent it
    assert phone.evaluate("window.location.pathname + window.location.hash") == f"/score/#{code}"
    assert phone.locator("#entry").is_visible()
    assert addresses
    assert not [url for url in addresses if code in url.split("#")[0].upper()]
    no_sideways_scroll(phone)

    # and: an address of the older form works, its code moved into the fragment at once
    older = open_scorer(new_page, f"{hall.server.base}/score/{code}/")
    assert older.evaluate("window.location.pathname + window.location.hash") == f"/score/#{code}"
    assert older.evaluate("document.getElementById('scorer').dataset.state") == "playing"


def test_the_organiser_s_dashboard_shows_a_dispute_to_resolve_and_the_next_check_in(
    hall: Hall,  # noqa: F811
    event: dict[str, Any],
    new_page: Any,
    sign_in: Any,
    screenshot: Any,
) -> None:
    # given: round 1 entered and disputed by the player at seat 1
    match = event["match"]
    scores = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 9},
              {"seat": 2, "points": 14}]  # fmt: skip
    call(hall, "POST", f"/api/matches/{match}/rounds/1/scores", event["ada"],
         {"version": 0, "scores": scores})  # fmt: skip
    call(hall, "POST", f"/api/matches/{match}/rounds/1/dispute", event["grace"],
         {"reason": "<b>I had 12</b>"})  # fmt: skip
    page = new_page(width=1100, height=900)
    sign_in(page, hall.server.base, token=event["ada"], name="Ada")

    # when
    page.goto(f"{hall.server.base}/competitions/{event['competition']}/stages/1/")
    page.wait_for_function("document.getElementById('stage').dataset.state === 'ready'")

    # then: the table, highlighted, its dispute with the reason as text
    row = page.locator('#tables [data-table="1"]')
    assert "disputed" in (row.get_attribute("class") or "")
    assert "1 of 2 rounds entered" in row.text_content()
    assert "1 disputed" in row.text_content()
    expect(page.locator(".dispute q")).to_have_text("<b>I had 12</b>")
    assert page.locator(".dispute b").count() == 0
    assert page.locator("#check-ins li").count() == 0
    assert page.locator("#absent li").count() == 2
    screenshot(page, "stage-dashboard")

    # when: the organiser resolves it, checks Ada in and closes check-in
    page.fill(".dispute input", "9 stands")
    page.click(".dispute button")
    page.wait_for_function("document.querySelector('#tables .disputed') === null")
    page.locator("#absent li", has_text="Ada").locator("button").click()
    page.wait_for_function("document.querySelectorAll('#check-ins li').length === 1")
    page.click("#close-check-in")
    page.wait_for_function(
        "document.getElementById('check-in-status').textContent === 'Check-in is closed.'"
    )

    # then
    view = call(hall, "GET", f"/api/matches/{match}", event["ada"])
    assert view["table_rounds"][0]["disputed"] is False
    checked = call(hall, "GET", f"/api/competitions/{event['competition']}/check-ins", event["ada"])
    assert (checked["open"], [c["name"] for c in checked["check_ins"]]) == (False, ["Ada"])
    assert page.evaluate("typeof window.xss") == "undefined"
    assert page.locator("#tables").text_content().count(EXPLOIT) == 1
    phone = new_page(width=390, height=844)
    sign_in(phone, hall.server.base, token=event["ada"], name="Ada")
    phone.goto(f"{hall.server.base}/competitions/{event['competition']}/stages/1/")
    phone.wait_for_function("document.getElementById('stage').dataset.state === 'ready'")
    no_sideways_scroll(phone)
    screenshot(phone, "stage-dashboard-phone")


def test_a_seated_player_signed_in_on_the_phone_confirms_a_round(
    hall: Hall,  # noqa: F811
    event: dict[str, Any],
    new_page: Any,
    sign_in: Any,
) -> None:
    # given: every round needs another seat's confirmation; the phone enters round 1
    match = event["match"]
    call(hall, "PATCH", f"/api/matches/{match}/table-settings", event["ada"],
         {"confirmation": "any_other_seat"})  # fmt: skip
    phone = open_scorer(new_page, event["link"]["url"])
    type_points(phone, [0, 9, 14], went_out=0)
    phone.click("#submit")
    phone.wait_for_function("document.querySelector('#round-flags li') !== null")
    expect(phone.locator("#round-flags")).to_have_text("Round 1: awaiting confirmation")
    expect(phone.locator("#confirm")).to_contain_text("from their own account")

    # when: Grace, seated, is signed in on this browser and confirms it
    grace = call(hall, "GET", "/api/players/me", event["grace"])
    sign_in(phone, hall.server.base, token=event["grace"], name=EXPLOIT, player_id=grace["id"])
    phone.goto(event["link"]["url"])
    phone.wait_for_function("document.querySelector('#confirm button') !== null")
    expect(phone.locator("#confirm button")).to_have_text(f"Confirm round 1 as {EXPLOIT}")
    phone.click("#confirm button")

    # then
    phone.wait_for_function(
        "document.getElementById('round-flags').textContent === 'Round 1: confirmed'"
    )
    view = call(hall, "GET", f"/api/matches/{match}", event["ada"])
    assert (view["table_rounds"][0]["status"], view["table_rounds"][0]["confirmed_by"]) == (
        "confirmed",
        [1],
    )
    assert phone.evaluate("typeof window.xss") == "undefined"


def test_the_organiser_checks_players_in_and_starts_the_first_stage_from_the_dashboard(
    hall: Hall,  # noqa: F811
    new_page: Any,
    sign_in: Any,
) -> None:
    # given: a table tournament whose registration is closed, no stage seated yet
    ada_id, ada = register(hall, "Ada", organiser=True)
    _, grace = register(hall, "Grace")
    body = {"kind": "tournament", "play": "table", "name": "Club night",
            "variant": "chickenfoot", "table_size": 2, "stage_count": 2,
            "options": {"rounds": 1}}  # fmt: skip
    cup = call(hall, "POST", "/api/competitions", ada, body)["id"]
    for token in (ada, grace):
        call(hall, "POST", f"/api/competitions/{cup}/register", token)
    call(hall, "POST", f"/api/competitions/{cup}/close", ada)
    page = new_page(width=390, height=844)
    sign_in(page, hall.server.base, token=ada, name="Ada", player_id=ada_id)
    page.goto(f"{hall.server.base}/competitions/{cup}/")
    page.wait_for_function("!document.getElementById('stage-dashboards').hidden")

    # when: the organiser follows the link to stage 1, checks both in and starts it
    page.click("#stage-dashboards a")
    page.wait_for_function("document.getElementById('stage').dataset.state === 'ready'")
    expect(page.locator("#stage-status")).to_have_text("Stage 1 has not started yet.")
    for name in ("Ada", "Grace"):
        page.locator("#absent li", has_text=name).locator("button").click()
        page.wait_for_function(
            "([name]) => [...document.querySelectorAll('#check-ins li')]"
            ".some((li) => li.textContent.startsWith(name))",
            arg=[name],
        )
    with page.expect_navigation():  # to stage 1's dashboard, once it is seated
        page.click("#start-next")

    # then: stage 1's dashboard, its one table seated
    page.wait_for_function("document.querySelectorAll('#tables [data-table]').length === 1")
    expect(page.locator("#tables")).to_contain_text("0 of 1 rounds entered")
    page.wait_for_function(
        "document.getElementById('next-title').textContent === 'Check-in for stage 2'"
    )
    no_sideways_scroll(page)
