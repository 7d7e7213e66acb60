"""The stage clock, "Find my table" and the projector's pages, in Chromium against Daphne.

The wall and the scorer's page count the organiser's clock down from the server's time (the
browser's own clock is set hours wrong, and the countdown is still right), follow its restart
over the socket, and say "Last round" once it has run out (the browser's clock fast-forwarded
past the end). "Find my table" finds an entrant by part of a hostile name, shown as text. The
projector shows a 60-entrant field a page at a time, turning the page on its own.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

from tests.foundation.live_server import (
    PYTHON,
    Served,
    embedded_env,
    free_port,
    migrated_database,
    request,
    serving,
)

PASSWORD = "correct horse battery"
HOSTILE = "<img src=x onerror=alert(1)>"
#: The wall's page turns (wall.js's PAGE_MS).
PAGE_MS = 10000


@dataclass
class Hall:
    server: Served
    database: Path
    token: str = ""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    work = tmp_path_factory.mktemp("wall-clock")
    database = work / "db.sqlite3"
    migrated_database(tmp_path_factory.getbasetemp(), database)
    port = free_port()
    command = [PYTHON, "manage.py", "runserver", "--noreload", "--insecure", f"127.0.0.1:{port}"]
    env = embedded_env(database, LOG_LEVEL="WARNING", RATE_LIMITS="false")
    with serving(command, port=port, env=env, log=work / "server.log", timeout=90) as server:
        hall = Hall(server=server, database=database)
        body = {"username": "olga", "password": PASSWORD, "display_name": "Olga"}
        data = call(hall, "POST", "/api/players", body=body)
        with sqlite3.connect(database) as db:
            db.execute(
                "UPDATE games_player SET is_organiser = 1 WHERE id = ?", (data["player"]["id"],)
            )
        hall.token = data["token"]
        yield hall


def call(hall: Hall, method: str, path: str, body: Any = None) -> Any:
    status, _, data = request(hall.server.port, method, path, body, hall.token or None)
    assert status < HTTPStatus.BAD_REQUEST, (method, path, status, data)
    return data


def public_event(hall: Hall, names: list[str]) -> int:
    """A public table event at tables of 4 whose stage 1 seats ``names``."""
    body = {"kind": "tournament", "play": "table", "name": "Hall night", "variant": "chickenfoot",
            "table_size": 4, "stage_count": 2, "options": {"rounds": 1}}  # fmt: skip
    cid = call(hall, "POST", "/api/competitions", body)["id"]
    for name in names:
        call(hall, "POST", f"/api/competitions/{cid}/entrants", {"name": name, "check_in": True})
    call(hall, "POST", f"/api/competitions/{cid}/close")
    call(hall, "POST", f"/api/competitions/{cid}/stages", {"number": 1})
    call(hall, "POST", f"/api/competitions/{cid}/publish")
    return int(cid)


def live(page: Any) -> None:
    page.wait_for_function("document.getElementById('wall-live').dataset.state === 'live'")


def minutes_left(text: str) -> int:
    found = re.fullmatch(r"Time left: (\d+):(\d\d)", text)
    assert found, text
    return int(found[1])


def test_the_clock_counts_down_from_the_server_s_time_and_ends_in_the_last_round(
    hall: Hall, new_page: Any, screenshot: Any
) -> None:
    # given: a public event whose stage clock runs 45 minutes
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", HOSTILE]
    cid = public_event(hall, names)
    call(hall, "POST", f"/api/competitions/{cid}/stages/1/clock", {"minutes": 45})

    # when: the wall opens on a screen whose clock is three hours fast
    wall = new_page(width=390, height=844)
    wall.clock.install(time=datetime.now(tz=UTC) + timedelta(hours=3))
    wall.goto(f"{hall.server.base}/events/{cid}/")
    live(wall)

    # then: it still shows the 45 minutes the server counts, not a clock run out
    clock = wall.locator("#wall-clock")
    assert clock.get_attribute("data-state") == "running"
    assert minutes_left(clock.text_content()) in (44, 45)
    screenshot(wall, "wall-clock-phone")

    # when: the organiser starts it again for one minute, the socket brings it
    call(hall, "POST", f"/api/competitions/{cid}/stages/1/clock", {"minutes": 1})
    wall.wait_for_function(
        "/^Time left: (1:00|0:[0-5][0-9])$/.test(document.getElementById('wall-clock').textContent)"
    )

    # and the scorer's phone, its clock two hours slow, shows the same minute
    links = call(hall, "GET", f"/api/competitions/{cid}/stages/1/scorer-links")["tables"]
    scorer = new_page(width=390, height=844)
    scorer.clock.install(time=datetime.now(tz=UTC) - timedelta(hours=2))
    scorer.goto(f"{hall.server.base}/score/#{links[0]['code']}")
    scorer.wait_for_function("document.getElementById('stage-clock').dataset.state === 'running'")
    assert minutes_left(scorer.locator("#stage-clock").text_content()) in (0, 1)

    # when: the minute passes
    wall.clock.fast_forward("01:05")
    scorer.clock.fast_forward("01:05")

    # then: both say the last round is on (read at once with the state: only the pages' clocks
    # were moved on, so a later reading of the server's time would count the minute again)
    for page, node in ((wall, "wall-clock"), (scorer, "stage-clock")):
        found = f"document.getElementById('{node}')"
        page.wait_for_function(
            f"{found}.dataset.state === 'ended' && {found}.textContent === 'Last round'"
        )
    screenshot(wall, "wall-last-round")
    # and once it has run out on the server too, the page it draws says so
    with sqlite3.connect(hall.database) as db:
        db.execute(
            "UPDATE scoring_stage SET clock_started_at = datetime('now', '-2 minutes'),"
            " clock_ends_at = datetime('now', '-1 minutes') WHERE competition_id = ?",
            (cid,),
        )
    wall.reload()
    assert wall.locator("#wall-clock").text_content() == "Last round"

    # when: the organiser stops it, the wall shows no clock
    live(wall)
    call(hall, "DELETE", f"/api/competitions/{cid}/stages/1/clock")
    wall.wait_for_function("document.getElementById('wall-clock').hidden")


def test_find_my_table_finds_a_hostile_name_as_text(hall: Hall, new_page: Any) -> None:
    # given: a public event whose stage 1 seats a guest with a hostile name
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", HOSTILE, "Ida"]
    cid = public_event(hall, names)
    stage = call(hall, "GET", f"/api/competitions/{cid}/stages/1")
    where = {
        seat["name"]: (table["table"], position + 1)
        for table in stage["tables"]
        for position, seat in enumerate(table["seats"])
    }
    wall = new_page(width=390, height=844)
    wall.goto(f"{hall.server.base}/events/{cid}/")
    live(wall)

    # when: part of the name is typed
    wall.fill("#find-input", "ONERROR")

    # then: the entrant, their table and seat, the name as text and no markup
    results = wall.locator("#find-results li")
    assert results.count() == 1
    table, seat = where[HOSTILE]
    assert results.first.text_content() == f"{HOSTILE} — Table {table}, seat {seat}"
    assert wall.locator("img").count() == 0
    assert wall.evaluate("window.alerted === undefined")

    # and a name nobody has is said so; a letter many have lists each of them
    wall.fill("#find-input", "zzz")
    assert results.first.text_content() == "Nobody of that name at stage 1."
    wall.fill("#find-input", "a")
    shown = {item.split(" — ")[0] for item in results.all_text_contents()}
    assert shown == {name for name in names if "a" in name.lower()}  # the seated and a bye


def test_the_projector_pages_through_a_large_field_on_its_own(
    hall: Hall, new_page: Any, screenshot: Any
) -> None:
    # given: 60 entrants at 15 tables
    names = [f"Player {n:02}" for n in range(60)]
    cid = public_event(hall, names)
    projector = new_page(width=1920, height=1080)
    projector.clock.install(time=datetime.now(tz=UTC))
    projector.goto(f"{hall.server.base}/events/{cid}/?layout=projector")
    live(projector)

    # then: the standings show as many rows as fit, "page 1 of n"
    label = projector.locator("#standings-page")
    found = re.fullmatch(r"page 1 of (\d+)", label.text_content())
    assert found, label.text_content()
    pages = int(found[1])
    assert pages >= 2
    size = projector.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size == [1920, 1080]
    screenshot(projector, "wall-projector-paged")
    rows = "#wall-standings tbody tr:not([data-paged-out]) td.name"
    seen: list[str] = []
    for page in range(1, pages + 1):
        assert label.text_content() == f"page {page} of {pages}"
        shown = projector.locator(rows).all_text_contents()
        assert shown
        bottoms = projector.evaluate(
            f"[...document.querySelectorAll({rows!r})].map((td) => td.getBoundingClientRect()"
            ".bottom)"
        )
        assert max(bottoms) <= 1080  # every row shown is on the screen
        seen += shown
        # when: the page turns on its own
        projector.clock.fast_forward(PAGE_MS)
    # then: every entrant was shown once, and it is back on page 1
    assert sorted(seen) == sorted(names)
    assert label.text_content() == f"page 1 of {pages}"
    # and the tables of the stage page too, every table shown
    tables = projector.locator("#tables-page")
    table_pages = int(tables.text_content().rsplit(" ", 1)[1]) if tables.is_visible() else 1
    numbers: set[str] = set()
    for _ in range(table_pages):
        numbers |= set(
            projector.locator(
                ".wall-stage[data-current] .wall-table:not([data-paged-out])"
            ).evaluate_all("(items) => items.map((li) => li.dataset.table)")
        )
        projector.clock.fast_forward(PAGE_MS)
    assert numbers == {str(n) for n in range(1, 16)}
