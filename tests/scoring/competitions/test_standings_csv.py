"""The standings CSV keeps what players wrote in its cell: quoted as RFC 4180 says, never run as
a spreadsheet formula."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from scoring.api.standings import StandingsCSVRenderer
from scoring.competitions.standings import COLUMNS
from scoring.models import Competition
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.schema_check import check_response, openapi


def written(name: str) -> str:
    row = dict.fromkeys(COLUMNS, 0) | {"name": name}
    text = StandingsCSVRenderer().render({"standings": [row]}).decode()
    return next(csv.DictReader(io.StringIO(text, newline="")))["name"]


@pytest.mark.parametrize("name", ["=1+2", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])
def test_a_name_that_a_spreadsheet_would_run_is_written_as_text(name: str) -> None:
    assert written(name) == f"'{name}"


@pytest.mark.parametrize("name", ["a,b", 'say "hi"', "two\nlines", "car\rriage", "a\r\nb"])
def test_a_name_with_quotes_commas_or_line_breaks_stays_in_its_cell(name: str) -> None:
    assert written(name) == name


# --- the CSV's own operation -------------------------------------------------------------------

STANDINGS = "/api/competitions/{competition_id}/standings"


def test_the_schema_gives_the_csv_an_operation_of_its_own_as_a_string() -> None:
    paths = openapi()["paths"]

    csv_answer = paths[STANDINGS + ".csv"]["get"]["responses"]["200"]["content"]
    json_answer = paths[STANDINGS]["get"]["responses"]["200"]["content"]

    assert csv_answer["text/csv"]["schema"] == {"type": "string"}
    assert list(csv_answer) == ["text/csv"]
    assert list(json_answer) == ["application/json"]
    assert paths[STANDINGS + ".csv"]["get"]["operationId"] == "competition_standings_csv"
    (format_,) = [p for p in paths[STANDINGS]["get"]["parameters"] if p["name"] == "format"]
    assert format_["deprecated"] is True
    assert "standings.csv" in format_["description"]


@pytest.mark.django_db
def test_the_csv_operation_answers_text_csv_as_the_schema_says(
    league: Competition, players: list[Player], counted: Callable[..., Match]
) -> None:
    counted(league, players[:3], [[0, 12, 30]])
    client = client_for(players[0])

    answer = client.get(f"/api/competitions/{league.pk}/standings.csv")

    assert answer.status_code == HTTPStatus.OK
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert answer["Content-Disposition"] == (
        f'attachment; filename="competition-{league.pk}-standings.csv"'
    )
    rows = list(csv.DictReader(io.StringIO(answer.content.decode(), newline="")))
    assert [row["name"] for row in rows[:3]] == [p.display_name for p in players[:3]]
    check_response(answer, STANDINGS + ".csv", "GET")
    # older links: the JSON's path sends ?format=csv (declared, deprecated) and Accept: text/csv
    # on to the CSV's own operation, which a browser or client follows to the same file
    csv_path = f"/api/competitions/{league.pk}/standings.csv"
    for older in (
        client.get(f"/api/competitions/{league.pk}/standings?format=csv"),
        client.get(f"/api/competitions/{league.pk}/standings", HTTP_ACCEPT="text/csv"),
    ):
        assert (older.status_code, older["Location"], older.content) == (308, csv_path, b"")
        check_response(older, STANDINGS, "GET")
    followed = client.get(f"/api/competitions/{league.pk}/standings?format=csv", follow=True)
    assert (followed["Content-Type"], followed.content) == (answer["Content-Type"], answer.content)
    # its refusals are problem documents, never CSV
    missing = client.get("/api/competitions/999/standings.csv")
    assert missing["Content-Type"] == "application/problem+json"
    check_response(missing, STANDINGS + ".csv", "GET")
    json_answer = client.get(f"/api/competitions/{league.pk}/standings")
    assert json_answer["Content-Type"] == "application/json"
    check_response(json_answer, STANDINGS, "GET")


# --- points per stage --------------------------------------------------------------------------


def _stage(organiser: APIClient, cid: int, number: int, present: list[int]) -> dict[str, Any]:
    """Check ``present`` in, start stage ``number`` and score its tables (seat 0 goes out)."""
    for player_id in present:
        checked = organiser.post(
            f"/api/competitions/{cid}/check-in", {"player_id": player_id}, format="json"
        )
        assert checked.status_code == HTTPStatus.OK, checked.content
    started = organiser.post(f"/api/competitions/{cid}/stages", {"number": number}, format="json")
    assert started.status_code == HTTPStatus.CREATED, started.content
    stage = started.json()
    for table in stage["tables"]:
        scores = [
            {"seat": seat["position"], "points": 0 if seat["position"] == 0 else 9 + i}
            | ({"went_out": True} if seat["position"] == 0 else {})
            for i, seat in enumerate(table["seats"])
        ]
        entered = organiser.post(
            f"/api/matches/{table['match_id']}/rounds/1/scores",
            {"version": 0, "scores": scores},
            format="json",
        )
        assert entered.status_code == HTTPStatus.CREATED, entered.content
    return stage


@pytest.mark.django_db
def test_the_csv_has_a_column_of_points_per_stage_with_byes_and_a_drop_out(
    organiser: Player,
    organiser_client: APIClient,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: three players at tables of two over three stages (one bye at stage 1)
    created = organiser_client.post(
        "/api/competitions",
        {"kind": "tournament", "play": "table", "name": "Three nights", "variant": "chickenfoot",
         "table_size": 2, "stage_count": 3, "options": {"rounds": 1}},
        format="json",
    )  # fmt: skip
    cid = created.json()["id"]
    people = [PlayerFactory(display_name=name) for name in ("Ann", "Ben", "Cat")]
    for person in people:
        assert client_for(person).post(f"/api/competitions/{cid}/register").status_code == 200
    organiser_client.post(f"/api/competitions/{cid}/close")
    with django_capture_on_commit_callbacks(execute=True):
        first = _stage(organiser_client, cid, 1, [p.pk for p in people])
    (table,) = first["tables"]
    winner, loser = (seat["player_id"] for seat in table["seats"])
    (bye,) = (b["player_id"] for b in first["byes"])
    # the loser drops out; the two others play stages 2 and 3 (the bye's player wins both)
    dropped = organiser_client.post(
        f"/api/competitions/{cid}/drop", {"player_id": loser}, format="json"
    )
    assert dropped.status_code == HTTPStatus.OK, dropped.content
    with django_capture_on_commit_callbacks(execute=True):
        second = _stage(organiser_client, cid, 2, [winner, bye])
    with django_capture_on_commit_callbacks(execute=True):
        third = _stage(organiser_client, cid, 3, [winner, bye])
    won = {n: stage["tables"][0]["seats"][0]["player_id"] for n, stage in ((2, second), (3, third))}

    # when
    answer = organiser_client.get(f"/api/competitions/{cid}/standings.csv")

    # then: the old columns, then stage_1..stage_3
    rows = list(csv.DictReader(io.StringIO(answer.content.decode(), newline="")))
    assert list(rows[0]) == [*COLUMNS, "stage_1", "stage_2", "stage_3"]
    by_id = {int(row["player_id"]): row for row in rows}
    stages = {pid: [row[f"stage_{n}"] for n in (1, 2, 3)] for pid, row in by_id.items()}
    assert stages[loser] == ["1.0", "", ""]  # dropped after stage 1: nothing after it
    assert stages[bye][0] == stages[winner][0] == "3.0"  # a bye: a win's points at a full table
    for number in (2, 3):
        other = ({winner, bye} - {won[number]}).pop()
        assert (stages[won[number]][number - 1], stages[other][number - 1]) == ("3.0", "1.0")
    for pid, row in by_id.items():  # the stages add up to the placement points
        assert sum(float(cell) for cell in stages[pid] if cell) == float(row["placement_points"])
        assert row["byes"] == ("1" if pid == bye else "0")
    check_response(answer, STANDINGS + ".csv", "GET")
    body = organiser_client.get(f"/api/competitions/{cid}/standings").json()
    assert body["stage_count"] == 3


@pytest.mark.django_db
def test_a_league_s_csv_has_no_stage_columns(
    league: Competition, players: list[Player], counted: Callable[..., Match]
) -> None:
    counted(league, players[:2], [[0, 12]])
    answer = client_for(players[0]).get(f"/api/competitions/{league.pk}/standings.csv")
    header = next(csv.reader(io.StringIO(answer.content.decode(), newline="")))
    assert header == list(COLUMNS)
