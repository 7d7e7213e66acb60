"""The wall's page in Chromium: it redraws a table and the standings from its socket, without
a reload, as a round's scores are entered and the results come in; phone and projector
layouts, each screenshotted (``tests/artifacts/wall-phone.png``, ``wall-projector.png``); an
event of two divisions, a section each, hostile names drawn as text.

The server is Daphne (``manage.py runserver``, as ``make run`` serves) on a database file of
its own; the test drives it over HTTP, and puts the table match at a stage's table directly in
that file (seating a table match at a stage is not the wall's to do).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
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


@dataclass
class Hall:
    server: Served
    database: Path


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    work = tmp_path_factory.mktemp("wall")
    database = work / "db.sqlite3"
    migrated_database(tmp_path_factory.getbasetemp(), database)
    port = free_port()
    command = [PYTHON, "manage.py", "runserver", "--noreload", "--insecure", f"127.0.0.1:{port}"]
    env = embedded_env(database, LOG_LEVEL="WARNING")
    with serving(command, port=port, env=env, log=work / "server.log", timeout=90) as server:
        yield Hall(server=server, database=database)


def call(hall: Hall, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    status, _, data = request(hall.server.port, method, path, body, token)
    assert status < HTTPStatus.BAD_REQUEST, (method, path, status, data)
    return data


def register(hall: Hall, username: str, name: str) -> tuple[int, str]:
    body = {"username": username, "password": PASSWORD, "display_name": name}
    data = call(hall, "POST", "/api/players", body=body)
    return data["player"]["id"], data["token"]


def public_table_competition(hall: Hall) -> tuple[int, int, str]:
    """A public tournament whose stage 1 table 1 is a two-round match scored at the table:
    (competition id, match id, the scorer's token)."""
    ada_id, ada = register(hall, "ada", "Ada")
    _, grace = register(hall, "grace", "Grace")
    with sqlite3.connect(hall.database) as db:
        db.execute("UPDATE games_player SET is_organiser = 1 WHERE id = ?", (ada_id,))
    body = {"kind": "tournament", "name": "Hall cup", "variant": "chickenfoot",
            "table_size": 3, "stage_count": 1}  # fmt: skip
    competition = call(hall, "POST", "/api/competitions", ada, body)["id"]
    for token in (ada, grace):
        call(hall, "POST", f"/api/competitions/{competition}/register", token)
    match = call(
        hall,
        "POST",
        "/api/matches",
        ada,
        {
            "variant": "chickenfoot",
            "play": "table",
            "options": {"max_pip": 6, "rounds": 2},
            "seats": [
                {"kind": "creator"},
                {"kind": "player", "username": "grace"},
                {"kind": "guest", "name": HOSTILE},
            ],
        },
    )["id"]
    with sqlite3.connect(hall.database) as db:
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
    call(hall, "POST", f"/api/competitions/{competition}/publish", ada)
    return competition, match, ada


def enter(hall: Hall, token: str, match: int, number: int, version: int) -> None:
    scores = [
        {"seat": 0, "points": 0, "went_out": True},
        {"seat": 1, "points": 9},
        {"seat": 2, "points": 14},
    ]
    body = {"version": version, "scores": scores}
    call(hall, "POST", f"/api/matches/{match}/rounds/{number}/scores", token, body)


def test_the_wall_follows_the_scores_without_a_reload(
    hall: Hall, new_page: Any, screenshot: Any
) -> None:
    competition, match, ada = public_table_competition(hall)
    phone = new_page(width=390, height=844)
    phone.goto(f"{hall.server.base}/events/{competition}/")
    phone.wait_for_function("document.getElementById('wall-live').dataset.state === 'live'")
    phone.evaluate("window.wallNotReloaded = true")
    seats = phone.locator(".wall-table .seats").first
    assert seats.text_content() == f"Ada, Grace, {HOSTILE}"  # the name as text, not markup
    assert phone.locator("img").count() == 0

    enter(hall, ada, match, 1, 0)
    phone.wait_for_function(
        "document.querySelector('.wall-table .progress').textContent"
        " === 'playing: round 1 of 2 entered'"
    )
    enter(hall, ada, match, 2, 1)  # the last round: the results come in
    phone.wait_for_function(
        "document.querySelector('#wall-standings tbody td:nth-child(3)')?.textContent === '4.0'"
    )
    assert phone.evaluate("window.wallNotReloaded") is True
    assert phone.locator(".wall-stage h3 .status").text_content() == "(finished)"
    assert phone.locator("#wall-standings tbody td.name").all_text_contents() == ["Ada", "Grace"]
    # a column per tie-break of the (default) order, redrawn with the rows
    assert phone.locator("#wall-standings th.tie-break").all_text_contents() == [
        "Wins", "Pips a round", "Head-to-head",
    ]  # fmt: skip
    assert phone.locator("#wall-standings tbody tr").first.locator(
        "td.tie-break"
    ).all_text_contents() == ["1", "0", "0"]
    assert phone.locator("#wall-standings tbody tr").nth(1).locator(
        "td.tie-break"
    ).all_text_contents() == ["0", "9", "0"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "wall-phone")

    projector = new_page(width=1920, height=1080)
    projector.goto(f"{hall.server.base}/events/{competition}/?layout=projector")
    projector.wait_for_function("document.getElementById('wall-live').dataset.state === 'live'")
    size = projector.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= 1920
    assert size[1] <= 1080
    assert (
        projector.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('td.name')).fontSize)"
        )
        >= 24
    )
    screenshot(projector, "wall-projector")


def test_each_division_has_its_section_of_the_wall_its_name_as_text(
    hall: Hall, new_page: Any
) -> None:
    organiser_id, organiser = register(hall, "olga", "Olga")
    with sqlite3.connect(hall.database) as db:
        db.execute("UPDATE games_player SET is_organiser = 1 WHERE id = ?", (organiser_id,))
    names = [HOSTILE, "<b>Club</b>"]
    body = {"kind": "tournament", "play": "table", "name": "Two-division cup",
            "variant": "chickenfoot", "table_size": 2, "stage_count": 1, "options": {"rounds": 1},
            "divisions": [{"name": name} for name in names]}  # fmt: skip
    competition = call(hall, "POST", "/api/competitions", organiser, body)["id"]
    url = f"/api/competitions/{competition}"
    for index, guest in enumerate(("Ann", "Ben", "Cy", "Di")):
        entrant = {"name": guest, "division": names[index // 2], "check_in": True}
        call(hall, "POST", f"{url}/entrants", organiser, entrant)
    call(hall, "POST", f"{url}/close", organiser)
    call(hall, "POST", f"{url}/publish", organiser)
    call(hall, "POST", f"{url}/stages", organiser, {"number": 1})

    page = new_page(width=1280, height=900)
    page.goto(f"{hall.server.base}/events/{competition}/")
    page.wait_for_function("document.getElementById('wall-live').dataset.state === 'live'")
    page.wait_for_selector("#wall-standings tbody tr.division")
    headings = page.locator("#wall-standings tbody tr.division th").all_text_contents()
    assert headings == [f"Division {name}" for name in names]  # the names as text
    assert page.locator("#wall-standings tbody td.name").all_text_contents() == [
        "Ann", "Ben", "Cy", "Di",
    ]  # fmt: skip
    assert page.locator(".wall-table .division").all_text_contents() == [
        f"Division {name}" for name in names
    ]
    assert page.locator("img").count() == 0
    assert page.locator("#wall-standings b").count() == 0
