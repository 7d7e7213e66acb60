"""Blocking a player: the endpoints and their refusals, and what a block keeps apart: friend
requests and friendships, invitations, quick play's tables; the selectors other parts read."""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.invitations.models import Invitation
from games.models import Match, Player, Seat
from games.notifications.models import Notification
from games.quick_play.pairing import Waiting, tables_of
from games.services import SeatSpec, match_create
from games.social.blocks import blocked_between, blocked_by, blocked_pairs, blockers_of
from games.social.models import Block, FriendRequest, Friendship
from tests.games.factories import BotFactory

pytestmark = pytest.mark.django_db

TWO = {"variant": "mexican_train", "seats": 2, "preset": "quick"}


def block(client: APIClient, player: Player) -> Any:
    return client.post(f"/api/players/{player.pk}/block")


def send(client: APIClient, player: Player) -> Any:
    return client.post("/api/friends/requests", {"player_id": player.pk}, format="json")


def test_blocking_is_listed_idempotent_and_undone(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace, alan = players[0], players[1], players[2]

    first = block(clients[0], grace)
    again = block(clients[0], grace)
    block(clients[0], alan)

    assert first.status_code == HTTPStatus.CREATED
    assert {k: first.json()["player"][k] for k in ("id", "name", "kind")} == {
        "id": grace.pk,
        "name": "Grace",
        "kind": "human",
    }
    assert first.json()["player"]["avatar_small_url"].startswith("http://testserver/")
    assert again.status_code == HTTPStatus.OK
    assert again.json() == first.json()
    listed = clients[0].get("/api/players/me/blocks").json()
    assert listed["count"] == 2
    assert [row["player"]["id"] for row in listed["results"]] == [alan.pk, grace.pk]
    assert clients[1].get("/api/players/me/blocks").json()["count"] == 0
    assert clients[0].delete(f"/api/players/{grace.pk}/block").status_code == 204
    refused = clients[0].delete(f"/api/players/{grace.pk}/block")
    assert refused.status_code == HTTPStatus.NOT_FOUND
    assert refused.json()["code"] == "block_not_found"
    assert clients[1].delete(f"/api/players/{ada.pk}/block").status_code == 404
    assert list(Block.objects.values_list("blocker_id", "blocked_id")) == [(ada.pk, alan.pk)]


def test_who_cannot_be_blocked(players: list[Player], clients: list[APIClient]) -> None:
    bot = BotFactory()
    guest = Player.objects.create(kind=Player.Kind.GUEST, display_name="Walk-in")

    for player in (players[0], bot, guest):
        refused = block(clients[0], player)
        assert refused.status_code == HTTPStatus.BAD_REQUEST
        assert list(refused.json()["errors"]) == ["player_id"]
    unknown = clients[0].post("/api/players/999999/block")
    assert unknown.status_code == HTTPStatus.NOT_FOUND
    assert unknown.json()["code"] == "player_not_found"
    assert APIClient().post(f"/api/players/{players[1].pk}/block").status_code == 401
    assert not Block.objects.exists()


def test_a_block_ends_the_friendship_and_any_pending_request(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace, alan = players[0], players[1], players[2]
    request_id = send(clients[0], grace).json()["id"]
    clients[1].post(f"/api/friends/requests/{request_id}/accept")
    pending = send(clients[2], ada).json()["id"]

    block(clients[0], grace)
    block(clients[0], alan)

    assert not Friendship.objects.exists()
    assert FriendRequest.objects.get(pk=pending).state == "cancelled"
    assert clients[0].get("/api/friends").json()["count"] == 0
    assert clients[1].get("/api/friends").json()["count"] == 0
    closed = clients[0].post(f"/api/friends/requests/{pending}/accept")
    assert closed.status_code == HTTPStatus.CONFLICT
    assert closed.json()["state"] == "cancelled"
    # unblocking does not bring the friendship back
    clients[0].delete(f"/api/players/{grace.pk}/block")
    assert not Friendship.objects.exists()


def test_no_friend_request_either_way_across_a_block(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]
    block(clients[1], ada)  # grace blocks ada
    notified = Notification.objects.count()

    theirs = send(clients[0], grace)
    mine = send(clients[1], ada)

    assert theirs.status_code == mine.status_code == HTTPStatus.FORBIDDEN
    assert theirs.json()["code"] == mine.json()["code"] == "blocked"
    assert theirs.json()["detail"] == "Grace takes no requests from you."
    assert mine.json()["detail"] == "You blocked Ada: unblock them first."
    assert not FriendRequest.objects.exists()
    assert Notification.objects.count() == notified


def open_match(creator: Player) -> Match:
    return match_create(
        creator=creator,
        variant="chickenfoot",
        seats=[SeatSpec("creator"), SeatSpec("open"), SeatSpec("open")],
    )


@pytest.mark.parametrize("blocker", [0, 1])
def test_no_invitation_across_a_block(
    players: list[Player], clients: list[APIClient], blocker: int
) -> None:
    ada, grace = players[0], players[1]
    match = open_match(ada)
    block(clients[blocker], players[1 - blocker])

    for body in ({"player_id": grace.pk}, {"username": "grace"}):
        refused = clients[0].post(f"/api/matches/{match.pk}/invitations", body, format="json")
        assert refused.status_code == HTTPStatus.FORBIDDEN
        assert refused.json()["code"] == "blocked"
    assert not Invitation.objects.exists()
    match.refresh_from_db()
    assert match.version == 0
    assert not Notification.objects.filter(kind="invited").exists()
    # anyone else is invited as before
    other = clients[0].post(
        f"/api/matches/{match.pk}/invitations", {"player_id": players[2].pk}, format="json"
    )
    assert other.status_code == HTTPStatus.CREATED


def test_pairing_keeps_blocked_players_apart() -> None:
    now = datetime.now(UTC)
    waiting = [Waiting(pk, 1000 + pk, now, None, player_id=10 + pk) for pk in range(4)]

    together = tables_of(waiting, seat_count=2, now=now)
    apart = tables_of(waiting, seat_count=2, now=now, apart={frozenset((10, 11))})

    assert sorted(sorted(e.pk for e in t.entries) for t in together) == [[0, 1], [2, 3]]
    tables = sorted(sorted(e.pk for e in t.entries) for t in apart)
    assert [0, 1] not in tables
    assert len(tables) == 2


@pytest.mark.django_db(transaction=True)
def test_quick_play_never_seats_a_player_with_one_who_blocked_them(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace, alan = players[0], players[1], players[2]
    block(clients[1], ada)  # grace blocks ada

    first = clients[0].post("/api/queue", TWO, format="json").json()
    second = clients[1].post("/api/queue", TWO, format="json").json()
    third = clients[2].post("/api/queue", TWO, format="json").json()

    assert first["status"] == "waiting"
    assert second["status"] == "waiting"  # the only other player waiting blocked ada
    assert third["status"] == "matched"
    seated = set(Seat.objects.filter(match_id=third["match_id"]).values_list("player", flat=True))
    assert seated == {ada.pk, alan.pk}
    assert clients[1].get("/api/queue").json()["status"] == "waiting"
    assert grace.pk not in seated


def test_the_selectors_chat_and_presence_read(players: list[Player]) -> None:
    ada, grace, alan = (p.pk for p in players[:3])
    Block.objects.create(blocker_id=ada, blocked_id=grace)
    Block.objects.create(blocker_id=alan, blocked_id=grace)

    assert blocked_between(ada, grace)
    assert blocked_between(grace, ada)
    assert not blocked_between(ada, alan)
    assert blockers_of(grace) == {ada, alan}
    assert blockers_of(ada) == set()
    assert blocked_by(ada) == {grace}
    assert blocked_pairs([ada, grace, alan, 999]) == {
        frozenset((ada, grace)),
        frozenset((alan, grace)),
    }
    assert blocked_pairs([ada]) == set()


def test_a_deleted_account_takes_its_friends_requests_and_blocks_with_it(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]
    request_id = send(clients[0], grace).json()["id"]
    clients[1].post(f"/api/friends/requests/{request_id}/accept")
    send(clients[2], ada)
    block(clients[0], players[3])
    block(clients[3], ada)

    deleted = clients[0].post(
        "/api/players/me/delete", {"password": "a-long-enough-passphrase"}, format="json"
    )

    assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted.content
    assert not Friendship.objects.exists()
    assert not FriendRequest.objects.exists()
    assert not Block.objects.exists()
    assert clients[1].get("/api/friends").json()["count"] == 0
    assert clients[2].get("/api/friends/requests").json()["outgoing"] == []


@pytest.mark.parametrize("blocker", [0, 1])
def test_no_seat_beside_a_blocked_player_by_joining_or_by_a_link(
    players: list[Player], clients: list[APIClient], blocker: int
) -> None:
    ada, grace = players[0], players[1]
    match = open_match(ada)
    link = (
        clients[0]
        .post(f"/api/matches/{match.pk}/invitations", {"link": True, "seat": 2}, format="json")
        .json()
    )
    block(clients[blocker], players[1 - blocker])
    match.refresh_from_db()
    version = match.version

    joined = clients[1].post(f"/api/matches/{match.pk}/join", {}, format="json")
    by_code = clients[1].post("/api/invitations/accept", {"code": link["code"]}, format="json")

    for refused in (joined, by_code):
        assert refused.status_code == HTTPStatus.FORBIDDEN, refused.content
        problem = refused.json()
        assert problem["code"] == "blocked"
        assert problem["status"] == HTTPStatus.FORBIDDEN
        if blocker == 1:  # grace blocked ada: she is told whom, to unblock them
            assert problem["detail"] == (
                f"You blocked Ada, who sits at match {match.pk}: unblock them first."
            )
        else:  # ada blocked grace: grace learns only that someone seated there did
            assert problem["detail"] == (
                f"A player seated at match {match.pk} takes no requests from you."
            )
            assert "Ada" not in refused.content.decode()
    # nothing written: no seat taken, the link still open, the match as it was
    assert not Seat.objects.filter(match=match, player=grace).exists()
    assert Invitation.objects.get(pk=link["id"]).state == "pending"
    match.refresh_from_db()
    assert match.version == version
    # anyone else joins, and takes the link's seat with its code, as before
    assert clients[2].post(f"/api/matches/{match.pk}/join", {}, format="json").status_code == 200
    assert (
        clients[3]
        .post("/api/invitations/accept", {"code": link["code"]}, format="json")
        .status_code
        == HTTPStatus.OK
    )


def test_a_block_by_a_seated_player_who_is_not_the_host_keeps_the_joiner_out(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace, alan = players[0], players[1], players[2]
    match = open_match(ada)
    assert clients[2].post(f"/api/matches/{match.pk}/join", {}, format="json").status_code == 200
    block(clients[2], grace)  # alan, seated, blocks grace

    refused = clients[1].post(f"/api/matches/{match.pk}/join", {}, format="json")

    assert (refused.status_code, refused.json()["code"]) == (HTTPStatus.FORBIDDEN, "blocked")
    assert "Alan" not in refused.content.decode()
    assert not Seat.objects.filter(match=match, player=grace).exists()
    assert Seat.objects.filter(match=match, player=alan).exists()


@pytest.mark.parametrize("blocker", [0, 1])
def test_a_block_withdraws_the_invitations_pending_between_the_two(
    players: list[Player], clients: list[APIClient], blocker: int
) -> None:
    ada, grace = players[0], players[1]
    mine = open_match(ada)
    theirs = open_match(grace)
    to_grace = (
        clients[0]
        .post(f"/api/matches/{mine.pk}/invitations", {"player_id": grace.pk}, format="json")
        .json()
    )
    to_ada = (
        clients[1]
        .post(f"/api/matches/{theirs.pk}/invitations", {"player_id": ada.pk}, format="json")
        .json()
    )
    to_alan = (
        clients[0]
        .post(f"/api/matches/{mine.pk}/invitations", {"player_id": players[2].pk}, format="json")
        .json()
    )
    mine.refresh_from_db()
    version = mine.version

    block(clients[blocker], players[1 - blocker])

    states = dict(Invitation.objects.values_list("pk", "state"))
    assert states == {
        to_grace["id"]: "withdrawn",
        to_ada["id"]: "withdrawn",
        to_alan["id"]: "pending",
    }
    mine.refresh_from_db()
    assert mine.version == version + 1  # the match's watchers see the seat open again
    accepted = clients[1].post(f"/api/invitations/{to_grace['id']}/accept")
    assert (accepted.status_code, accepted.json()["state"]) == (409, "withdrawn")
    assert not Seat.objects.filter(match=mine, player=grace).exists()
    assert clients[2].post(f"/api/invitations/{to_alan['id']}/accept").status_code == 200
