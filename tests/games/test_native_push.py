"""APNs and FCM pushes. Neither service can be reached from CI: each is a peer of the test's own
on loopback, spoken to by the real clients with credentials of the test's own. FCM: Google's
token endpoint and FCM's HTTP v1 send (tests/games/fcm_service.py), and firebase-admin's
``messaging.send_each`` answered here for the library's side. APNs: an HTTP/2 server over TLS
(tests/games/apns_service.py) under the sandbox's name, which checks the provider token aioapns
signs with the team's key, and takes what Apple takes. An unregistered token's device is
removed. Without its settings, an APNs device is not sent to and keeps its place."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, time
from http import HTTPStatus
from pathlib import Path
from typing import Any

import firebase_admin
import pytest
import time_machine
import trustme
from aioapns.connection import APNsDevelopmentClientProtocol, APNsTLSClientProtocol
from asgiref.sync import async_to_sync
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from firebase_admin import messaging
from push_notifications import settings as push_settings
from push_notifications.models import APNSDevice, GCMDevice

from games.models import Match, Player
from games.notifications import native
from games.notifications.delivery import deliver
from games.notifications.devices import device_register
from games.notifications.models import Notification, PushDelivery, PushDevice
from games.notifications.services import notify
from games.notifications.watching import watch_begin, watch_end
from games.services import SeatSpec, match_create, seat_join
from tests.foundation.hostile import STORABLE
from tests.games.apns_service import ApnsService
from tests.games.conftest import client_for
from tests.games.fcm_service import FcmService
from tests.games.push_service import PushService, tls_context
from tests.games.resolver import Names

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
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


#: The name APNs' sandbox serves under (the settings' ``APNS_USE_SANDBOX``), and the app's
#: bundle id (``apns-topic``).
SANDBOX = APNsDevelopmentClientProtocol.APNS_SERVER
BUNDLE = "dev.chickenfoot.app"


@pytest.fixture
def apns(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, names: Names
) -> Iterator[ApnsService]:
    """APNs configured with a token key of the test's own (P-256, as Apple issues them), its
    sandbox's name resolving to the HTTP/2 peer on loopback (tests/games/apns_service.py), whose
    certificate a CA of the test's own issued: the only CA trusted (``SSL_CERT_FILE``, which
    OpenSSL reads for the default trust store)."""
    key = ec.generate_private_key(ec.SECP256R1())
    # the library reads the settings' dict as it was at start-up (it keeps that dict): the
    # same dict, set item by item here, and put back after the test
    ours = push_settings.PUSH_NOTIFICATIONS_SETTINGS
    assert ours is settings.PUSH_NOTIFICATIONS_SETTINGS
    for name, value in {
        # the file's text, as chickenfoot/settings.py reads it
        "APNS_AUTH_KEY_PATH": key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode(),
        "APNS_AUTH_KEY_ID": "KEYID12345",
        "APNS_TEAM_ID": "TEAMID1234",
        "APNS_TOPIC": BUNDLE,
        "APNS_USE_SANDBOX": True,
    }.items():
        monkeypatch.setitem(ours, name, value)
    ca = trustme.CA()
    trusted = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(trusted))
    monkeypatch.setenv("SSL_CERT_FILE", str(trusted))
    peer = ApnsService(
        key.public_key(), "TEAMID1234", "KEYID12345", BUNDLE, tls_context(ca, SANDBOX), SANDBOX
    )
    peer.start()
    names[SANDBOX] = ["127.0.0.1"]
    monkeypatch.setattr(APNsTLSClientProtocol, "APNS_PORT", peer.port)  # Apple's is 443
    yield peer
    peer.stop()


def turns_and_the_end(player: Player, match: Match, seat: int) -> list[Notification]:
    """Two turns of ``player`` at ``match`` and its end, each delivered."""
    rows = []
    for key, kind in (("t1", "your_turn"), ("t2", "your_turn"), ("over", "match_over")):
        payload = {"match_id": match.pk}
        rows.append(
            notify(
                player_id=player.pk,
                kind=kind,
                payload={**payload, "seat": seat} if kind == "your_turn" else payload,
                key=key,
            )
        )
        assert deliver(notification_id=rows[-1].pk) == (1, 0)
    return rows


def test_apns_at_its_http2_peer_gets_alerts_in_their_language_one_collapse_id_per_matchs_turns(
    apns: ApnsService, players: list[Player]
) -> None:
    # given: grace reads Lao and has an iPhone; ada's name is markup
    ada, grace = players[:2]
    match = with_grace(players)
    Player.objects.filter(pk=grace.pk).update(language="lo")
    Player.objects.filter(pk=ada.pk).update(display_name="<b>Ada</b> & co")
    device = device_register(player=grace, kind="apns", token="a1b2c3")

    # when: two turns and the end of the match are pushed
    first_turn, second_turn, over = turns_and_the_end(grace, match, seat=1)

    # then: APNs got each over HTTP/2 and TLS under its own name, with the provider token of
    # the team's key and the app's topic, as alerts
    assert apns.errors == []
    assert set(apns.server_names) == {SANDBOX}
    sent = [push for push in apns.received if push.token == "a1b2c3"]
    assert [push.body["notification"]["id"] for push in sent] == [
        first_turn.pk,
        second_turn.pk,
        over.pk,
    ]
    for push in sent:
        assert push.headers["apns-push-type"] == "alert"
        assert push.headers["apns-topic"] == BUNDLE
    # and: both turns under the match's collapse id (the newer replaces the older), the end
    # under none
    collapse = [push.headers.get("apns-collapse-id") for push in sent]
    assert collapse == [f"your-turn-{match.pk}", f"your-turn-{match.pk}", None]
    # and: the alert is the text in Lao, the name as plain text; beside it, the ids the app opens
    turn = sent[0].body
    assert turn["aps"]["alert"] == {
        "title": "ຕີນໄກ່: ຕາຂອງທ່ານ",
        "body": "ຕາຂອງທ່ານ, ຫຼິ້ນກັບ <b>Ada</b> & co",
    }
    assert turn["aps"]["thread-id"] == f"your-turn-{match.pk}"
    notification = turn["notification"]
    assert (notification["kind"], notification["payload"]) == (
        "your_turn",
        {"match_id": match.pk, "seat": 1},
    )
    assert sent[2].body["notification"]["kind"] == "match_over"
    assert not any(word in json.dumps(push.body) for push in sent for word in HIDDEN)
    assert (
        list(PushDelivery.objects.filter(device=device).values_list("status", flat=True))
        == [200] * 3
    )


def test_apns_keeps_quiet_in_the_recipients_night_and_while_they_watch_the_match(
    apns: ApnsService, players: list[Player]
) -> None:
    # given: grace, in Vientiane (UTC+7) and quiet from 22:00 to 07:00, has an iPhone
    grace = players[1]
    match = with_grace(players)
    Player.objects.filter(pk=grace.pk).update(
        time_zone="Asia/Vientiane", quiet_hours_start=time(22), quiet_hours_end=time(7)
    )
    device_register(player=grace, kind="apns", token="a1b2c3")

    def turn(key: str) -> int:
        payload = {"match_id": match.pk, "seat": 1}
        row = notify(player_id=grace.pk, kind="your_turn", payload=payload, key=key)
        return deliver(notification_id=row.pk)[0]

    # when: it is her turn at 22:30 in Vientiane: nothing is sent
    with time_machine.travel(datetime(2026, 12, 6, 15, 30, tzinfo=UTC), tick=True):
        assert turn("night") == 0
    # when: at 07:30 with her match open on her phone: nothing is sent either
    with time_machine.travel(datetime(2026, 12, 7, 0, 30, tzinfo=UTC), tick=True):
        async_to_sync(watch_begin)(player_id=grace.pk, match_id=match.pk)
        assert turn("watching") == 0
        async_to_sync(watch_end)(player_id=grace.pk, match_id=match.pk)
        # then: once she has closed it, her turn reaches APNs, the only one that did
        assert turn("morning") == 1

    assert apns.errors == []
    assert [push.body["notification"]["payload"] for push in apns.received] == [
        {"match_id": match.pk, "seat": 1}
    ]


def test_apns_refusals_remove_a_gone_or_bad_token_and_keep_a_device_for_a_retry(
    apns: ApnsService, players: list[Player]
) -> None:
    gone = device_register(player=players[0], kind="apns", token="gone-1")
    bad = device_register(player=players[0], kind="apns", token="bad-1")
    busy = device_register(player=players[0], kind="apns", token="busy-1")
    row = notify(player_id=players[0].pk, kind="match_over", payload={"match_id": 7})

    # 410 Unregistered and 400 BadDeviceToken: removed; 503: to retry
    assert deliver(notification_id=row.pk) == (0, 1)

    assert apns.errors == []
    assert sorted((push.token, push.status) for push in apns.received) == [
        ("bad-1", 400),
        ("busy-1", 503),
        ("gone-1", 410),
    ]
    assert set(PushDevice.objects.values_list("pk", flat=True)) == {busy.pk}
    assert not APNSDevice.objects.filter(registration_id__in=["gone-1", "bad-1"]).exists()
    assert not PushDelivery.objects.exists()  # the busy one's claim given back: a retry sends it
    assert {gone.pk, bad.pk}.isdisjoint(PushDevice.objects.values_list("pk", flat=True))


@pytest.mark.parametrize("name", STORABLE)
def test_a_hostile_name_reaches_apns_as_the_literal_text(
    name: str, apns: ApnsService, players: list[Player]
) -> None:
    ada, grace = players[:2]
    match = with_grace(players)
    Player.objects.filter(pk=ada.pk).update(display_name=name)
    device_register(player=grace, kind="apns", token="a1b2c3")
    row = notify(player_id=grace.pk, kind="your_turn", payload={"match_id": match.pk, "seat": 1})

    assert deliver(notification_id=row.pk) == (1, 0)

    (push,) = apns.received
    assert push.body["aps"]["alert"]["body"] == f"Your turn against {name}"


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
        "aps": {"alert": {"title": message["title"], "body": message["body"]}, "sound": "default"},
        "notification": message,
    }
    device = device_register(player=players[0], kind="apns", token="a1b2")
    row = notify(player_id=players[0].pk, kind="match_over", payload={"match_id": 7})

    assert not native.configured("apns")
    assert deliver(notification_id=row.pk) == (0, 0)

    assert PushDevice.objects.filter(pk=device.pk).exists()
    assert not PushDelivery.objects.exists()  # nothing claimed: a later send may still go


def documented(platform: str) -> str:
    """The example of ``platform``'s push in docs/api.md ("What a device receives"): the fenced
    block after its ``<!-- push example: ... -->`` marker."""
    lines = (ROOT / "docs" / "api.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(f"  <!-- push example: {platform} -->") + 2
    end = lines.index("  ```", start)
    return "\n".join(line.removeprefix("  ") for line in lines[start:end])


def test_each_platform_receives_what_the_docs_show(
    apns: ApnsService, fcm_peer: FcmService, service: PushService, players: list[Player]
) -> None:
    # given: grace has a browser, an iPhone and an Android phone
    grace = players[1]
    match = with_grace(players)
    answer = client_for(grace).post("/api/push/devices", service.subscription(), format="json")
    assert answer.status_code == HTTPStatus.CREATED
    device_register(player=grace, kind="apns", token="a1b2c3")
    device_register(player=grace, kind="fcm", token="token-1")

    # when: it is her turn
    row = notify(player_id=grace.pk, kind="your_turn", payload={"match_id": match.pk, "seat": 1})
    assert deliver(notification_id=row.pk) == (3, 0)

    # then: each platform got what the docs show, with this match's and notification's ids
    (web,) = service.received
    swaps = {
        '"id": 7': f'"id": {row.pk}',
        '"id": "7"': f'"id": "{row.pk}"',
        '"match_id": 42': f'"match_id": {match.pk}',
        '"match_id": "42"': f'"match_id": "{match.pk}"',
        "your-turn-42": f"your-turn-{match.pk}",
        "2026-12-06T21:15:00.000000Z": web.message["created_at"],
        "<device token>": "a1b2c3",
        "<registration token>": "token-1",
        "<APNS_TOPIC>": BUNDLE,
    }

    def as_sent(platform: str) -> str:
        text = documented(platform)
        for shown, sent in swaps.items():
            text = text.replace(shown, sent)
        return text

    assert web.message == json.loads(as_sent("webpush"))
    assert web.headers["topic"] == f"your-turn-{match.pk}"
    assert {"message": fcm_peer.messages[0]} == json.loads(as_sent("fcm"))
    head, _, body = as_sent("apns").partition("\n\n")
    request_line, *header_lines = head.splitlines()
    (push,) = apns.received
    assert (push.headers[":method"], push.headers[":path"]) == tuple(request_line.split(" "))
    for line in header_lines:
        name, _, value = line.partition(": ")
        if value.endswith("<provider token>"):  # a JWT the peer checked (``apns.errors``)
            assert push.headers[name].startswith(value.removesuffix("<provider token>"))
        else:
            assert push.headers[name] == value, name
    assert apns.errors == []
    assert push.body == json.loads(body)
