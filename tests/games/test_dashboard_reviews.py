"""The organiser's dashboard counts each table's confirmed rounds and its open disputes."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.games.wall_world import enter_round, wall_world

pytestmark = pytest.mark.django_db


def board(client: APIClient, competition_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/competitions/{competition_id}/stages/1/dashboard")
    assert answer.status_code == HTTPStatus.OK, answer.content
    return answer.json()["tables"][0]


def test_a_dispute_shows_until_it_is_resolved_and_a_confirmation_counts(
    clients: list[APIClient], players: list[Any]
) -> None:
    # given: round 1 entered by the organiser (seat 0), confirmed by any other seat
    wall = wall_world(players, clients[0])
    url = f"/api/matches/{wall.match_id}"
    clients[0].patch(f"{url}/table-settings", {"confirmation": "any_other_seat"}, format="json")
    enter_round(clients[0], wall.match_id, 1, 1)
    cid = wall.competition.pk
    assert (board(clients[0], cid)["confirmed"], board(clients[0], cid)["disputed"]) == (0, 0)

    # when: seat 1 disputes it
    disputed = clients[1].post(f"{url}/rounds/1/dispute", {"reason": "12, not 7"}, format="json")
    assert disputed.status_code == HTTPStatus.CREATED, disputed.content

    # then
    assert board(clients[0], cid)["disputed"] == 1

    # when: the organiser resolves it and seat 1 confirms it
    clients[0].post(f"{url}/rounds/1/resolve", {"note": "7 stands"}, format="json")
    clients[1].post(f"{url}/rounds/1/confirm")

    # then
    table = board(clients[0], cid)
    assert (table["confirmed"], table["disputed"]) == (1, 0)
