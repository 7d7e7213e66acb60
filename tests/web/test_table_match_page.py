"""A match played at a table on its own page (``/matches/{id}/``), in Chromium on Daphne (the
page, the API and the match's socket): its creator (the event's organiser, at a desktop), a
seated player (on a phone) and another organiser see each round's scores by seat with who went
out and the running totals, the confirmations and disputes with their reasons, the corrections
in the score log, the places with how each was decided once it is over, the chart and the
score sheet; those who may score it enter and correct rounds from the page, and what is
entered elsewhere appears without a reload. Names and reasons that are markup stay text.
Screenshots: ``tests/artifacts/table-match-*.png``.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
from http import HTTPStatus
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.foundation.hostile import EXPLOIT
from tests.web.conftest import PAGE_TIMEOUT_MS
from tests.web.test_page_security import WATCH_VIOLATIONS
from tests.web.test_scorer_browser import SCRIPT_NAME, register, table_event
from tests.web.test_wall_browser import Hall, call, hall  # noqa: F401 (the server fixture)

expect.set_options(timeout=PAGE_TIMEOUT_MS)

WENT_OUT = 'document.querySelector(\'#rounds tr[data-round="1"] td[data-went-out="true"]\')'


def table_page(new_page: Any, sign_in: Any, base: str, token: str, who: dict, **size: int) -> Any:
    page = new_page(**size)
    page.add_init_script(WATCH_VIOLATIONS)
    sign_in(page, base, token=token, name=who["name"], player_id=who["id"])
    return page


def opened(page: Any, base: str, match: int) -> Any:
    page.goto(f"{base}/matches/{match}/")
    page.wait_for_function("document.getElementById('table').dataset.live === 'socket'")
    page.locator("#table-match").wait_for()
    page.evaluate("window.notReloaded = true")
    return page


def scorer_enters(hall: Hall, code: str, match: int, number: int, body: dict) -> None:  # noqa: F811
    """A round entered by the phone at the table: its scorer link, not a player's token."""
    conn = http.client.HTTPConnection("127.0.0.1", hall.server.port, timeout=60)
    try:
        headers = {"Authorization": f"Scorer {code}", "Content-Type": "application/json"}
        conn.request("POST", f"/api/matches/{match}/rounds/{number}/scores", json.dumps(body),
                     headers)  # fmt: skip
        response = conn.getresponse()
        assert response.status == HTTPStatus.CREATED, response.read()
    finally:
        conn.close()


def cells(page: Any, round_number: int) -> list[tuple[str, str]]:
    """Round ``round_number``'s cells: each seat's points and its total so far."""
    row = page.locator(f'#rounds tr[data-round="{round_number}"] td')
    return list(
        zip(
            [text.strip() for text in row.locator(".points").all_text_contents()],
            row.locator(".running").all_text_contents(),
            strict=True,
        )
    )


def test_the_table_match_page_shows_what_the_api_holds_and_follows_it_live(
    hall: Hall,  # noqa: F811
    new_page: Any,
    sign_in: Any,
    screenshot: Any,
    tmp_path: Path,
) -> None:
    # given: a two-round table match of an event (Ada, its organiser, created it; Grace, named
    # EXPLOIT, sits at it; a guest named SCRIPT_NAME), every round confirmed by another seat
    event = table_event(hall, rounds=2)
    match, base = event["match"], hall.server.base
    call(hall, "PATCH", f"/api/matches/{match}/table-settings", event["ada"],
         {"confirmation": "any_other_seat"})  # fmt: skip
    ada = call(hall, "GET", "/api/players/me", event["ada"])
    grace = call(hall, "GET", "/api/players/me", event["grace"])
    # an organiser of other events: she may watch
    olga_id, olga = register(hall, "Olga", organiser=True)
    desk = opened(table_page(new_page, sign_in, base, event["ada"], ada, width=1280, height=900),
                  base, match)  # fmt: skip
    phone = opened(table_page(new_page, sign_in, base, event["grace"], grace, width=390,
                              height=844), base, match)  # fmt: skip
    watcher = opened(table_page(new_page, sign_in, base, olga, {"name": "Olga", "id": olga_id},
                                width=1280, height=900), base, match)  # fmt: skip
    pages = (desk, phone, watcher)
    for page in pages:
        expect(page.locator("#status")).to_have_text("Round 1 of 2 to enter · starts with 6|6")
        assert page.locator("#no-rounds").is_visible()
        assert page.locator("#play").is_hidden()  # no board, no hand
        assert page.locator("#hand-card").is_hidden()
    # the creator and the seated player may score it from here; the watcher may not
    for page in (desk, phone):
        assert page.locator("#entry").is_visible()
        assert page.locator("#seat-fields legend").all_text_contents() == [
            "Ada", EXPLOIT, SCRIPT_NAME]  # fmt: skip
    assert watcher.locator("#entry").is_hidden()
    assert watcher.locator("#correct").is_hidden()

    # when: the phone at the table (its scorer link) enters round 1
    scores = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 5},
              {"seat": 2, "points": 20}]  # fmt: skip
    scorer_enters(hall, event["link"]["code"], match, 1, {"version": 1, "scores": scores})

    # then: every page shows it without a reload: who went out, each seat's total so far
    for page in pages:
        page.wait_for_function(f"{WENT_OUT}?.dataset.seat === '0'")
        assert cells(page, 1) == [("0 went out", "total 0"), ("5", "total 5"), ("20", "total 20")]
        assert page.locator('#rounds tr[data-round="1"] td[data-seat="0"] svg.check').count() == 1
        expect(page.locator("#round-reviews")).to_have_text("Round 1: awaiting confirmation")
        expect(page.locator("#status")).to_have_text("Round 2 of 2 to enter · starts with 5|5")
    # the scorer link made it, so either seated player may confirm it; the watcher may not
    assert watcher.locator("#confirm button").count() == 0
    expect(desk.locator("#score-log")).to_contain_text("Round 1 entered by a scorer link")
    assert watcher.locator("#log-card").is_hidden()  # the log is its players' and organiser's

    # when: Grace corrects round 1 on her phone, with a reason
    phone.select_option("#correct-round", "1")
    phone.fill("#correct-points-1", "4")
    phone.fill("#correct-reason", "Counted again: 4 <b>not</b> 5")
    phone.click("#correct-submit")

    # then: Ada's page shows the correction, its reason as text, without a reload
    correction = desk.locator('#score-log li[data-kind="correction"]')
    expect(correction).to_contain_text(f"Round 1 corrected by {EXPLOIT}: Ada 0, {EXPLOIT} 5 → 4")
    expect(correction.locator(".reason")).to_have_text("Counted again: 4 <b>not</b> 5")
    expect(desk.locator('#rounds tr[data-round="1"] td[data-seat="1"] .points')).to_have_text("4")

    # when: Ada confirms the round as corrected
    desk.locator('#confirm button[data-round="1"]').click()

    # then: Grace's phone says who confirmed it
    expect(phone.locator("#round-reviews")).to_have_text("Round 1: confirmed by Ada")

    # when: Grace disputes it anyway, and Ada resolves the dispute (over the API)
    call(hall, "POST", f"/api/matches/{match}/rounds/1/dispute", event["grace"],
         {"reason": "<b>I had 3</b>"})  # fmt: skip
    for page in pages:
        expect(page.locator("#round-reviews")).to_have_text(
            f"Round 1: confirmed by Ada; disputed by {EXPLOIT}: <b>I had 3</b>"
        )
        assert page.locator("#round-reviews b").count() == 0
    screenshot(phone, "table-match-phone-disputed")
    call(hall, "POST", f"/api/matches/{match}/rounds/1/resolve", event["ada"],
         {"note": "4 stands"})  # fmt: skip
    for page in pages:
        expect(page.locator("#round-reviews")).to_contain_text("a dispute resolved: 4 stands")

    # when: Ada enters the last round from her page: level on points with Grace, but with a
    # round at zero
    desk.fill("#entry-points-0", "10")
    desk.fill("#entry-points-1", "6")
    desk.fill("#entry-points-2", "0")
    desk.check("#entry-out-2")
    desk.click("#submit")

    # then: on every page the match is over: the winner, how the tie was broken, the places
    for page in pages:
        page.wait_for_function("document.getElementById('table').dataset.status === 'finished'")
        expect(page.locator("#winner")).to_have_text(
            "Ada won with 10 points, on rounds at zero (C-WIN)."
        )
        expect(page.locator("#standings-list li")).to_have_text([
            "Ada: 10 points (winner) · won on rounds at zero (C-WIN)",
            f"{EXPLOIT}: 10 points · level on points, placed by rounds at zero (C-WIN)",
            f"{SCRIPT_NAME}: 20 points",
        ])  # fmt: skip
        assert page.locator("#rounds tr.totals td").all_inner_texts() == ["10", "10", "20"]
        assert page.locator("#entry").is_hidden()
        page.locator("#table-chart svg .point").nth(8).wait_for()
        assert page.evaluate("window.notReloaded") is True
        assert page.evaluate("typeof window.xss") == "undefined"
        assert page.locator("img, image, b").count() == 0
        assert page.evaluate("window.__violations") == []
        assert not page.locator("#hand-card").is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # the phone shows who won and the places first, within its first screen
    places = phone.locator("#standings").bounding_box()
    assert places["y"] + places["height"] <= 844, places
    # a finished match stays correctable by those who may score it
    assert desk.locator("#correct").is_visible()
    assert watcher.locator("#correct").is_hidden()
    screenshot(desk, "table-match-finished")
    screenshot(phone, "table-match-phone-finished")
    screenshot(watcher, "table-match-watcher")

    # and: the score sheet, fetched with Ada's token, is the match's PDF
    with desk.expect_download() as download:
        desk.click("#score-sheet")
    saved = tmp_path / "sheet.pdf"
    download.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF-")
    assert watcher.locator("#score-sheet").is_hidden()


def test_a_finished_match_page_shows_its_places_once_they_are_written(
    hall: Hall,  # noqa: F811
    new_page: Any,
    sign_in: Any,
) -> None:
    # given: Ada's one-round table match with a guest, finished by its only entry; its results
    # then taken back (rows, marker, version) so that it waits for them as it would for a worker
    ada_id, ada = register(hall, "Ada", organiser=True)
    seats = [{"kind": "creator"}, {"kind": "guest", "name": "Bea"}]
    body = {"variant": "chickenfoot", "play": "table", "options": {"max_pip": 6, "rounds": 1},
            "seats": seats}  # fmt: skip
    match = call(hall, "POST", "/api/matches", ada, body)["id"]
    scores = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 12}]
    call(hall, "POST", f"/api/matches/{match}/rounds/1/scores", ada,
         {"version": 0, "scores": scores})  # fmt: skip
    with sqlite3.connect(hall.database) as db:
        for table in ("scoring_matchresult", "scoring_ratingchange"):
            db.execute(f"DELETE FROM {table} WHERE match_id = ?", (match,))  # noqa: S608
        db.execute("UPDATE scoring_matchfinalisation SET finalised_at = NULL WHERE match_id = ?",
                   (match,))  # fmt: skip
        db.execute("UPDATE games_match SET version = version - 1, results_version = 0"
                   " WHERE id = ?", (match,))  # fmt: skip
    page = table_page(new_page, sign_in, hall.server.base, ada, {"name": "Ada", "id": ada_id},
                      width=1280, height=900)  # fmt: skip
    page.goto(f"{hall.server.base}/matches/{match}/")
    page.wait_for_function("document.getElementById('table').dataset.live === 'over'")
    expect(page.locator("#status")).to_have_text(
        "The match is over: its places are being worked out."
    )
    assert page.locator("#winner").is_hidden()
    page.evaluate("window.notReloaded = true")

    # when: they are written (Ada, an organiser, finalises it now)
    written = call(hall, "POST", f"/api/matches/{match}/finalise", ada)
    assert written["written"] is True

    # then: the page shows the places without a reload
    expect(page.locator("#winner")).to_have_text("Ada won with 0 points.")
    assert page.evaluate("window.notReloaded") is True
