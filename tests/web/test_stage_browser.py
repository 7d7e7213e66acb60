"""The organiser's stage dashboard in Chromium, on Daphne: a stage a late correction left
paired from old standings says so, with who moved (hostile names as text), and one button
re-pairs it. Screenshot: ``tests/artifacts/stage-stale.png``."""

from __future__ import annotations

import itertools
import sqlite3
from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import PAGE_TIMEOUT_MS
from tests.web.test_wall_browser import Hall, call, hall  # noqa: F401 (the server fixture)

expect.set_options(timeout=PAGE_TIMEOUT_MS)

PASSWORD = "correct horse battery"
SCRIPT_NAME = "<script>window.xss=3</script>"
_serial = itertools.count(1)


def organiser(hall: Hall) -> tuple[int, str]:  # noqa: F811
    body = {"username": f"olga{next(_serial)}", "password": PASSWORD, "display_name": "Olga"}
    data = call(hall, "POST", "/api/players", body=body)
    with sqlite3.connect(hall.database) as db:
        db.execute("UPDATE games_player SET is_organiser = 1 WHERE id = ?", (data["player"]["id"],))
    return data["player"]["id"], data["token"]


def score_all(hall: Hall, token: str, cid: int, stage: int, out: int = 0) -> list[dict]:  # noqa: F811
    board = call(hall, "GET", f"/api/competitions/{cid}/stages/{stage}/dashboard", token)
    for table in board["tables"]:
        scores = [{"seat": i, "points": 0 if i == out else 10 + i, "went_out": i == out}
                  for i in range(len(table["seats"]))]  # fmt: skip
        call(hall, "POST", f"/api/matches/{table['match_id']}/rounds/1/scores", token,
             {"version": 0, "scores": scores})  # fmt: skip
    return list(board["tables"])


def test_a_stale_stage_says_who_moved_and_one_button_re_pairs_it(
    hall: Hall,  # noqa: F811
    new_page: Any,
    sign_in: Any,
    screenshot: Any,
) -> None:
    # given: four walk-ins (two with names that are markup); stage 1 scored, stage 2 seated
    olga_id, olga = organiser(hall)
    body = {"kind": "tournament", "play": "table", "name": "Club night", "variant": "chickenfoot",
            "table_size": 2, "stage_count": 2, "options": {"rounds": 1}}  # fmt: skip
    cid = call(hall, "POST", "/api/competitions", olga, body)["id"]
    names = ["Wendy", SCRIPT_NAME, "<b>Bold</b>", "Walt"]
    ids = [
        call(hall, "POST", f"/api/competitions/{cid}/entrants", olga,
             {"name": name, "check_in": True})["entrants"][0]["player_id"]
        for name in names
    ]  # fmt: skip
    call(hall, "POST", f"/api/competitions/{cid}/close", olga)
    call(hall, "POST", f"/api/competitions/{cid}/stages", olga, {"number": 1})
    tables = score_all(hall, olga, cid, 1)
    for player_id in ids:
        call(hall, "POST", f"/api/competitions/{cid}/check-in", olga, {"player_id": player_id})
    call(hall, "POST", f"/api/competitions/{cid}/stages", olga, {"number": 2})

    # when: table 1 of stage 1 is corrected (the other seat went out)
    match = tables[0]["match_id"]
    call(hall, "POST", f"/api/matches/{match}/reopen", olga, {"reason": "Miscounted"})
    version = call(hall, "GET", f"/api/matches/{match}", olga)["version"]
    fixed = [{"seat": 0, "points": 10}, {"seat": 1, "points": 0, "went_out": True}]
    call(hall, "PUT", f"/api/matches/{match}/rounds/1/scores", olga,
         {"version": version, "reason": "Seat 1 went out", "scores": fixed})  # fmt: skip
    page = new_page(width=1100, height=900)
    sign_in(page, hall.server.base, token=olga, name="Olga", player_id=olga_id)
    page.goto(f"{hall.server.base}/competitions/{cid}/stages/2/")
    page.wait_for_function("document.getElementById('stage').dataset.state === 'ready'")

    # then: the dashboard says the stage was paired from old standings, and who moved (the two
    # of the corrected table, and anyone the tie-breaks moved with them)
    expect(page.locator("#stale")).to_be_visible()
    moved = [tables[0]["seats"][0]["name"], tables[0]["seats"][1]["name"]]
    for name in moved:
        expect(page.locator("#stale-changes")).to_contain_text(name)
    assert page.locator("#stale-changes b").count() == 0
    assert page.evaluate("typeof window.xss") == "undefined"
    screenshot(page, "stage-stale")

    # when: the organiser re-pairs it
    page.click("#re-pair")

    # then: the notice goes; the stage was paired again, from version 0
    expect(page.locator("#stale")).to_be_hidden()
    stage = call(hall, "GET", f"/api/competitions/{cid}/stages/2", olga)
    assert (stage["version"], stage["pairing_stale"]) == (1, None)
    changes = call(hall, "GET", f"/api/competitions/{cid}/seating-changes", olga)["changes"]
    assert [c["kind"] for c in changes] == ["re_pair"]
