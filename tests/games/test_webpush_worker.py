"""Web Push sent by the worker (CI: ``CELERY_WORKER_EXPECTED=1``): the delivery task runs in
another process, which reaches the test's push service on loopback and signs with the VAPID key
of its environment (.ci/run gives the web process and the workers one pair)."""

from __future__ import annotations

import random
import time
from http import HTTPStatus
from typing import Any

from rest_framework.test import APIClient

from games.models import Match, Player
from games.notifications.models import Notification, PushDelivery, PushDevice
from games.notifications.services import notify
from tests.games.helpers import play_turn
from tests.games.push_service import PushService
from tests.processes import WORKER_MARKS

pytestmark = WORKER_MARKS


def test_the_worker_pushes_a_your_turn_once_and_removes_a_gone_device(
    settings: Any,
    service: PushService,
    players: list[Player],
    clients: list[APIClient],
    started_match: Any,
) -> None:
    # given: grace's browser subscribed
    grace = players[1]
    registered = clients[1].post("/api/push/devices", service.subscription(), format="json")
    assert registered.status_code == HTTPStatus.CREATED, registered.content

    # when: the seats play until it is grace's turn
    match: Match = started_match("chickenfoot", 2)
    rng = random.Random(3)
    for _ in range(12):
        if Notification.objects.filter(player=grace, kind="your_turn").exists():
            break
        play_turn([clients[0], clients[1]], match.pk, rng)

    # then: the worker sent it, signed with the key this process serves
    push = service.wait("your_turn", seconds=30)
    assert push is not None, [r.message for r in service.received]
    assert push.message["payload"]["match_id"] == match.pk
    assert push.vapid_key == settings.VAPID_PUBLIC_KEY
    device = PushDevice.objects.get(pk=registered.json()["id"])
    assert PushDelivery.objects.filter(notification_id=push.message["id"], device=device).exists()

    # when: her push service forgets the device, and she is notified again
    service.answer = HTTPStatus.GONE
    notify(player_id=grace.pk, kind="match_over", payload={"match_id": match.pk}, key="over")

    # then: the worker removed the device
    deadline = time.monotonic() + 30
    while PushDevice.objects.filter(pk=device.pk).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not PushDevice.objects.filter(pk=device.pk).exists()
