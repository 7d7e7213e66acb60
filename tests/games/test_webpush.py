"""Web Push end to end: a push service of the test's own on loopback (tests/games/push_service.py)
takes what the server sends after a move commits, checks its VAPID signature against the
server's public key and decrypts it (RFC 8291) with the subscription's own key; a 410 from it
removes the device. With a worker (CI) the delivery task runs there: the service is on loopback,
which the worker reaches too, and the worker has the VAPID keys from its environment.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from rest_framework.test import APIClient

from games.models import Match, Player
from games.notifications.delivery import deliver
from games.notifications.models import Notification, PushDelivery, PushDevice
from games.notifications.services import notify
from tests.games.helpers import play_turn
from tests.games.push_service import PushService, b64url

pytestmark = pytest.mark.django_db(transaction=True)  # work after commit runs as it would

HIDDEN = ("hand", "tile", "seed", "boneyard", "pips", "state")


def _gone(device_id: int, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not PushDevice.objects.filter(pk=device_id).exists():
            return True
        time.sleep(0.05)
    return False


def test_a_your_turn_reaches_the_device_encrypted_signed_and_saying_nothing_hidden(
    settings: Any,
    service: PushService,
    players: list[Player],
    clients: list[APIClient],
    started_match: Any,
) -> None:
    # given: grace's browser subscribed, with a key pair and auth secret of its own
    grace = players[1]
    registered = clients[1].post("/api/push/devices", service.subscription(), format="json")
    assert registered.status_code == HTTPStatus.CREATED, registered.content
    key = clients[1].get("/api/push/vapid-public-key").json()["public_key"]
    assert key == settings.VAPID_PUBLIC_KEY

    # when: ada starts a match with grace and the seats play until it is grace's turn
    match: Match = started_match("chickenfoot", 2)
    rng = random.Random(3)
    for _ in range(12):
        if Notification.objects.filter(player=grace, kind="your_turn").exists():
            break
        play_turn([clients[0], clients[1]], match.pk, rng)
    push = service.wait("your_turn")

    # then: the push decrypts to the notification, and says whose turn in which match only
    assert push is not None, [r.message for r in service.received]
    message = push.message
    assert set(message) == {"id", "kind", "payload", "created_at", "read", "title", "body"}
    assert (message["title"], message["body"]) == (
        "Chicken Foot: your turn",
        "Your turn against Ada",
    )
    assert message["payload"] == {"match_id": match.pk, "seat": 1}
    text = json.dumps(message).lower()
    assert not any(word in text for word in HIDDEN), message
    assert Notification.objects.get(pk=message["id"]).player_id == grace.pk
    # and: signed by the server's VAPID key for this push service
    assert push.claims["aud"] == service.url
    assert push.claims["sub"] == settings.VAPID_SUBJECT
    assert push.claims["exp"] > time.time()
    assert int(push.headers["ttl"]) == settings.WEBPUSH_TTL_SECONDS
    # and: the match started reached her too, once
    started = [r for r in service.received if r.message["kind"] == "match_started"]
    assert [r.message["payload"] for r in started] == [{"match_id": match.pk}]

    # when: the delivery runs again (a retry, a duplicate task)
    sent_before = len(service.received)
    assert deliver(notification_id=message["id"]) == (0, 0)

    # then: nothing is sent twice; one delivery row per notification and device
    assert len(service.received) == sent_before
    device = PushDevice.objects.get(player=grace)
    assert PushDelivery.objects.filter(notification_id=message["id"], device=device).count() == 1


def test_a_push_service_answering_410_removes_the_device(
    service: PushService, players: list[Player], clients: list[APIClient]
) -> None:
    # given: grace's device, which her push service no longer knows
    registered = clients[1].post("/api/push/devices", service.subscription(), format="json")
    assert registered.status_code == HTTPStatus.CREATED, registered.content
    service.answer = HTTPStatus.GONE

    # when: she is notified
    notify(player_id=players[1].pk, kind="match_over", payload={"match_id": 5}, key="over-5")

    # then: the push was tried once, and the device is gone; the inbox keeps the notification
    assert _gone(registered.json()["id"])
    assert service.wait("match_over") is not None
    assert Notification.objects.filter(player=players[1], kind="match_over").count() == 1
    answer = clients[1].delete(f"/api/push/devices/{registered.json()['id']}")
    assert answer.status_code == HTTPStatus.NOT_FOUND
    assert answer.json()["code"] == "push_device_not_found"


def test_a_kind_turned_off_is_kept_in_the_inbox_and_not_pushed(
    service: PushService, players: list[Player], clients: list[APIClient]
) -> None:
    # given: grace turned off the push of match_over, not of match_started
    registered = clients[1].post("/api/push/devices", service.subscription(), format="json")
    assert registered.status_code == HTTPStatus.CREATED
    body = {"preferences": [{"kind": "match_over", "push": False}]}
    answer = clients[1].put("/api/notifications/preferences", body, format="json")
    assert answer.status_code == HTTPStatus.OK
    assert {"kind": "match_over", "inbox": True, "push": False} in answer.json()["preferences"]

    # when: both happen
    notify(player_id=players[1].pk, kind="match_over", payload={"match_id": 5}, key="over-5")
    notify(player_id=players[1].pk, kind="match_started", payload={"match_id": 6}, key="st-6")

    # then: only match_started is pushed; both are in the inbox
    assert service.wait("match_started") is not None
    assert [r.message["kind"] for r in service.received] == ["match_started"]
    inbox = clients[1].get("/api/notifications").json()
    assert [n["kind"] for n in inbox["results"]] == ["match_started", "match_over"]


def test_the_key_pair_command_prints_a_pair_that_signs(tmp_path: Any) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "games.notifications.vapid_keys"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    ).stdout
    values = dict(line.split("=", 1) for line in printed.splitlines())
    assert set(values) == {"VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY"}

    vapid = Vapid02.from_string(values["VAPID_PRIVATE_KEY"])
    public = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert b64url(public) == values["VAPID_PUBLIC_KEY"]
    headers = vapid.sign({"sub": "mailto:a@example.org", "aud": "https://push.example.net"})
    service = PushService(vapid_public_key=values["VAPID_PUBLIC_KEY"])
    claims, _ = service.vapid_check(headers["Authorization"])
    assert claims["aud"] == "https://push.example.net"
