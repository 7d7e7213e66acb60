"""``profile_visibility``: who sees a player's profile, history, statistics, rating changes and
head-to-head. A hidden profile shows its name (and avatar) only; the player sees all of it."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from tests.games.factories import PlayerFactory
from tests.games.test_profiles import HOSTILE, finish, profile

pytestmark = pytest.mark.django_db


def set_visibility(client: APIClient, value: str) -> Any:
    return client.patch("/api/players/me", {"profile_visibility": value}, format="json")


def record_paths(player: Player, other: Player) -> list[str]:
    """Every read of one player's record but the profile."""
    return [
        f"/api/players/{player.pk}/history",
        f"/api/players/{player.pk}/stats",
        f"/api/players/{player.pk}/ratings?variant=chickenfoot",
        f"/api/players/{player.pk}/rating.svg?variant=chickenfoot",
        f"/api/players/{player.pk}/head-to-head/{other.pk}",
        f"/api/players/{other.pk}/head-to-head/{player.pk}",
    ]


@pytest.fixture
def played(players: list[Player]) -> None:
    ada, grace, alan, _ = players
    finish([ada, grace], [[0, 5]], 1)
    finish([grace, ada, alan], [[3, 0, 9]], 2)


def test_a_player_chooses_who_sees_their_profile_through_me(clients: list[APIClient]) -> None:
    assert clients[0].get("/api/players/me").json()["profile_visibility"] == "everyone"

    response = set_visibility(clients[0], "nobody")

    assert response.status_code == HTTPStatus.OK, response.content
    assert response.json()["profile_visibility"] == "nobody"
    assert clients[0].get("/api/players/me").json()["profile_visibility"] == "nobody"


@pytest.mark.parametrize("value", ["public", "", None, 1, ["nobody"]])
def test_an_unknown_visibility_is_a_400_naming_it_and_nothing_changes(
    clients: list[APIClient], value: object
) -> None:
    response = set_visibility(clients[0], value)  # type: ignore[arg-type]

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert response["Content-Type"].startswith("application/problem+json")
    assert list(response.json()["errors"]) == ["profile_visibility"]
    assert clients[0].get("/api/players/me").json()["profile_visibility"] == "everyone"


@pytest.mark.parametrize("value", ["nobody", "friends"])
def test_a_hidden_profile_shows_its_name_only_to_others_and_everything_to_its_owner(
    players: list[Player], clients: list[APIClient], played: None, value: str
) -> None:
    ada = players[0]
    Player.objects.filter(pk=ada.pk).update(display_name=HOSTILE)
    assert set_visibility(clients[0], value).status_code == HTTPStatus.OK

    # grace sat at both of ada's tables, but is not her friend: an opponent is not a friend
    seen = profile(clients[1], ada).json()
    own = profile(clients[0], ada).json()

    assert seen == {
        "id": ada.pk,
        "name": HOSTILE,
        "kind": "human",
        "avatar_url": own["avatar_url"],
        "avatar_small_url": own["avatar_small_url"],
        "hidden": True,
        "friend": False,
        "friend_request": None,
        "blocked": False,
        "joined": None,
        "ratings": None,
        "statistics": None,
        "recent_results": None,
    }
    assert own["hidden"] is False
    assert own["statistics"]["matches"] == 2
    assert len(own["recent_results"]) == 2
    assert own["ratings"]


@pytest.mark.parametrize("value", ["nobody", "friends"])
def test_a_hidden_record_is_refused_to_others_as_a_problem_and_shown_to_its_owner(
    players: list[Player], clients: list[APIClient], played: None, value: str
) -> None:
    ada, grace = players[0], players[1]
    assert set_visibility(clients[0], value).status_code == HTTPStatus.OK

    for path in record_paths(ada, grace):
        refused = clients[1].get(path)
        assert refused.status_code == HTTPStatus.FORBIDDEN, path
        assert refused["Content-Type"].startswith("application/problem+json"), path
        problem = refused.json()
        assert problem["code"] == "profile_hidden", path
        assert problem["detail"] == f"Player {ada.pk} does not show their record to you."
        assert "Ada" not in refused.content.decode()
        assert clients[0].get(path).status_code == HTTPStatus.OK, path


def test_everyone_shows_the_record_to_every_signed_in_player(
    players: list[Player], clients: list[APIClient], played: None
) -> None:
    ada, grace = players[0], players[1]
    assert set_visibility(clients[0], "nobody").status_code == HTTPStatus.OK
    assert set_visibility(clients[0], "everyone").status_code == HTTPStatus.OK

    assert profile(clients[1], ada).json()["hidden"] is False
    for path in record_paths(ada, grace):
        assert clients[1].get(path).status_code == HTTPStatus.OK, path


def test_a_hidden_player_is_found_by_display_name_not_by_username(
    clients: list[APIClient],
) -> None:
    PlayerFactory(user__username="lovelace", display_name="Countess",
                  profile_visibility=Player.Visibility.NOBODY)  # fmt: skip

    def found(text: str) -> list[str]:
        response = clients[0].get("/api/players", {"search": text})
        return [row["name"] for row in response.json()["results"]]

    assert found("love") == []
    assert found("count") == ["Countess"]


def test_the_export_carries_the_visibility(clients: list[APIClient]) -> None:
    set_visibility(clients[0], "friends")

    export = clients[0].get("/api/players/me/export").json()

    assert export["account"]["profile_visibility"] == "friends"


@pytest.mark.parametrize("value", ["nobody", "friends"])
def test_a_hidden_player_is_on_no_leaderboard_and_the_ranks_close_up(
    players: list[Player], clients: list[APIClient], played: None, value: str
) -> None:
    ada, grace, alan = players[0], players[1], players[2]
    before = clients[1].get("/api/leaderboards/chickenfoot").json()["results"]
    assert {row["player_id"] for row in before} == {ada.pk, grace.pk, alan.pk}
    if value == "friends":  # a friend of ada's does not see her there either: one board for all
        sent = clients[0].post("/api/friends/requests", {"player_id": grace.pk}, format="json")
        clients[1].post(f"/api/friends/requests/{sent.json()['id']}/accept")
    assert set_visibility(clients[0], value).status_code == HTTPStatus.OK

    for reader in (clients[0], clients[1], clients[2]):
        board = reader.get("/api/leaderboards/chickenfoot").json()
        assert ada.pk not in {row["player_id"] for row in board["results"]}
        assert board["count"] == 2
        assert [row["rank"] for row in board["results"]] == [1, 2]
        assert "Ada" not in str(board)
        asked = reader.get(f"/api/leaderboards/chickenfoot?player={ada.pk}")
        assert (asked.status_code, asked.json()["code"]) == (404, "not_on_leaderboard")
    # her own profile keeps her ratings, with no rank: she is on no leaderboard
    own = profile(clients[0], ada).json()
    assert own["ratings"]
    assert {rating["rank"] for rating in own["ratings"]} == {None}
    # showing it to everyone again puts her back where her rating ranks her
    assert set_visibility(clients[0], "everyone").status_code == HTTPStatus.OK
    after = clients[1].get("/api/leaderboards/chickenfoot").json()["results"]
    assert after == before
