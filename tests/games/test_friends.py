"""Friend requests and friends over HTTP: sending (idempotent, crossing, refused), answering,
listing, ending a friendship; the notifications they make; the profile's relationship fields
and ``profile_visibility: friends`` read with real friendships."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from chickenfoot.env import env_rate
from games.models import Player
from games.notifications.models import Notification
from games.social.models import Block, FriendRequest, Friendship
from tests.games.factories import BotFactory

pytestmark = pytest.mark.django_db


def send(client: APIClient, player_id: Any) -> Any:
    return client.post("/api/friends/requests", {"player_id": player_id}, format="json")


def befriend(clients: list[APIClient], players: list[Player], a: int, b: int) -> int:
    request_id = send(clients[a], players[b].pk).json()["id"]
    assert clients[b].post(f"/api/friends/requests/{request_id}/accept").status_code == 200
    return request_id


def inbox(player: Player) -> list[tuple[str, dict[str, Any]]]:
    rows = Notification.objects.filter(player=player).order_by("pk")
    return [(row.kind, row.payload) for row in rows]


def nothing_written() -> None:
    assert not FriendRequest.objects.exists()
    assert not Friendship.objects.exists()
    assert not Notification.objects.exists()


def test_a_request_is_sent_listed_both_ways_and_notified(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]

    sent = send(clients[0], grace.pk)

    assert sent.status_code == HTTPStatus.CREATED
    body = sent.json()
    assert body["state"] == "pending"
    assert body["answered_at"] is None
    assert {k: body["sender"][k] for k in ("id", "name", "kind")} == {
        "id": ada.pk,
        "name": "Ada",
        "kind": "human",
    }
    assert body["sender"]["avatar_url"].startswith("http://testserver/api/players/")
    assert body["recipient"]["id"] == grace.pk
    assert inbox(grace) == [("friend_request", {"request_id": body["id"], "by_player_id": ada.pk})]
    assert inbox(ada) == []
    mine = clients[0].get("/api/friends/requests").json()
    theirs = clients[1].get("/api/friends/requests").json()
    assert mine == {"incoming": [], "incoming_count": 0, "outgoing": [body]}
    assert theirs == {"incoming": [body], "incoming_count": 1, "outgoing": []}


def test_sending_again_while_pending_answers_the_same_request_and_writes_nothing(
    players: list[Player], clients: list[APIClient]
) -> None:
    first = send(clients[0], players[1].pk).json()

    again = send(clients[0], players[1].pk)

    assert again.status_code == HTTPStatus.OK
    assert again.json() == first
    assert FriendRequest.objects.count() == 1
    assert len(inbox(players[1])) == 1


def test_a_crossing_request_accepts_the_other_one(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]
    theirs = send(clients[1], ada.pk).json()

    crossing = send(clients[0], grace.pk)

    assert crossing.status_code == HTTPStatus.OK
    assert crossing.json()["id"] == theirs["id"]
    assert crossing.json()["state"] == "accepted"
    assert FriendRequest.objects.count() == 1
    assert Friendship.objects.count() == 1
    assert inbox(grace)[-1] == (
        "friend_accepted",
        {"request_id": theirs["id"], "by_player_id": ada.pk},
    )
    assert clients[0].get("/api/friends").json()["results"][0]["player"]["id"] == grace.pk
    assert send(clients[1], ada.pk).json()["code"] == "already_friends"


def test_accepting_makes_friends_both_ways_and_tells_the_sender(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]
    request_id = send(clients[0], grace.pk).json()["id"]

    accepted = clients[1].post(f"/api/friends/requests/{request_id}/accept")

    assert accepted.status_code == HTTPStatus.OK
    assert accepted.json()["state"] == "accepted"
    assert accepted.json()["answered_at"]
    assert inbox(ada) == [("friend_accepted", {"request_id": request_id, "by_player_id": grace.pk})]
    for client, other in ((clients[0], grace), (clients[1], ada)):
        page = client.get("/api/friends").json()
        assert page["count"] == 1
        (row,) = page["results"]
        assert row["player"]["id"] == other.pk
        assert row["presence"] == "offline"
        assert row["since"]
    assert clients[0].get("/api/friends/requests").json()["outgoing"] == []
    again = clients[1].post(f"/api/friends/requests/{request_id}/accept")
    assert again.status_code == HTTPStatus.CONFLICT
    assert again.json()["code"] == "friend_request_closed"
    assert again.json()["state"] == "accepted"


def test_declining_tells_nobody_and_lets_the_sender_ask_again(
    players: list[Player], clients: list[APIClient]
) -> None:
    request_id = send(clients[0], players[1].pk).json()["id"]

    declined = clients[1].post(f"/api/friends/requests/{request_id}/decline")

    assert declined.status_code == HTTPStatus.OK
    assert declined.json()["state"] == "declined"
    assert inbox(players[0]) == []
    assert not Friendship.objects.exists()
    assert send(clients[0], players[1].pk).status_code == HTTPStatus.CREATED


def test_only_the_recipient_answers_a_request(
    players: list[Player], clients: list[APIClient]
) -> None:
    request_id = send(clients[0], players[1].pk).json()["id"]

    for client in (clients[0], clients[2]):
        for verb in ("accept", "decline"):
            refused = client.post(f"/api/friends/requests/{request_id}/{verb}")
            assert refused.status_code == HTTPStatus.NOT_FOUND
            assert refused.json()["code"] == "friend_request_not_found"
    for unknown in (0, 999999, 2**63):
        refused = clients[1].post(f"/api/friends/requests/{unknown}/accept")
        assert refused.status_code == HTTPStatus.NOT_FOUND
    assert FriendRequest.objects.get().state == "pending"
    assert not Friendship.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "player_id"),
        ({"player_id": "2"}, "player_id"),
        ({"player_id": 2.0}, "player_id"),
        ({"player_id": 0}, "player_id"),
        ({"player_id": 3, "message": "hi"}, "message"),
    ],
)
def test_a_malformed_request_names_its_field_and_writes_nothing(
    clients: list[APIClient], body: dict[str, Any], field: str
) -> None:
    refused = clients[0].post("/api/friends/requests", body, format="json")

    assert refused.status_code == HTTPStatus.BAD_REQUEST
    assert refused["Content-Type"] == "application/problem+json"
    assert field in refused.json()["errors"]
    nothing_written()


def test_nobody_who_cannot_be_a_friend_is_asked(
    players: list[Player], clients: list[APIClient]
) -> None:
    bot = BotFactory()
    guest = Player.objects.create(kind=Player.Kind.GUEST, display_name="Walk-in")
    gone = players[3]
    Player.objects.filter(pk=gone.pk).update(deleted_at="2026-01-01T00:00:00Z")

    for player_id in (players[0].pk, bot.pk, guest.pk, gone.pk, 999999, 2**63 - 1):
        refused = send(clients[0], player_id)
        assert refused.status_code == HTTPStatus.BAD_REQUEST, player_id
        assert refused.json()["code"] == "invalid"
        assert list(refused.json()["errors"]) == ["player_id"]
    nothing_written()


def test_ending_a_friendship(players: list[Player], clients: list[APIClient]) -> None:
    befriend(clients, players, 0, 1)

    ended = clients[1].delete(f"/api/friends/{players[0].pk}")

    assert ended.status_code == HTTPStatus.NO_CONTENT
    assert clients[0].get("/api/friends").json()["count"] == 0
    again = clients[1].delete(f"/api/friends/{players[0].pk}")
    assert again.status_code == HTTPStatus.NOT_FOUND
    assert again.json()["code"] == "friend_not_found"
    assert clients[0].delete(f"/api/friends/{players[2].pk}").status_code == 404


def test_pending_requests_are_capped(
    players: list[Player], clients: list[APIClient], settings: Any
) -> None:
    settings.FRIEND_REQUESTS_PENDING_MAX = 2
    assert send(clients[0], players[1].pk).status_code == HTTPStatus.CREATED
    assert send(clients[0], players[2].pk).status_code == HTTPStatus.CREATED

    refused = send(clients[0], players[3].pk)

    assert refused.status_code == HTTPStatus.CONFLICT
    assert refused.json()["code"] == "too_many_friend_requests"
    assert FriendRequest.objects.count() == 2


def test_sending_requests_is_limited_per_player(
    players: list[Player], clients: list[APIClient], settings: Any
) -> None:
    settings.THROTTLE_RATES = {"friend_request": env_rate("UNUSED", "2/hour")}
    send(clients[0], players[1].pk)
    send(clients[0], players[2].pk)

    refused = send(clients[0], players[3].pk)

    assert refused.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert refused.json()["code"] == "throttled"
    assert FriendRequest.objects.count() == 2
    assert clients[0].get("/api/friends/requests").status_code == HTTPStatus.OK


def test_the_lists_refuse_unknown_query_parameters(clients: list[APIClient]) -> None:
    for path in ("/api/friends/requests", "/api/friends", "/api/players/me/blocks"):
        refused = clients[0].get(path, {"sort": "name"})
        assert refused.status_code == HTTPStatus.BAD_REQUEST, path
        assert list(refused.json()["errors"]) == ["sort"]


def test_friends_are_listed_by_name_in_pages(
    players: list[Player], clients: list[APIClient]
) -> None:
    for other in (3, 1, 2):
        befriend(clients, players, 0, other)

    first = clients[0].get("/api/friends", {"page_size": 2}).json()
    second = clients[0].get("/api/friends", {"page_size": 2, "page": 2}).json()

    names = [row["player"]["name"] for row in first["results"] + second["results"]]
    assert names == ["Alan", "Edsger", "Grace"]
    assert first["count"] == 3


def test_the_profile_says_how_the_caller_stands(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]

    def stands(client: APIClient, player: Player) -> dict[str, Any]:
        body = client.get(f"/api/players/{player.pk}").json()
        return {key: body[key] for key in ("friend", "friend_request", "blocked")}

    assert stands(clients[0], grace) == {"friend": False, "friend_request": None, "blocked": False}
    request_id = send(clients[0], grace.pk).json()["id"]
    assert stands(clients[0], grace)["friend_request"] == {
        "id": request_id,
        "direction": "outgoing",
    }
    assert stands(clients[1], ada)["friend_request"] == {"id": request_id, "direction": "incoming"}
    clients[1].post(f"/api/friends/requests/{request_id}/accept")
    assert stands(clients[1], ada) == {"friend": True, "friend_request": None, "blocked": False}
    clients[0].post(f"/api/players/{grace.pk}/block")
    assert stands(clients[0], grace) == {"friend": False, "friend_request": None, "blocked": True}
    # grace is not told that ada blocked her
    assert stands(clients[1], ada) == {"friend": False, "friend_request": None, "blocked": False}


def test_a_friends_only_profile_shows_to_friends_and_nobody_else(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada = players[0]
    assert (
        clients[0]
        .patch("/api/players/me", {"profile_visibility": "friends"}, format="json")
        .status_code
        == HTTPStatus.OK
    )
    befriend(clients, players, 1, 0)

    assert clients[1].get(f"/api/players/{ada.pk}").json()["hidden"] is False
    assert clients[1].get(f"/api/players/{ada.pk}/stats").status_code == HTTPStatus.OK
    assert clients[2].get(f"/api/players/{ada.pk}").json()["hidden"] is True
    assert clients[2].get(f"/api/players/{ada.pk}/stats").json()["code"] == "profile_hidden"
    clients[1].delete(f"/api/friends/{ada.pk}")
    assert clients[1].get(f"/api/players/{ada.pk}").json()["hidden"] is True


def test_lists_need_a_token() -> None:
    anonymous = APIClient()
    for path in ("/api/friends/requests", "/api/friends", "/api/players/me/blocks"):
        assert anonymous.get(path).status_code == HTTPStatus.UNAUTHORIZED
    assert (
        anonymous.post("/api/friends/requests", {"player_id": 1}, format="json").status_code == 401
    )
    assert not Block.objects.exists()
