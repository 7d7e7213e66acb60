"""The final table (docs/scoring.md, "Final table"): after the last Swiss stage the best n play
one more stage whose result decides places 1 to n, the others keeping their places; set at
creation or by the organiser's PATCH, refused as problem JSON naming ``final_table``."""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.competitions import totals
from scoring.competitions.final_table import apply_final, final_tables
from scoring.competitions.wall import wall_body
from scoring.models import Competition, CompetitionTotal, Stage
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.schema_check import check_response
from tests.scoring.competitions.drive import play_matches
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

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def swiss_event(client: APIClient, capture: Capture) -> tuple[int, list[int]]:
    """Six entrants at tables of 3, two Swiss stages played, a final of 3 to come."""
    cid = create_event(client, table_size=3, stage_count=2, final_table={"size": 3})
    ids = [add(client, cid, name=f"Player {n}")["player_id"] for n in range(6)]
    assert client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    for number in (1, 2):
        check_in_all(client, cid, ids)
        start(client, cid, number)
        score_stage(client, cid, number, capture, winners=ids)
    return cid, ids


def test_the_best_three_play_the_final_which_decides_places_one_to_three(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    # given: the Swiss stages over; the tournament waits for its final
    cid, ids = swiss_event(organiser_client, django_capture_on_commit_callbacks)
    assert organiser_client.get(f"{API}/{cid}").json()["status"] == "running"
    before = organiser_client.get(f"{API}/{cid}/standings").json()["standings"]
    assert all(row["final_place"] is None for row in before)
    top = [row["player_id"] for row in before[:3]]

    # when: the final is seated (everyone checked in: only the best three sit) and played,
    # the Swiss third going out first
    check_in_all(organiser_client, cid, ids)
    final = start(organiser_client, cid, 3)
    assert final["final_table"] is True
    assert final["byes"] == []
    (table,) = seated(organiser_client, cid, 3)
    assert sorted(table) == sorted(top)
    score_stage(organiser_client, cid, 3, django_capture_on_commit_callbacks, [top[2]])

    # then: the finalists rank 1 to 3 by the final (top[2] first, the others by their seat's
    # score), everyone else keeps their Swiss place and nobody's Swiss points moved
    response = organiser_client.get(f"{API}/{cid}/standings")
    check_response(response, f"{API}/{{competition_id}}/standings", "get")
    body = response.json()
    assert body["final"] is True
    assert body["final_table"] == {"size": 3}
    after = body["standings"]
    expected = [top[2], *[p for p in table if p != top[2]]]
    assert [row["player_id"] for row in after[:3]] == expected
    assert [(row["rank"], row["final_place"]) for row in after[:3]] == [(1, 1), (2, 2), (3, 3)]
    swiss = {row["player_id"]: row for row in before}
    assert [row["player_id"] for row in after[3:]] == [row["player_id"] for row in before[3:]]
    for row in after[3:]:
        assert row["rank"] == max(swiss[row["player_id"]]["rank"], 4)
        assert row["final_place"] is None
    for row in after:
        assert row["placement_points"] == swiss[row["player_id"]]["placement_points"]
        assert row["matches"] == swiss[row["player_id"]]["matches"]
    assert Stage.objects.get(competition_id=cid, number=3).final
    assert organiser_client.get(f"{API}/{cid}").json()["status"] == "finished"

    # the crosstable (JSON, CSV, PDF), the standings CSV and the wall show the final
    cross = organiser_client.get(f"{API}/{cid}/crosstable").json()
    assert [s["final_table"] for s in cross["stages"]] == [False, False, True]
    assert [e["player_id"] for e in cross["entrants"]] == [r["player_id"] for r in after]
    final_entries = {e["player_id"]: e["stages"][2] for e in cross["entrants"]}
    assert {p for p, e in final_entries.items() if e["status"] == "played"} == set(top)
    assert {p for p, e in final_entries.items() if e["status"] == "not_finalist"} == (
        set(ids) - set(top)
    )
    cross_csv = organiser_client.get(f"{API}/{cid}/crosstable.csv")
    assert cross_csv.status_code == HTTPStatus.OK
    assert "not_finalist" in cross_csv.content.decode()
    assert cross["final_table"] == {"size": 3}
    pdf = organiser_client.get(f"{API}/{cid}/crosstable.pdf")
    assert pdf.status_code == HTTPStatus.OK
    assert pdf.content.startswith(b"%PDF")
    printed = organiser_client.get(f"{API}/{cid}/standings.pdf")
    assert printed.status_code == HTTPStatus.OK
    sheet = organiser_client.get(f"{API}/{cid}/standings.csv")
    rows = list(csv.DictReader(io.StringIO(sheet.content.decode())))
    assert [int(r["player_id"]) for r in rows] == [r["player_id"] for r in after]
    assert [r["final_place"] for r in rows[:4]] == ["1", "2", "3", ""]
    wall = wall_body(competition=Competition.objects.get(pk=cid))
    assert [s["final_table"] for s in wall["stages"]] == [False, False, True]
    assert [row["name"] for row in wall["standings"][:3]] == [r["name"] for r in after[:3]]


def test_a_finalist_who_does_not_check_in_is_replaced_by_the_next(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    cid, ids = swiss_event(organiser_client, django_capture_on_commit_callbacks)
    ranked = [r["player_id"] for r in organiser_client.get(f"{API}/{cid}/standings").json()[
        "standings"
    ]]  # fmt: skip
    check_in_all(organiser_client, cid, [p for p in ids if p != ranked[0]])

    start(organiser_client, cid, 3)

    (table,) = seated(organiser_client, cid, 3)
    assert sorted(table) == sorted(ranked[1:4])


def test_a_totals_rebuild_leaves_the_final_out(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    cid, ids = swiss_event(organiser_client, django_capture_on_commit_callbacks)
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 3)
    score_stage(organiser_client, cid, 3, django_capture_on_commit_callbacks)
    kept = sorted(
        CompetitionTotal.objects.filter(registration__competition_id=cid).values_list(
            "registration_id", "matches", "placement_points"
        )
    )

    totals.rebuild(competition_ids=[cid])

    assert kept == sorted(
        CompetitionTotal.objects.filter(registration__competition_id=cid).values_list(
            "registration_id", "matches", "placement_points"
        )
    )
    assert all(matches == 2 for _, matches, _ in kept)


@pytest.mark.django_db(transaction=True)
def test_online_at_tables_of_two_a_final_of_four_plays_two_tables() -> None:
    # given: an online event of five at tables of 2 (a bye each stage), one Swiss stage
    organiser = PlayerFactory(is_organiser=True)
    client = client_for(organiser)
    created = client.post(
        API,
        {
            "kind": "tournament",
            "name": "Pairs cup",
            "variant": "chickenfoot",
            "options": {"max_pip": 6, "rounds": 1},
            "table_size": 2,
            "stage_count": 1,
            "final_table": {"size": 4},
        },
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    cid = created.json()["id"]
    players = [PlayerFactory(display_name=f"Pair {n}") for n in range(5)]
    clients: dict[int, APIClient] = {p.pk: client_for(p) for p in players}
    for player in players:
        assert clients[player.pk].post(f"{API}/{cid}/register").status_code == HTTPStatus.OK
    client.post(f"{API}/{cid}/close")
    rng = random.Random(7)
    stage = start(client, cid, 1)
    play_matches([t["match_id"] for t in stage["tables"]], clients, rng)
    ranked = [r["player_id"] for r in client.get(f"{API}/{cid}/standings").json()["standings"]]

    # when: the final is seated
    final = start(client, cid, 2)

    # then: the first two play for places 1 and 2, the next two for 3 and 4; no bye
    assert final["final_table"] is True
    assert final["byes"] == []
    tables = seated(client, cid, 2)
    assert [sorted(t) for t in tables] == [sorted(ranked[:2]), sorted(ranked[2:4])]
    play_matches([t["match_id"] for t in final["tables"]], clients, rng)
    rows = client.get(f"{API}/{cid}/standings").json()["standings"]
    assert {r["player_id"] for r in rows[:2]} == set(ranked[:2])
    assert {r["player_id"] for r in rows[2:4]} == set(ranked[2:4])
    assert [r["final_place"] for r in rows] == [1, 2, 3, 4, None]
    assert rows[4]["player_id"] == ranked[4]
    assert rows[4]["rank"] == 5


@pytest.mark.parametrize(
    ("fields", "size"),
    [
        ({"table_size": 4}, 5),
        ({"table_size": 4}, 1),
        ({"table_size": 2}, 3),
        ({"table_size": 4, "play": "online", "allow_bots": True}, 3),
        ({"kind": "league", "stage_count": None}, 2),
    ],
)
def test_a_final_table_it_cannot_have_is_refused_naming_the_field(
    organiser_client: APIClient, fields: dict[str, Any], size: int
) -> None:
    body = event_body(**{"final_table": {"size": size}, **fields})
    if body.get("play") == "online":
        body["options"] = {}

    response = organiser_client.post(API, body, format="json")

    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    assert any(name.startswith("final_table") for name in response.json()["errors"])
    assert not Competition.objects.exists()


def test_the_organiser_sets_changes_and_removes_the_final_by_patch(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client, table_size=4)
    assert organiser_client.get(f"{API}/{cid}").json()["final_table"] is None

    changed = organiser_client.patch(f"{API}/{cid}", {"final_table": {"size": 4}}, format="json")
    assert changed.status_code == HTTPStatus.OK, changed.content
    check_response(changed, f"{API}/{{competition_id}}", "patch")
    assert changed.json()["final_table"] == {"size": 4}

    bad = organiser_client.patch(
        f"{API}/{cid}", {"final_table": {"size": 6}, "seeding": "order"}, format="json"
    )
    assert bad.status_code == HTTPStatus.BAD_REQUEST
    assert set(bad.json()["errors"]) == {"final_table"}
    shape = organiser_client.patch(f"{API}/{cid}", {"final_table": {"size": "x"}}, format="json")
    assert shape.status_code == HTTPStatus.BAD_REQUEST
    assert all(name.startswith("final_table") for name in shape.json()["errors"])
    competition = Competition.objects.get(pk=cid)
    assert (competition.final_table, competition.seeding) == ({"size": 4}, "random")

    stranger = client_for(PlayerFactory(is_organiser=True))
    refused = stranger.patch(f"{API}/{cid}", {"final_table": None}, format="json")
    assert refused.status_code == HTTPStatus.FORBIDDEN
    assert Competition.objects.get(pk=cid).final_table == {"size": 4}

    removed = organiser_client.patch(f"{API}/{cid}", {"final_table": None}, format="json")
    assert removed.json()["final_table"] is None


def test_once_the_final_is_seated_it_stays(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    cid, ids = swiss_event(organiser_client, django_capture_on_commit_callbacks)
    removed = organiser_client.patch(f"{API}/{cid}", {"final_table": None}, format="json")
    assert removed.status_code == HTTPStatus.CONFLICT  # the final is all that is left
    resized = organiser_client.patch(f"{API}/{cid}", {"final_table": {"size": 2}}, format="json")
    assert resized.status_code == HTTPStatus.OK
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 3)

    again = organiser_client.patch(f"{API}/{cid}", {"final_table": {"size": 3}}, format="json")

    assert again.status_code == HTTPStatus.CONFLICT
    assert again.json()["code"] == "competition_status"
    assert Competition.objects.get(pk=cid).final_table == {"size": 2}
    beyond = organiser_client.post(f"{API}/{cid}/stages", {"number": 4}, format="json")
    assert beyond.status_code == HTTPStatus.CONFLICT


def test_final_tables_and_places_without_the_database() -> None:
    rng = random.Random(1)
    assert [sorted(t) for t in final_tables(ranked=[5, 6, 7, 8, 9], size=4, table_size=2,
                                            rng=rng)] == [[5, 6], [7, 8]]  # fmt: skip
    assert [sorted(t) for t in final_tables(ranked=[5, 6, 7], size=4, table_size=2, rng=rng)] == [
        [5, 6]
    ]
    rows = [
        {"player_id": p, "rank": r, "ranked": True, "shared": False}
        for p, r in ((1, 1), (2, 2), (3, 3), (4, 3), (5, 5))
    ]
    out = apply_final(rows, {3: 1, 1: 2, 2: 2})
    assert [(r["player_id"], r["rank"], r["shared"], r["final_place"]) for r in out] == [
        (3, 1, False, 1),
        (1, 2, True, 2),
        (2, 2, True, 2),
        (4, 4, False, None),
        (5, 5, False, None),
    ]


def test_a_re_pair_of_the_final_seats_the_best_again_around_a_locked_table(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    # given: six at tables of 2, one Swiss stage, a final of four seated: two tables
    cid = create_event(organiser_client, stage_count=1, final_table={"size": 4})
    ids = [add(organiser_client, cid, name=f"Pair {n}")["player_id"] for n in range(6)]
    organiser_client.post(f"{API}/{cid}/close")
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 1)
    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks, ids)
    ranked = [
        r["player_id"] for r in organiser_client.get(f"{API}/{cid}/standings").json()["standings"]
    ]
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 2)
    assert [sorted(t) for t in seated(organiser_client, cid, 2)] == [
        sorted(ranked[:2]),
        sorted(ranked[2:4]),
    ]
    url = f"{API}/{cid}/stages/2"
    locked = organiser_client.post(
        f"{url}/lock", {"tables": [1], "locked": True}, format="json", HTTP_IF_MATCH='"0"'
    )
    assert locked.status_code == HTTPStatus.OK, locked.content

    # when: the final is paired again
    repaired = organiser_client.post(f"{url}/re-pair", {}, format="json", HTTP_IF_MATCH='"1"')

    # then: the locked table stays, the other seats the next two: still the best four
    assert repaired.status_code == HTTPStatus.OK, repaired.content
    assert [sorted(t) for t in seated(organiser_client, cid, 2)] == [
        sorted(ranked[:2]),
        sorted(ranked[2:4]),
    ]
