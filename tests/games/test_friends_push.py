"""A friend request and its acceptance are pushed, as every notification is: to the player's
devices, through the same delivery (FCM here, answered by the test's own ``send_each``), with
their title and body naming who asked or accepted, and the ids an app opens the right screen
with."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from games.notifications.delivery import deliver
from games.notifications.devices import device_register
from games.notifications.models import Notification
from tests.games.test_native_push import HIDDEN, firebase  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def test_a_friend_request_and_its_acceptance_are_pushed(
    firebase: list[Any],  # noqa: F811
    players: list[Player],
    clients: list[APIClient],
) -> None:
    ada, grace = players[0], players[1]
    device_register(player=ada, kind="fcm", token="ada-phone")
    device_register(player=grace, kind="fcm", token="grace-phone")

    request_id = (
        clients[0]
        .post("/api/friends/requests", {"player_id": grace.pk}, format="json")
        .json()["id"]
    )
    clients[1].post(f"/api/friends/requests/{request_id}/accept")
    for row in Notification.objects.order_by("pk"):
        assert deliver(notification_id=row.pk) == (1, 0)

    asked, accepted = firebase
    assert asked.token == "grace-phone"
    assert asked.data["kind"] == "friend_request"
    assert {k: v for k, v in asked.data.items() if k not in ("id", "kind")} == {
        "request_id": str(request_id),
        "by_player_id": str(ada.pk),
    }
    assert asked.android.notification.title == "A friend request"
    assert asked.android.notification.body == "Ada wants to be your friend"
    assert accepted.token == "ada-phone"
    assert accepted.data["kind"] == "friend_accepted"
    assert accepted.data["by_player_id"] == str(grace.pk)
    assert accepted.android.notification.title == "A new friend"
    assert accepted.android.notification.body == "Grace accepted your friend request"
    for message in (asked, accepted):
        assert not any(word in json.dumps(message.data) for word in HIDDEN)
