"""Entrants by the file (POST /api/competitions/{id}/entrants with text/csv): all of them or
none, every bad row named at once by line and column."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Player
from scoring.models import CheckIn, Registration
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.event_api import API, add, create_event

pytestmark = pytest.mark.django_db


def post_csv(client: APIClient, cid: int, text: str | bytes, query: str = "") -> object:
    data = text.encode() if isinstance(text, str) else text
    return client.generic(
        "POST", f"{API}/{cid}/entrants{query}", data, content_type="text/csv; charset=utf-8"
    )


def test_a_file_of_walk_ins_and_players_is_entered_whole(organiser_client: APIClient) -> None:
    # given: an event at the table, and two players with accounts
    cid = create_event(organiser_client, table_size=4)
    sam = PlayerFactory(user__username="sam")
    ada = PlayerFactory(user__username="ada")
    text = (
        "\ufeffname,username,club,seed\r\n"
        "Walk-in Wendy,,Riverside,\r\n"
        ',sam,"Hilltop, upper",1\r\n'
        "\r\n"
        ",ADA,,2\r\n"
        "\"=cmd|' /C calc'!A0\",,,\r\n"
    )

    # when
    response = post_csv(organiser_client, cid, text, "?check_in=true")

    # then: every row is an entrant, checked in, in the file's order
    assert response.status_code == HTTPStatus.CREATED, response.content
    entrants = response.json()["entrants"]
    assert [(e["name"], e["kind"], e["club"], e["seed"]) for e in entrants] == [
        ("Walk-in Wendy", "guest", "Riverside", None),
        (sam.display_name, "human", "Hilltop, upper", 1),
        (ada.display_name, "human", "", 2),
        ("=cmd|' /C calc'!A0", "guest", "", None),
    ]
    assert all(e["checked_in"] for e in entrants)
    assert CheckIn.objects.filter(competition_id=cid, stage_number=1).count() == 4


def test_every_bad_row_is_named_by_line_and_column_and_nothing_is_written(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client)
    PlayerFactory(user__username="sam")
    add(organiser_client, cid, name="Wendy")
    guests = Player.objects.filter(kind=Player.Kind.GUEST).count()
    text = (
        "name,username,club,seed\n"
        "Zed,,,\n"  # fine
        ",samm,,\n"  # line 3: no such player
        "Ann,,,first\n"  # line 4: not a number
        "wendy,,,\n"  # line 5: a guest of that name entered already
        ",sam,,\n"  # fine
        ",sam,,\n"  # line 7: sam twice
        "Bob,bob,,\n"  # line 8: two names
        ",,,\n"  # blank: skipped
        "Cy,,,0\n"  # line 10: seed out of range
        "Di,,,1,extra\n"  # line 11: too many cells
        "Shark bot,,,\n"  # line 12: a bot's name
    )

    response = post_csv(organiser_client, cid, text)

    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert body["code"] == "invalid_csv"
    assert response.headers["Content-Type"] == "application/problem+json"
    assert set(body["errors"]) == {
        "3.username",
        "4.seed",
        "5.name",
        "7.username",
        "8.username",
        "10.seed",
        "11",
        "12.name",
    }
    assert "line 6" in body["errors"]["7.username"][0]
    assert Registration.objects.filter(competition_id=cid).count() == 1  # Wendy alone
    assert Player.objects.filter(kind=Player.Kind.GUEST).count() == guests


def test_more_bad_rows_than_a_problem_usually_lists_are_all_named(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client)
    text = "username\n" + "".join(f"nobody{n}\n" for n in range(60))

    response = post_csv(organiser_client, cid, text)

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert len(response.json()["errors"]) == 60


@pytest.mark.parametrize(
    ("data", "key", "words"),
    [
        (b"", "1", "empty"),
        (b"name,username\n", "2", "names no entrant"),
        (b"name,team\nWendy,A\n", "1.team", "Not a column"),
        (b"club,seed\nRiverside,1\n", "1.name", "no column that names"),
        (b"name,name\nA,B\n", "1.name", "named twice"),
        (b"name\nWendy\nJos\xe9\n", "3", "not UTF-8"),
        (b'name\n"Wendy\n', "2", "not CSV"),
    ],
)
def test_a_file_that_is_not_an_entrants_file(
    organiser_client: APIClient, data: bytes, key: str, words: str
) -> None:
    cid = create_event(organiser_client)

    response = post_csv(organiser_client, cid, data)

    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    errors = response.json()["errors"]
    assert key in errors, errors
    assert words in errors[key][0]


def test_semicolons_as_some_spreadsheets_write_them(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client)

    response = post_csv(organiser_client, cid, "name;club\nWendy;Riverside, upper\n")

    assert response.status_code == HTTPStatus.CREATED, response.content
    assert response.json()["entrants"][0]["club"] == "Riverside, upper"


def test_a_bad_query_and_the_organiser_only(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client)

    bad = post_csv(organiser_client, cid, "name\nWendy\n", "?check_in=yes")
    unknown = post_csv(organiser_client, cid, "name\nWendy\n", "?dry_run=true")
    stranger = post_csv(APIClient(), cid, "name\nWendy\n")

    assert bad.status_code == HTTPStatus.BAD_REQUEST
    assert list(bad.json()["errors"]) == ["check_in"]
    assert unknown.status_code == HTTPStatus.BAD_REQUEST
    assert stranger.status_code == HTTPStatus.UNAUTHORIZED
    assert Registration.objects.filter(competition_id=cid).count() == 0


def test_too_many_rows_are_refused(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client)
    text = "name\n" + "".join(f"Guest {n}\n" for n in range(1001))

    response = post_csv(organiser_client, cid, text)

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert "1002" in response.json()["errors"]
    assert Registration.objects.filter(competition_id=cid).count() == 0
