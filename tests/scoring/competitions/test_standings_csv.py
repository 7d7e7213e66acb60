"""The standings CSV keeps what players wrote in its cell: quoted as RFC 4180 says, never run as
a spreadsheet formula."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from http import HTTPStatus

import pytest

from games.models import Match, Player
from scoring.api.standings import StandingsCSVRenderer
from scoring.competitions.standings import COLUMNS
from scoring.models import Competition
from tests.games.conftest import client_for
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
    # older links: the JSON's path still answers the same CSV to ?format=csv
    older = client.get(f"/api/competitions/{league.pk}/standings?format=csv")
    assert (older["Content-Type"], older.content) == (answer["Content-Type"], answer.content)
    # its refusals are problem documents, never CSV
    missing = client.get("/api/competitions/999/standings.csv")
    assert missing["Content-Type"] == "application/problem+json"
    check_response(missing, STANDINGS + ".csv", "GET")
    json_answer = client.get(f"/api/competitions/{league.pk}/standings")
    assert json_answer["Content-Type"] == "application/json"
    check_response(json_answer, STANDINGS, "GET")
