"""The public wall over HTTP: publishing (organiser only), reading without a token (404 while
private), exactly the public keys, and names as data."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from tests.games.wall_world import HOSTILE, enter_round, wall_world

pytestmark = pytest.mark.django_db


def _wall(client: APIClient, competition_id: int) -> object:
    return client.get(f"/api/public/competitions/{competition_id}/standings")


def test_a_private_competition_is_not_found_by_anyone_on_the_wall(
    players: list[Player], clients: list[APIClient]
) -> None:
    # given a competition its organiser has not published
    wall = wall_world(players, clients[0], public=False)
    # then nobody reads its wall, not even its organiser: 404, as for none
    for client in (APIClient(), clients[1], clients[0]):
        response = _wall(client, wall.competition.pk)
        assert response.status_code == HTTPStatus.NOT_FOUND
        assert response.json()["code"] == "competition_not_found"
        assert response.json()["detail"] == _wall(client, 999999).json()["detail"].replace(
            "999999", str(wall.competition.pk)
        )


def test_only_the_organiser_publishes_and_unpublishes(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = wall_world(players, clients[0], public=False)
    url = f"/api/competitions/{wall.competition.pk}"
    # a signed-in player who does not organise it is refused, and nothing changes
    refused = clients[1].post(f"{url}/publish")
    assert refused.status_code == HTTPStatus.FORBIDDEN
    assert refused.json()["code"] == "not_organiser"
    assert APIClient().post(f"{url}/publish").status_code == HTTPStatus.UNAUTHORIZED
    assert _wall(APIClient(), wall.competition.pk).status_code == HTTPStatus.NOT_FOUND
    # the organiser publishes: anyone reads it
    published = clients[0].post(f"{url}/publish")
    assert published.status_code == HTTPStatus.OK
    assert published.json()["public"] is True
    assert clients[0].get(url).json()["public"] is True
    for client in (APIClient(), clients[1], clients[0]):
        assert _wall(client, wall.competition.pk).status_code == HTTPStatus.OK
    # and unpublishes: 404 again
    assert clients[1].post(f"{url}/unpublish").status_code == HTTPStatus.FORBIDDEN
    unpublished = clients[0].post(f"{url}/unpublish")
    assert unpublished.json()["public"] is False
    assert _wall(APIClient(), wall.competition.pk).status_code == HTTPStatus.NOT_FOUND


def test_the_wall_holds_exactly_the_public_keys(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = wall_world(players, clients[0])
    enter_round(clients[0], wall.match_id, 1, 0)
    # an invalid token is not an error on a page that needs none
    anonymous = APIClient()
    anonymous.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = _wall(anonymous, wall.competition.pk)
    assert response.status_code == HTTPStatus.OK
    body = response.json()
    assert set(body) == {"competition", "final", "standings", "stages", "now"}
    assert set(body["competition"]) == {
        "id", "name", "kind", "variant", "status", "current_stage", "stage_count", "tie_breaks",
    }  # fmt: skip
    assert body["competition"]["tie_breaks"] == [
        "placement_points", "wins", "mean_points_per_round", "head_to_head",
    ]  # fmt: skip
    # the registered players, no results yet: the match is in play
    assert [(row["name"], row["matches"]) for row in body["standings"]] == [
        ("Ada", 0),
        ("Grace", 0),
    ]
    [stage] = body["stages"]
    assert set(stage) == {"number", "status", "final_table", "tables", "byes", "clock"}
    assert stage["clock"] is None  # no stage clock started
    [table] = stage["tables"]
    assert table == {
        "table": 1,
        "status": "playing",
        "results_in": False,
        "seats": ["Ada", "Grace", HOSTILE],  # names as data, not escaped twice
        "rounds": {"entered": 1, "total": 2},
    }
    text = response.content.decode()
    for private in ("player_id", "username", "ada", "grace", "rating", "email", "seed"):
        assert private not in text


def test_standings_rows_show_names_points_and_every_tie_break_only(
    players: list[Player], clients: list[APIClient], django_capture_on_commit_callbacks: Any
) -> None:
    wall = wall_world(players, clients[0])
    wall.competition.tie_breaks = ["placement_points", "buchholz", "best_round"]
    wall.competition.save(update_fields=["tie_breaks"])
    enter_round(clients[0], wall.match_id, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        enter_round(clients[0], wall.match_id, 2, 1)  # the last round: the results come in
    body = _wall(APIClient(), wall.competition.pk).json()
    assert [row["name"] for row in body["standings"]] == ["Ada", "Grace"]
    first = body["standings"][0]
    assert set(first) == {
        "rank", "shared", "name", "matches", "placement_points", "total_points", "by_stage",
        "wins", "mean_points_per_round", "rounds_at_zero", "best_round", "head_to_head",
        "buchholz", "median_buchholz",
    }  # fmt: skip
    assert body["competition"]["tie_breaks"] == ["placement_points", "buchholz", "best_round"]
    assert first["rank"] == 1
    assert first["placement_points"] == 4.0
    assert first["total_points"] == 0
    # Ada's one rival with standings at the table is Grace (2 points; the guest has none)
    assert (first["buchholz"], first["best_round"], first["wins"]) == (2.0, None, 1)
    assert (first["head_to_head"], first["median_buchholz"]) == (None, None)  # not in the order
    assert body["standings"][1]["buchholz"] == 4.0
    assert first["by_stage"] == [{"stage": 1, "matches": 1, "placement_points": 4.0, "bye": False}]
    [table] = body["stages"][0]["tables"]
    assert table["status"] == "finished"
    assert table["results_in"] is True
    assert table["rounds"] == {"entered": 2, "total": 2}
