"""Divisions (docs/scoring.md, "Divisions"): one event, several divisions, entered by rating
band or by the organiser's hand; each seated apart (nobody paired across divisions) and
ranked on its own, with its own standings, crosstable (JSON, CSV, PDF), printed standings,
wall section, final table and round robin; refusals as problem JSON naming each field, with
nothing written."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from http import HTTPStatus
from itertools import combinations
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from scoring.models import Competition, Rating, Registration, Stage
from tests.foundation.hostile import EXPLOIT
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.paper_reading import page_texts
from tests.games.schema_check import check_response
from tests.scoring.competitions.event_api import (
    API,
    add,
    check_in_all,
    create_event,
    event_body,
    score_stage,
    seated,
    start,
)
from tests.scoring.competitions.test_sheets import flat, pdf

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
DIVISIONS = [{"name": "Open", "min_rating": 1600}, {"name": "Club"}]
PATH = "/api/competitions/{competition_id}"


def rated(username: str, rating: int | None) -> Player:
    """A player with an account, rated ``rating`` (as shown) in Chicken Foot, or unrated."""
    player = PlayerFactory(user__username=username, display_name=username.title())
    if rating is not None:
        ordinal = (rating - 1000) / 40
        Rating.objects.create(player=player, variant="chickenfoot", mu=ordinal + 3, sigma=1,
                              ordinal=ordinal)  # fmt: skip
    return player


def divided(
    client: APIClient, *, open_count: int = 5, club_count: int = 4, **fields: Any
) -> tuple[int, list[int], list[int]]:
    """A table event of two divisions, its entrants placed by the organiser (guests)."""
    cid = create_event(client, divisions=DIVISIONS, **fields)
    opens = [add(client, cid, name=f"Olive {n}", division="Open")["player_id"]
             for n in range(open_count)]  # fmt: skip
    clubs = [add(client, cid, name=f"Cliff {n}", division=" club ")["player_id"]
             for n in range(club_count)]  # fmt: skip
    assert client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    return cid, opens, clubs


def play(client: APIClient, cid: int, ids: list[int], stages: range, capture: Capture) -> None:
    for number in stages:
        check_in_all(client, cid, ids)
        start(client, cid, number)
        score_stage(client, cid, number, capture, winners=ids)


def assert_apart(tables: list[list[int]], opens: list[int], clubs: list[int]) -> None:
    for table in tables:
        assert set(table) <= set(opens) or set(table) <= set(clubs), table


# --- assignment -----------------------------------------------------------------------------


def test_entrants_join_by_rating_band_or_by_the_organisers_hand(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client, divisions=DIVISIONS)
    body = organiser_client.get(f"{API}/{cid}").json()
    assert body["divisions"] == [{"name": "Open", "min_rating": 1600},
                                 {"name": "Club", "min_rating": None}]  # fmt: skip

    # by band: 1700 reaches Open, 1500 does not, the unrated reach only the last
    strong, modest, new = rated("stella", 1700), rated("mo", 1500), rated("newt", None)
    for player in (strong, modest, new):
        response = client_for(player).post(f"{API}/{cid}/register")
        assert response.status_code == HTTPStatus.OK, response.content
    # by the organiser's hand, whatever the rating: a strong player in Club, a guest in Open
    helper = rated("hal", 1800)
    assert add(organiser_client, cid, username="hal", division="CLUB")["division"] == "Club"
    assert add(organiser_client, cid, name="Walk-in Wes")["division"] == "Club"  # unrated
    guest = add(organiser_client, cid, name="Walk-in Vi", division="open")
    assert guest["division"] == "Open"
    # a file: its division column, or the band where the cell is empty
    rated("fay", 1650)
    response = organiser_client.post(
        f"{API}/{cid}/entrants", b"name,username,division\r\nWalk-in Una,,Open\r\n,fay,\r\n",
        content_type="text/csv",
    )  # fmt: skip
    assert response.status_code == HTTPStatus.CREATED, response.content
    assert [e["division"] for e in response.json()["entrants"]] == ["Open", "Open"]

    # the organiser moves an entrant before they are seated
    moved = organiser_client.patch(f"{API}/{cid}/entrants/{modest.pk}", {"division": "Open"},
                                   format="json")  # fmt: skip
    assert moved.status_code == HTTPStatus.OK, moved.content
    check_response(moved, f"{PATH}/entrants/{{player_id}}", "patch")
    listed = organiser_client.get(f"{API}/{cid}/entrants")
    check_response(listed, f"{PATH}/entrants", "get")
    divisions = {e["player_id"]: e["division"] for e in listed.json()["entrants"]}
    assert divisions[strong.pk] == "Open"
    assert divisions[modest.pk] == "Open"
    assert divisions[new.pk] == "Club"
    assert divisions[helper.pk] == "Club"
    assert divisions[guest["player_id"]] == "Open"


def test_an_event_without_divisions_says_so_and_takes_no_division(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client)
    assert organiser_client.get(f"{API}/{cid}").json()["divisions"] is None
    assert add(organiser_client, cid, name="Walk-in Wes")["division"] is None
    refused = organiser_client.post(f"{API}/{cid}/entrants", {"name": "Vi", "division": "A"},
                                    format="json")  # fmt: skip
    assert refused.status_code == HTTPStatus.BAD_REQUEST
    assert set(refused.json()["errors"]) == {"division"}
    missing = organiser_client.get(f"{API}/{cid}/standings?division=A")
    assert missing.status_code == HTTPStatus.NOT_FOUND
    assert missing.json()["code"] == "division_not_found"


# --- seating, standings, crosstable, sheets ------------------------------------------------------


def test_each_division_is_seated_apart_and_ranked_on_its_own(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    cid, opens, clubs = divided(organiser_client)
    # stage 1 seated, changed by a re-pair: still apart; Open's odd five give a bye in Open
    check_in_all(organiser_client, cid, opens + clubs)
    first = start(organiser_client, cid, 1)
    assert [bye["player_id"] for bye in first["byes"]] in ([p] for p in opens)
    assert_apart(seated(organiser_client, cid, 1), opens, clubs)
    repaired = organiser_client.post(f"{API}/{cid}/stages/1/re-pair", {}, format="json",
                                     HTTP_IF_MATCH='"0"')  # fmt: skip
    assert repaired.status_code == HTTPStatus.OK, repaired.content
    assert_apart(seated(organiser_client, cid, 1), opens, clubs)
    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks, opens + clubs)
    play(organiser_client, cid, opens + clubs, range(2, 4), django_capture_on_commit_callbacks)
    for number in (2, 3):
        assert_apart(seated(organiser_client, cid, number), opens, clubs)
    assert Competition.objects.get(pk=cid).status == "finished"

    # the standings: Open's then Club's, each ranked from 1; or one division alone
    response = organiser_client.get(f"{API}/{cid}/standings")
    check_response(response, f"{PATH}/standings", "get")
    body = response.json()
    assert body["divisions"] == ["Open", "Club"]
    rows = body["standings"]
    assert [row["division"] for row in rows] == ["Open"] * 5 + ["Club"] * 4
    assert rows[0]["rank"] == 1
    assert rows[5]["rank"] == 1
    club = organiser_client.get(f"{API}/{cid}/standings?division=Club").json()
    assert club["division"] == "Club"
    assert [row["player_id"] for row in club["standings"]] == [r["player_id"] for r in rows[5:]]
    csv_rows = list(
        csv.reader(
            io.StringIO(
                organiser_client.get(f"{API}/{cid}/standings.csv?division=club").content.decode()
            )
        )
    )
    assert csv_rows[0][:2] == ["division", "rank"]
    assert {row[0] for row in csv_rows[1:]} == {"Club"}

    # the crosstable of a division: numbered from 1, every opponent one of its own
    response = organiser_client.get(f"{API}/{cid}/crosstable?division=Open")
    check_response(response, f"{PATH}/crosstable", "get")
    table = response.json()
    assert table["division"] == "Open"
    assert [e["number"] for e in table["entrants"]] == [1, 2, 3, 4, 5]
    assert {e["player_id"] for e in table["entrants"]} == set(opens)
    for entrant in table["entrants"]:
        for stage in entrant["stages"]:
            assert {o["player_id"] for o in stage["opponents"]} <= set(opens)
            assert all(1 <= o["number"] <= 5 for o in stage["opponents"])
    whole = organiser_client.get(f"{API}/{cid}/crosstable.csv").content.decode()
    header, *lines = list(csv.reader(io.StringIO(whole)))
    assert header[:3] == ["number", "division", "rank"]
    assert [line[1] for line in lines] == ["Open"] * 5 + ["Club"] * 4

    # the sheets: one division, or each on pages of its own
    club_sheet = flat(
        " ".join(page_texts(pdf(organiser_client.get(f"{API}/{cid}/standings.pdf?division=Club"))))
    )
    assert "Division Club" in club_sheet
    assert "Cliff 0" in club_sheet
    assert "Olive" not in club_sheet
    assert "Division Open" not in club_sheet
    pages = page_texts(pdf(organiser_client.get(f"{API}/{cid}/crosstable.pdf")))
    assert "Division Open" in pages[0]
    assert "Cliff" not in pages[0]
    assert any("Division Club" in page for page in pages[1:])
    for sheet in ("standings.pdf", "crosstable.pdf", "crosstable", "standings"):
        missing = organiser_client.get(f"{API}/{cid}/{sheet}?division=Masters")
        assert missing.status_code == HTTPStatus.NOT_FOUND, sheet
        assert missing.json()["code"] == "division_not_found"
        assert "Open, Club" in missing.json()["detail"]


def test_each_division_plays_a_final_table_of_its_own(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    cid, opens, clubs = divided(organiser_client, open_count=4, club_count=4, stage_count=2,
                                final_table={"size": 2})  # fmt: skip
    play(organiser_client, cid, opens + clubs, range(1, 3), django_capture_on_commit_callbacks)
    before = {
        name: [row["player_id"] for row in organiser_client.get(
            f"{API}/{cid}/standings?division={name}").json()["standings"]]
        for name in ("Open", "Club")
    }  # fmt: skip
    check_in_all(organiser_client, cid, opens + clubs)
    start(organiser_client, cid, 3)
    tables = seated(organiser_client, cid, 3)
    assert sorted(map(sorted, tables)) == sorted([sorted(before["Open"][:2]),
                                                  sorted(before["Club"][:2])])  # fmt: skip
    # the second of each division goes out first and wins its final
    winners = [before["Open"][1], before["Club"][1]]
    score_stage(organiser_client, cid, 3, django_capture_on_commit_callbacks, winners)
    for name, ids in before.items():
        rows = organiser_client.get(f"{API}/{cid}/standings?division={name}").json()["standings"]
        assert [(row["player_id"], row["final_place"]) for row in rows[:3]] == [
            (ids[1], 1), (ids[0], 2), (ids[2], None)]  # fmt: skip


def test_a_round_robin_is_played_within_each_division(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    cid, opens, clubs = divided(organiser_client, open_count=4, club_count=3,
                                pairing="round_robin")  # fmt: skip
    play(organiser_client, cid, opens + clubs, range(1, 4), django_capture_on_commit_callbacks)
    met: dict[frozenset[int], int] = {}
    for number in (1, 2, 3):
        tables = seated(organiser_client, cid, number)
        assert_apart(tables, opens, clubs)
        for table in tables:
            met[frozenset(table)] = met.get(frozenset(table), 0) + 1
    # four players in three stages: every two of Open meet exactly once; Club's three too
    for group in (opens, clubs):
        assert all(met.get(frozenset(pair)) == 1 for pair in combinations(group, 2))


# --- refusals ------------------------------------------------------------------------------------


def test_bad_divisions_are_refused_field_by_field_and_nothing_is_created(
    organiser_client: APIClient,
) -> None:
    before = Competition.objects.count()
    response = organiser_client.post(API, event_body(divisions=[
        {"name": "Open", "min_rating": 1600}, {"name": " open ", "min_rating": 1700},
        {"name": "Club", "min_rating": 1000}]), format="json")  # fmt: skip
    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert set(body["errors"]) == {"divisions.1.name", "divisions.1.min_rating",
                                   "divisions.2.min_rating"}  # fmt: skip
    one = organiser_client.post(API, event_body(divisions=[{"name": "Only"}]), format="json")
    assert one.status_code == HTTPStatus.BAD_REQUEST
    assert set(one.json()["errors"]) == {"divisions"}
    league = organiser_client.post(API, {**event_body(divisions=DIVISIONS), "kind": "league",
                                         "stage_count": None}, format="json")  # fmt: skip
    assert league.status_code == HTTPStatus.BAD_REQUEST
    assert "divisions" in league.json()["errors"]
    blank = organiser_client.post(API, event_body(divisions=[{"name": "A\tB"}, {"name": ""}]),
                                  format="json")  # fmt: skip
    assert blank.status_code == HTTPStatus.BAD_REQUEST
    assert {"divisions.0.name", "divisions.1.name"} <= set(blank.json()["errors"])
    assert Competition.objects.count() == before


def test_entrants_naming_no_division_are_refused_and_nothing_is_written(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client, divisions=DIVISIONS)
    response = organiser_client.post(f"{API}/{cid}/entrants",
                                     {"name": "Vi", "division": "Masters", "seed": 0},
                                     format="json")  # fmt: skip
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert set(response.json()["errors"]) == {"division", "seed"}
    assert "Open, Club" in response.json()["errors"]["division"][0]
    file = organiser_client.post(
        f"{API}/{cid}/entrants", b"name,division\r\nUna,Open\r\nIda,Masters\r\nJo,\r\n",
        content_type="text/csv",
    )  # fmt: skip
    assert file.status_code == HTTPStatus.BAD_REQUEST
    assert file.json()["code"] == "invalid_csv"
    assert set(file.json()["errors"]) == {"3.division"}
    assert not Registration.objects.filter(competition_id=cid).exists()


def test_no_change_to_a_seating_crosses_divisions_and_a_seated_entrants_division_stays(
    organiser_client: APIClient,
) -> None:
    cid, opens, clubs = divided(organiser_client, open_count=5, club_count=3, table_size=3)
    check_in_all(organiser_client, cid, opens + clubs[:2])
    start(organiser_client, cid, 1)
    tables = seated(organiser_client, cid, 1)  # Open: 3 and 2; Club: 2, a seat free
    club_table = next(n for n, t in enumerate(tables, 1) if set(t) <= set(clubs))
    mover = next(t for t in tables if len(t) == 3)[0]
    headers = {"HTTP_IF_MATCH": '"0"'}
    refusals = [
        ("swap", {"players": [opens[0], clubs[0]]}),
        ("move", {"player": mover, "table": club_table}),
        ("replace", {"player": clubs[2], "replaces": opens[0]}),
    ]
    for action, body in refusals:
        response = organiser_client.post(f"{API}/{cid}/stages/1/{action}", body, format="json",
                                         **headers)  # fmt: skip
        assert response.status_code == HTTPStatus.CONFLICT, (action, response.content)
        assert response.json()["code"] == "division_mismatch"
        check_response(response, f"{PATH}/stages/{{number}}/{action}", "post")
    stage = Stage.objects.get(competition_id=cid, number=1)
    assert stage.version == 0
    assert seated(organiser_client, cid, 1) == tables

    # seated in Open: the entrant stays there; one not seated yet may still move
    moved = organiser_client.patch(f"{API}/{cid}/entrants/{opens[0]}", {"division": "Club"},
                                   format="json")  # fmt: skip
    assert moved.status_code == HTTPStatus.CONFLICT
    assert moved.json()["code"] == "division_fixed"
    check_response(moved, f"{PATH}/entrants/{{player_id}}", "patch")
    unknown = organiser_client.patch(f"{API}/{cid}/entrants/{clubs[2]}", {"division": "Nope"},
                                     format="json")  # fmt: skip
    assert unknown.status_code == HTTPStatus.NOT_FOUND
    assert unknown.json()["code"] == "division_not_found"
    assert dict(Registration.objects.filter(competition_id=cid).values_list(
        "player_id", "division"))[opens[0]] == "Open"  # fmt: skip
    later = organiser_client.patch(f"{API}/{cid}/entrants/{clubs[2]}", {"division": "Open"},
                                   format="json")  # fmt: skip
    assert later.status_code == HTTPStatus.OK


# --- hostile names, and the wall -------------------------------------------------------------


HOSTILE_DIVISIONS = [EXPLOIT, "<script>window.xss=2</script>", "Tom & Jerry &amp; &#x3c;",
                     '=HYPERLINK("x")']  # fmt: skip


def test_hostile_division_names_are_data_on_the_wall_the_sheets_and_the_csv(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    ratings = [1600, 1400, 1200, None]
    divisions = [{"name": name, "min_rating": rating}
                 for name, rating in zip(HOSTILE_DIVISIONS, ratings, strict=True)]  # fmt: skip
    cid = create_event(organiser_client, divisions=divisions, stage_count=1)
    groups = {
        name: [add(organiser_client, cid, name=f"{tag} {n}", division=name)["player_id"]
               for n in range(2)]
        for tag, name in zip("ABCD", HOSTILE_DIVISIONS, strict=True)
    }  # fmt: skip
    assert organiser_client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    assert organiser_client.post(f"{API}/{cid}/publish").status_code == HTTPStatus.OK
    everyone = [p for ids in groups.values() for p in ids]
    check_in_all(organiser_client, cid, everyone)
    start(organiser_client, cid, 1)

    # the wall: each row and table names its division, as written (JSON is data)
    anonymous = APIClient()
    wall = anonymous.get(f"/api/public/competitions/{cid}/standings")
    check_response(wall, "/api/public/competitions/{competition_id}/standings", "get")
    body = wall.json()
    assert body["competition"]["divisions"] == HOSTILE_DIVISIONS
    assert [row["division"] for row in body["standings"]] == [
        name for name in HOSTILE_DIVISIONS for _ in range(2)]  # fmt: skip
    assert [t["division"] for t in body["stages"][0]["tables"]] == HOSTILE_DIVISIONS
    page = anonymous.get(f"/events/{cid}/")
    assert page.status_code == HTTPStatus.OK
    assert "<script>window.xss" not in page.content.decode()

    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks, everyone)
    # the sheets print each name as written, under its own heading
    for sheet in ("standings.pdf", "crosstable.pdf"):
        text = "".join(" ".join(page_texts(pdf(anonymous.get(f"{API}/{cid}/{sheet}")))).split())
        for name in HOSTILE_DIVISIONS:
            assert "".join(f"Division {name}".split()) in text, (sheet, name)
        one = anonymous.get(f"{API}/{cid}/{sheet}", {"division": HOSTILE_DIVISIONS[1]})
        text = " ".join(page_texts(pdf(one)))
        assert "B 0" in text
        assert "A 0" not in text
    # the CSV: no cell a formula
    for path in ("standings.csv", "crosstable.csv"):
        rows = list(csv.reader(io.StringIO(
            organiser_client.get(f"{API}/{cid}/{path}").content.decode())))  # fmt: skip
        column = rows[0].index("division")
        assert [row[column] for row in rows[1:]][-2:] == ["'" + HOSTILE_DIVISIONS[3]] * 2
        assert HOSTILE_DIVISIONS[0] in [row[column] for row in rows[1:]]
