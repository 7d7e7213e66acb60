"""Friend requests that race, on PostgreSQL: two crossing requests sent at once, a request
sent twice at once, an accept and a crossing request at once, a block and an accept at once;
the pair ends with one request and at most one friendship, never two pending requests."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection

from games.models import Player
from games.social.models import Block, FriendRequest, Friendship
from games.social.services import friend_request_send
from tests.games.conftest import client_for
from tests.races import race

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]


def ask(asker: Player, asked: Player) -> Callable[[], Any]:
    client = client_for(asker)
    return lambda: client.post("/api/friends/requests", {"player_id": asked.pk}, format="json")


@pytest.mark.parametrize("attempt", range(4))
def test_crossing_requests_at_once_make_one_friendship(players: list[Player], attempt: int) -> None:
    ada, grace = players[0], players[1]

    answers = race([ask(ada, grace), ask(grace, ada)])

    codes = sorted(answer.status_code for answer in answers)
    assert codes == [HTTPStatus.OK, HTTPStatus.CREATED], [a.content for a in answers]
    request = FriendRequest.objects.get()
    assert request.state == "accepted"
    assert Friendship.objects.count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_one_request_sent_twice_at_once_is_one_request(players: list[Player], attempt: int) -> None:
    answers = race([ask(players[0], players[1]), ask(players[0], players[1])])

    codes = sorted(answer.status_code for answer in answers)
    assert codes == [HTTPStatus.OK, HTTPStatus.CREATED], [a.content for a in answers]
    assert len({answer.json()["id"] for answer in answers}) == 1
    assert FriendRequest.objects.filter(state="pending").count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_an_accept_and_a_crossing_request_at_once_make_one_friendship(
    players: list[Player], attempt: int
) -> None:
    ada, grace = players[0], players[1]
    request = friend_request_send(sender=grace, player_id=ada.pk).request
    ada_client = client_for(ada)

    answers = race(
        [
            lambda: ada_client.post(f"/api/friends/requests/{request.pk}/accept"),
            ask(ada, grace),
        ]
    )

    codes = sorted(answer.status_code for answer in answers)
    # the accept wins or the crossing request does; the other finds it accepted or friends
    assert codes in ([HTTPStatus.OK, HTTPStatus.OK], [HTTPStatus.OK, HTTPStatus.CONFLICT])
    assert FriendRequest.objects.get().state == "accepted"
    assert Friendship.objects.count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_a_block_and_an_accept_at_once_leave_no_friendship(
    players: list[Player], attempt: int
) -> None:
    ada, grace = players[0], players[1]
    request = friend_request_send(sender=grace, player_id=ada.pk).request
    ada_client, grace_client = client_for(ada), client_for(grace)

    race(
        [
            lambda: ada_client.post(f"/api/friends/requests/{request.pk}/accept"),
            lambda: grace_client.post(f"/api/players/{ada.pk}/block"),
        ]
    )

    assert Block.objects.count() == 1
    assert not Friendship.objects.exists()
    assert FriendRequest.objects.get().state in ("accepted", "cancelled")
