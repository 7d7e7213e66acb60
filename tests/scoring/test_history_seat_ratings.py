"""History rows carry every seat's rating change, not only the caller's; a seat whose player
hides their profile from the caller shows no rating."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Player
from tests.games.test_profiles import finish

pytestmark = pytest.mark.django_db


def rows_of(client: APIClient, player: Player) -> list[dict]:
    response = client.get(f"/api/players/{player.pk}/history")
    assert response.status_code == HTTPStatus.OK, response.content
    return response.json()["results"]


def test_every_seat_carries_the_rating_change_its_own_history_shows(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace, alan, _ = players
    finish([ada, grace, alan], [[0, 5, 9]], 1)
    finish([grace, ada], [[0, 4]], 2)

    for row in rows_of(clients[3], ada):
        for seat in row["seats"]:
            player = Player.objects.get(pk=seat["player_id"])
            (own,) = [r for r in rows_of(clients[3], player) if r["match_id"] == row["match_id"]]
            assert seat["rating"] is not None
            assert seat["rating"] == own["rating"]
            assert seat["rating"]["delta"] == seat["rating"]["after"] - seat["rating"]["before"]


def test_a_hidden_players_seat_shows_no_rating_to_others_but_to_them(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]
    finish([ada, grace], [[0, 5]], 1)
    hidden = clients[1].patch("/api/players/me", {"profile_visibility": "nobody"}, format="json")
    assert hidden.status_code == HTTPStatus.OK

    (seen,) = rows_of(clients[0], ada)
    (own,) = rows_of(clients[1], ada)
    profile = clients[0].get(f"/api/players/{ada.pk}").json()

    assert [seat["name"] for seat in seen["seats"]] == ["Ada", "Grace"]
    assert seen["seats"][1]["rating"] is None  # her name and result stay: the table is shared
    assert seen["seats"][1]["total"] == 5
    assert seen["seats"][0]["rating"] is not None
    assert own["seats"][1]["rating"] is not None
    assert profile["recent_results"][0]["seats"][1]["rating"] is None
