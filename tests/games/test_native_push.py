"""APNs and FCM through django-push-notifications. Neither service can be reached from CI, so
what is tested is what can be: devices registered in the library's own rows, the payloads built,
and FCM's whole send path in the library and firebase-admin (credentials from a service
account file of the test's own) down to firebase-admin's ``messaging.send_each``, the one call
that would leave the machine, answered here: an unregistered token's device is removed. APNs'
send needs a client (aioapns or apns2) the deployment installs: without it, or without its
settings, an APNs device is not sent to and keeps its place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import firebase_admin
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from firebase_admin import messaging
from push_notifications.models import GCMDevice

from games.models import Player
from games.notifications import native
from games.notifications.delivery import deliver
from games.notifications.devices import device_register
from games.notifications.models import PushDelivery, PushDevice
from games.notifications.services import notify

pytestmark = pytest.mark.django_db

HIDDEN = ("hand", "tile", "seed", "boneyard", "score")


@pytest.fixture
def firebase(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """FCM configured with a service account of the test's own; ``send_each`` answered here:
    the messages it was given are returned, a token starting ``gone`` is unregistered."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    account = {
        "type": "service_account",
        "project_id": "chickenfoot-test",
        "private_key_id": "1",
        "private_key": key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode(),
        "client_email": "push@chickenfoot-test.iam.gserviceaccount.com",
        "client_id": "1",
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    path = tmp_path / "service-account.json"
    path.write_text(json.dumps(account))
    settings.FCM_CREDENTIALS_FILE = str(path)
    sent: list[Any] = []

    def send_each(messages: list[Any], dry_run: bool = False, app: Any = None) -> Any:
        sent.extend(messages)
        return messaging.BatchResponse(
            [
                messaging.SendResponse(None, messaging.UnregisteredError("gone"))
                if m.token.startswith("gone")
                else messaging.SendResponse({"name": "projects/x/messages/1"}, None)
                for m in messages
            ]
        )

    monkeypatch.setattr(messaging, "send_each", send_each)
    yield sent
    for app in list(firebase_admin._apps.values()):
        firebase_admin.delete_app(app)


def test_an_fcm_device_gets_the_notification_once_as_strings_and_nothing_hidden(
    firebase: list[Any], players: list[Player]
) -> None:
    device = device_register(player=players[0], kind="fcm", token="token-1")
    row = notify(player_id=players[0].pk, kind="your_turn", payload={"match_id": 7, "seat": 0})

    assert deliver(notification_id=row.pk) == (1, 0)
    assert deliver(notification_id=row.pk) == (0, 0)  # a retry: sent once

    (message,) = firebase
    assert message.token == "token-1"
    assert message.data == {"id": str(row.pk), "kind": "your_turn", "match_id": "7", "seat": "0"}
    assert message.android.notification.body == "Your turn in match 7"
    assert not any(word in json.dumps(message.data) for word in HIDDEN)
    assert PushDelivery.objects.get(device=device).status == 200


def test_an_unregistered_fcm_token_removes_the_device(
    firebase: list[Any], players: list[Player]
) -> None:
    device = device_register(player=players[0], kind="fcm", token="gone-1")
    row = notify(player_id=players[0].pk, kind="match_over", payload={"match_id": 7})

    assert deliver(notification_id=row.pk) == (0, 0)

    assert len(firebase) == 1
    assert not PushDevice.objects.filter(pk=device.pk).exists()
    assert not GCMDevice.objects.filter(registration_id="gone-1").exists()


def test_apns_payload_and_an_apns_device_without_its_client_or_settings(
    settings: Any, players: list[Player]
) -> None:
    message = {
        "id": 3,
        "kind": "round_disputed",
        "payload": {"match_id": 7, "round": 2, "seat": 1},
        "created_at": "2026-12-01T12:00:00Z",
        "read": False,
    }
    assert native.apns_payload(message) == {
        "message": "A round of match 7 is disputed",
        "extra": {"notification": message},
    }
    device = device_register(player=players[0], kind="apns", token="a1b2")
    row = notify(player_id=players[0].pk, kind="match_over", payload={"match_id": 7})

    assert deliver(notification_id=row.pk) == (0, 0)

    assert PushDevice.objects.filter(pk=device.pk).exists()
    assert not PushDelivery.objects.exists()  # nothing claimed: a later send may still go
