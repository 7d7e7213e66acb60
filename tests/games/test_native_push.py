"""APNs and FCM through django-push-notifications. Neither service can be reached from CI, so
what is tested is what can be: devices registered in the library's own rows, the payloads built,
and each whole send path in the library and its client, with credentials of the test's own,
down to the one call that would leave the machine, answered here: firebase-admin's
``messaging.send_each`` for FCM, aioapns' ``APNs.send_notification`` for APNs (which checks
the JWT aioapns signs with the key as the settings hold it). An unregistered token's device is
removed. Without its settings, an APNs device is not sent to and keeps its place."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aioapns
import firebase_admin
import jwt
import pytest
from aioapns.common import NotificationResult
from aioapns.connection import JWTAuthorizationHeaderProvider
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from firebase_admin import messaging
from push_notifications import settings as push_settings
from push_notifications.models import APNSDevice, GCMDevice

from games.models import Match, Player
from games.notifications import native
from games.notifications.delivery import deliver
from games.notifications.devices import device_register
from games.notifications.models import PushDelivery, PushDevice
from games.notifications.services import notify
from games.services import SeatSpec, match_create, seat_join
from tests.games.fcm_service import FcmService

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


def with_grace(players: list[Player]) -> Match:
    """An open match of ada (seat 0) and grace (seat 1)."""
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    seat_join(match_id=match.pk, player=players[1], position=1)
    return match


def test_an_fcm_device_gets_the_notification_once_as_strings_and_nothing_hidden(
    firebase: list[Any], players: list[Player]
) -> None:
    match = with_grace(players)
    device = device_register(player=players[0], kind="fcm", token="token-1")
    payload = {"match_id": match.pk, "seat": 0}
    row = notify(player_id=players[0].pk, kind="your_turn", payload=payload)

    assert deliver(notification_id=row.pk) == (1, 0)
    assert deliver(notification_id=row.pk) == (0, 0)  # a retry: sent once

    (message,) = firebase
    assert message.token == "token-1"
    assert message.data == {
        "id": str(row.pk),
        "kind": "your_turn",
        "match_id": str(match.pk),
        "seat": "0",
    }
    assert message.android.notification.title == "Chicken Foot: your turn"
    assert message.android.notification.body == "Your turn against Grace"
    assert not any(word in json.dumps(message.data) for word in HIDDEN)
    assert PushDelivery.objects.get(device=device).status == 200


def test_fcm_collapses_a_matchs_turns_in_the_recipients_language(
    firebase: list[Any], players: list[Player]
) -> None:
    # given: grace reads Lao, and has an Android device
    match = with_grace(players)
    Player.objects.filter(pk=players[1].pk).update(language="lo")
    device_register(player=players[1], kind="fcm", token="token-2")

    # when: two turns and the end of the match are pushed
    for key, kind in (("t1", "your_turn"), ("t2", "your_turn"), ("over", "match_over")):
        row = notify(
            player_id=players[1].pk,
            kind=kind,
            payload={"match_id": match.pk, "seat": 1}
            if kind == "your_turn"
            else {"match_id": match.pk},
            key=key,
        )
        assert deliver(notification_id=row.pk) == (1, 0)

    # then: both turns under the match's collapse key (the newer replaces the older on the
    # device), the end under none; the text is Lao
    first, second, over = firebase
    assert first.android.collapse_key == second.android.collapse_key == f"your-turn-{match.pk}"
    assert over.android.collapse_key is None
    assert first.android.notification.title == "ຕີນໄກ່: ຕາຂອງທ່ານ"
    assert first.android.notification.body == "ຕາຂອງທ່ານ, ຫຼິ້ນກັບ Ada"


def test_an_unregistered_fcm_token_removes_the_device(
    firebase: list[Any], players: list[Player]
) -> None:
    device = device_register(player=players[0], kind="fcm", token="gone-1")
    row = notify(player_id=players[0].pk, kind="match_over", payload={"match_id": 7})

    assert deliver(notification_id=row.pk) == (0, 0)

    assert len(firebase) == 1
    assert not PushDevice.objects.filter(pk=device.pk).exists()
    assert not GCMDevice.objects.filter(registration_id="gone-1").exists()


@pytest.fixture
def fcm_peer(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[FcmService]:
    """FCM configured with a service account of the test's own whose token endpoint, and
    FCM's send, are a peer on loopback (tests/games/fcm_service.py)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    peer = FcmService(key.public_key(), "push@chickenfoot-test.iam.gserviceaccount.com")
    peer.start()
    account = {
        "type": "service_account",
        "project_id": "chickenfoot-test",
        "private_key_id": "1",
        "private_key": key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode(),
        "client_email": peer.client_email,
        "client_id": "1",
        "token_uri": f"{peer.url}/token",
    }
    path = tmp_path / "service-account.json"
    path.write_text(json.dumps(account))
    settings.FCM_CREDENTIALS_FILE = str(path)
    monkeypatch.setattr(
        messaging._MessagingService, "FCM_URL", f"{peer.url}/v1/projects/{{0}}/messages:send"
    )
    yield peer
    peer.stop()
    for app in list(firebase_admin._apps.values()):
        firebase_admin.delete_app(app)


def test_fcm_at_its_loopback_peer_gets_the_text_and_one_collapse_key_per_matchs_turns(
    fcm_peer: FcmService, players: list[Player]
) -> None:
    # given: ada's Android device, and one that FCM no longer knows
    match = with_grace(players)
    device_register(player=players[0], kind="fcm", token="token-1")
    gone = device_register(player=players[0], kind="fcm", token="gone-1")

    # when: two turns and the end of the match are pushed
    for key, kind in (("t1", "your_turn"), ("t2", "your_turn"), ("over", "match_over")):
        payload = {"match_id": match.pk}
        row = notify(
            player_id=players[0].pk,
            kind=kind,
            payload={**payload, "seat": 0} if kind == "your_turn" else payload,
            key=key,
        )
        assert deliver(notification_id=row.pk) == (1, 0)

    # then: FCM got each over HTTP v1 with the bearer token it issued, the text as the Android
    # notification, both turns under the match's collapse key and the end under none
    assert fcm_peer.errors == []
    sent = [m for m in fcm_peer.messages if m["token"] == "token-1"]
    assert [m["data"]["kind"] for m in sent] == ["your_turn", "your_turn", "match_over"]
    first, second, over = (m["android"] for m in sent)
    assert first["collapse_key"] == second["collapse_key"] == f"your-turn-{match.pk}"
    assert "collapse_key" not in over
    assert first["notification"]["title"] == "Chicken Foot: your turn"
    assert first["notification"]["body"] == "Your turn against Grace"
    assert over["notification"]["body"] == "Your match against Grace is finished"
    assert all(isinstance(value, str) for value in sent[0]["data"].values())
    # and: the device FCM answered UNREGISTERED for is removed
    assert not PushDevice.objects.filter(pk=gone.pk).exists()


@pytest.fixture
def apns(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """APNs configured with a token key of the test's own (P-256, as Apple issues them);
    aioapns' ``send_notification`` answered here: the requests it was given are returned, a
    token starting ``gone`` is ``Unregistered`` (410)."""
    key = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / "AuthKey_TEST.p8"
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    # the library reads the settings' dict as it was at start-up (it keeps that dict): the
    # same dict, set item by item here, and put back after the test
    ours = push_settings.PUSH_NOTIFICATIONS_SETTINGS
    assert ours is settings.PUSH_NOTIFICATIONS_SETTINGS
    for name, value in {
        "APNS_AUTH_KEY_PATH": path.read_text(),  # as chickenfoot/settings.py reads the file
        "APNS_AUTH_KEY_ID": "KEYID12345",
        "APNS_TEAM_ID": "TEAMID1234",
        "APNS_TOPIC": "dev.chickenfoot.app",
        "APNS_USE_SANDBOX": True,
    }.items():
        monkeypatch.setitem(ours, name, value)
    sent: list[Any] = []

    async def send_notification(self: aioapns.APNs, request: Any) -> NotificationResult:
        # the authorization aioapns would send with it: a JWT signed with the key it was given
        pool = self.pool
        header = JWTAuthorizationHeaderProvider(pool.key, pool.key_id, pool.team_id).get_header()
        scheme, token = header.split(" ")
        claims = jwt.decode(token, key.public_key(), algorithms=["ES256"])
        assert (scheme, claims["iss"]) == ("bearer", "TEAMID1234")
        assert jwt.get_unverified_header(token)["kid"] == "KEYID12345"
        sent.append(request)
        if request.device_token.startswith("gone"):
            return NotificationResult(request.notification_id, "410", "Unregistered")
        return NotificationResult(request.notification_id, "200")

    monkeypatch.setattr(aioapns.APNs, "send_notification", send_notification)
    return sent


def test_an_apns_device_gets_the_notification_once_with_its_alert_and_nothing_hidden(
    apns: list[Any], players: list[Player]
) -> None:
    match = with_grace(players)
    device = device_register(player=players[0], kind="apns", token="a1b2c3")
    payload = {"match_id": match.pk, "seat": 0}
    row = notify(player_id=players[0].pk, kind="your_turn", payload=payload)

    assert native.configured("apns")
    assert deliver(notification_id=row.pk) == (1, 0)
    assert deliver(notification_id=row.pk) == (0, 0)  # a retry: sent once

    (request,) = apns
    assert request.device_token == "a1b2c3"
    assert request.message["aps"]["alert"] == {
        "title": "Chicken Foot: your turn",
        "body": "Your turn against Grace",
    }
    # aioapns sends it as the apns-collapse-id header: a newer turn replaces this one
    assert request.collapse_key == f"your-turn-{match.pk}"
    assert request.message["aps"]["thread-id"] == f"your-turn-{match.pk}"
    notification = request.message["notification"]
    assert (notification["kind"], notification["payload"]) == ("your_turn", payload)
    assert notification["body"] == "Your turn against Grace"
    assert not any(word in json.dumps(request.message) for word in HIDDEN)
    assert PushDelivery.objects.get(device=device).status == 200


def test_an_unregistered_apns_token_removes_the_device(
    apns: list[Any], players: list[Player]
) -> None:
    device = device_register(player=players[0], kind="apns", token="gone-2")
    row = notify(player_id=players[0].pk, kind="match_over", payload={"match_id": 7})

    assert deliver(notification_id=row.pk) == (0, 0)

    assert len(apns) == 1
    assert not PushDevice.objects.filter(pk=device.pk).exists()
    assert not APNSDevice.objects.filter(registration_id="gone-2").exists()


def test_apns_payload_and_an_apns_device_without_its_settings(
    settings: Any, players: list[Player]
) -> None:
    message = {
        "id": 3,
        "kind": "round_disputed",
        "payload": {"match_id": 7, "round": 2, "seat": 1},
        "created_at": "2026-12-01T12:00:00Z",
        "read": False,
        "title": "Chicken Foot: round 2 disputed",
        "body": "Grace disputed the scores of round 2",
    }
    assert native.apns_payload(message) == {
        "message": {"title": message["title"], "body": message["body"]},
        "extra": {"notification": message},
    }
    device = device_register(player=players[0], kind="apns", token="a1b2")
    row = notify(player_id=players[0].pk, kind="match_over", payload={"match_id": 7})

    assert deliver(notification_id=row.pk) == (0, 0)

    assert PushDevice.objects.filter(pk=device.pk).exists()
    assert not PushDelivery.objects.exists()  # nothing claimed: a later send may still go
