"""A table tournament driven through the API: created with play=table, check-in, stages of
table matches scored through POST /api/matches/{id}/rounds/{n}/scores, stage 2 seated Swiss
after stage 1's results, a drop-out, and the organiser's dashboard."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db
API = "/api/competitions"


def _create(client: APIClient, **fields: Any) -> dict[str, Any]:
    body = {
        "kind": "tournament",
        "play": "table",
        "name": "Club night",
        "variant": "chickenfoot",
        "table_size": 2,
        "stage_count": 2,
        "options": {"rounds": 1},
        **fields,
    }
    response = client.post(API, body, format="json")
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def _score_stage(
    organiser: APIClient, competition_id: int, number: int, winners: set[int], capture: Any
) -> list[dict[str, Any]]:
    """Enter the one round of every table of the stage: a player of ``winners`` goes out."""
    board = organiser.get(f"{API}/{competition_id}/stages/{number}/dashboard").json()
    for table in board["tables"]:
        ids = [seat["player_id"] for seat in table["seats"]]
        out = next((i for i, pid in enumerate(ids) if pid in winners), 0)
        scores = [
            {"seat": i, "points": 0 if i == out else 15 + i, "went_out": i == out}
            for i in range(len(ids))
        ]
        with capture(execute=True):
            entered = organiser.post(
                f"/api/matches/{table['match_id']}/rounds/1/scores",
                {"version": 0, "scores": scores},
                format="json",
            )
        assert entered.status_code == HTTPStatus.CREATED, entered.content
    return board["tables"]


def test_a_two_stage_table_tournament_through_the_api(
    organiser: Player,
    organiser_client: APIClient,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: five registered, four come (Eve is a no-show at stage 1)
    competition = _create(organiser_client)
    assert competition["play"] == "table"
    cid = competition["id"]
    ann, ben, cat, dan, eve = (
        PlayerFactory(display_name=n) for n in ["Ann", "Ben", "Cat", "Dan", "Eve"]
    )
    clients = {p.pk: client_for(p) for p in (ann, ben, cat, dan, eve)}
    for client in clients.values():
        assert client.post(f"{API}/{cid}/register").status_code == HTTPStatus.OK
    assert organiser_client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    for player in (ann, ben, cat):
        assert (
            clients[player.pk].post(f"{API}/{cid}/check-in", {}, format="json").status_code == 200
        )
    by_organiser = organiser_client.post(
        f"{API}/{cid}/check-in", {"player_id": dan.pk}, format="json"
    )
    assert by_organiser.status_code == HTTPStatus.OK
    undone = clients[eve.pk].delete(f"{API}/{cid}/check-in")  # never checked in: nothing to undo
    assert undone.status_code == HTTPStatus.OK
    listed = clients[eve.pk].get(f"{API}/{cid}/check-ins").json()
    assert (listed["stage"], listed["open"]) == (1, True)
    assert {row["player_id"] for row in listed["check_ins"]} == {ann.pk, ben.pk, cat.pk, dan.pk}
    # when: stage 1 starts and every table is scored
    started = organiser_client.post(f"{API}/{cid}/stages", {"number": 1}, format="json")
    assert started.status_code == HTTPStatus.CREATED, started.content
    board = organiser_client.get(f"{API}/{cid}/stages/1/dashboard").json()
    assert [(t["rounds_entered"], t["rounds"], t["finished"]) for t in board["tables"]] == [
        (0, 1, False),
        (0, 1, False),
    ]
    assert {s["player_id"] for t in board["tables"] for s in t["seats"]} == {
        ann.pk,
        ben.pk,
        cat.pk,
        dan.pk,
    }
    stage_1 = [[s["player_id"] for s in t["seats"]] for t in board["tables"]]
    winners = {table[0] for table in stage_1}
    _score_stage(organiser_client, cid, 1, winners, django_capture_on_commit_callbacks)
    # then: the dashboard shows every table finished
    board = organiser_client.get(f"{API}/{cid}/stages/1/dashboard").json()
    assert board["status"] == "finished"
    assert board["finished"] == 2
    assert [
        (t["rounds_entered"], t["finished"], t["confirmed"], t["disputed"]) for t in board["tables"]
    ] == [
        (1, True, 0, 0),
        (1, True, 0, 0),
    ]
    # when: everybody checks in for stage 2, Eve too; Ben drops out after checking in
    for client in clients.values():
        assert client.post(f"{API}/{cid}/check-in", {}, format="json").status_code == 200
    losers = {p for table in stage_1 for p in table} - winners
    dropped = next(iter(losers))
    drop = organiser_client.post(f"{API}/{cid}/drop", {"player_id": dropped}, format="json")
    assert drop.status_code == HTTPStatus.OK
    assert organiser_client.post(f"{API}/{cid}/check-in/close").json()["open"] is False
    assert (
        organiser_client.post(f"{API}/{cid}/stages", {"number": 2}, format="json").status_code
        == 201
    )
    # then: Swiss: the two winners meet; the other loser meets Eve, the drop-out is not seated
    board = organiser_client.get(f"{API}/{cid}/stages/2/dashboard").json()
    stage_2 = [{s["player_id"] for s in t["seats"]} for t in board["tables"]]
    assert winners in stage_2
    assert (losers - {dropped}) | {eve.pk} in stage_2
    _score_stage(organiser_client, cid, 2, winners, django_capture_on_commit_callbacks)
    standings = organiser_client.get(f"{API}/{cid}/standings").json()["standings"]
    assert {row["player_id"]: row["dropped"] for row in standings}[dropped] is True
    assert {row["player_id"] for row in standings} == set(clients)
    assert organiser_client.get(f"{API}/{cid}").json()["status"] == "finished"


def test_only_the_organiser_sees_the_dashboard_and_bad_bodies_are_400(
    organiser: Player, organiser_client: APIClient
) -> None:
    cid = _create(organiser_client)["id"]
    someone = client_for(PlayerFactory())
    refused = someone.get(f"{API}/{cid}/stages/1/dashboard")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")
    early = organiser_client.get(f"{API}/{cid}/stages/1/dashboard")
    assert (early.status_code, early.json()["code"]) == (409, "wrong_stage")
    bad = organiser_client.post(f"{API}/{cid}/drop", {"player_id": "x"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    assert "player_id" in bad.json()["errors"]


def test_a_table_tournament_refuses_bots_and_clock_every_field_at_once(
    organiser_client: APIClient,
) -> None:
    response = organiser_client.post(
        API,
        {
            "kind": "tournament",
            "play": "table",
            "name": "Club night",
            "variant": "chickenfoot",
            "table_size": 4,
            "stage_count": 2,
            "allow_bots": True,
            "turn_seconds": 30,
            "options": {"rounds": 2, "hand_size": 7},
        },
        format="json",
    )
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert {"allow_bots", "turn_seconds", "options.hand_size"} <= set(response.json()["errors"])
