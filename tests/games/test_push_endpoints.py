"""A Web Push endpoint is an outside address (docs/api.md, "Outside addresses"): https, a host
name, resolving to public unicast addresses only, checked when it is registered and again at
each send, where the connection goes to the address just checked and no redirect is followed.

Names under ``.test`` resolve as each test says (tests/games/resolver.py); the push services are
real programs on loopback, plain http or https with a certificate from a CA of the test's own.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import trustme
from rest_framework.test import APIClient

from chickenfoot.outside_http import outside_session
from games.models import Player
from games.notifications.delivery import deliver
from games.notifications.models import Notification, PushDelivery, PushDevice
from games.notifications.services import notify
from games.notifications.vapid_keys import vapid_key_pair
from games.notifications.webpush import NotSent, webpush_send
from tests.games.push_service import PushService, tls_context
from tests.games.resolver import INSIDE, PUBLIC_V4, PUBLIC_V6, Names
from tests.games.schema_check import check_response

pytestmark = pytest.mark.django_db

#: What the issue's tester registered, and the other spellings of an address inside.
LITERALS = [
    "https://169.254.169.254/latest/meta-data/",
    "https://127.0.0.1:8443/push",
    "https://10.0.0.1/",
    "https://[::1]/",
    "https://localhost/",
    "https://[::ffff:127.0.0.1]/",
    "https://[fe80::1%25eth0]/",
    "https://2130706433/",  # 127.0.0.1 as one number
    "https://0x7f.0.0.1/",
    "https://127.1/",
    "https://8.8.8.8/",  # public, but an IP literal all the same
    "https://[2606:4700:4700::1111]/",
    "http://push.public.test/x",  # not https
    "ftp://push.public.test/x",
    "https://user:secret@push.public.test/x",
    "https://push.public.test\\@10.0.0.1/x",
    "https:///x",
    "https://push.public.test:99999/x",
    "https://push.public.test:0/x",
    "https://push.public.test:port/x",
    "https://push\u00e9.test/x",
    "https://metadata/computeMetadata/v1/",  # one label: a name of the local network
]


def subscription(endpoint: str) -> dict[str, Any]:
    return {
        "kind": "webpush",
        "endpoint": endpoint,
        "keys": {"p256dh": "B" + "A" * 86, "auth": "c2VjcmV0c2VjcmV0c2VjcmV0"[:22]},
    }


def refused(answer: Any) -> bool:
    check_response(answer, "/api/push/devices", "post")
    body = answer.json()
    return (
        answer.status_code == HTTPStatus.BAD_REQUEST
        and answer["Content-Type"] == "application/problem+json"
        and body["code"] == "invalid"
        and set(body["errors"]) == {"endpoint"}
    )


@pytest.fixture
def vapid(settings: Any) -> None:
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = vapid_key_pair()


@pytest.fixture
def ca(tmp_path: Path) -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def ca_file(ca: trustme.CA, tmp_path: Path) -> str:
    path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return str(path)


def tls_service(settings: Any, ca: trustme.CA, name: str) -> PushService:
    service = PushService(vapid_public_key=settings.VAPID_PUBLIC_KEY, tls=tls_context(ca, name))
    service.name = name
    service.start()
    return service


@pytest.fixture
def pinned(settings: Any, vapid: None, ca: trustme.CA) -> Iterator[PushService]:
    """A push service with a certificate for ``push.pinned.test``, on 127.0.0.1."""
    service = tls_service(settings, ca, "push.pinned.test")
    yield service
    service.stop()


# --- registration ---------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", LITERALS)
def test_an_endpoint_that_is_no_public_host_name_is_refused_at_registration(
    settings: Any, names: Names, clients: list[APIClient], endpoint: str
) -> None:
    # given: production's rules (no loopback), and a name that would resolve publicly
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = False
    names["push.public.test"] = [PUBLIC_V4]

    # when
    answer = clients[0].post("/api/push/devices", subscription(endpoint), format="json")

    # then: 400 naming the endpoint, and nothing kept
    assert refused(answer), (endpoint, answer.status_code, answer.content)
    assert not PushDevice.objects.exists()


@pytest.mark.parametrize("host", sorted(INSIDE))
def test_a_name_resolving_inside_the_network_is_refused_at_registration(
    settings: Any, names: Names, clients: list[APIClient], host: str
) -> None:
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = False
    names[host] = INSIDE[host]

    answer = clients[0].post("/api/push/devices", subscription(f"https://{host}/x"), format="json")

    assert refused(answer), (host, answer.status_code, answer.content)
    # the answer says neither what the name resolved to nor whether it resolved at all
    detail = answer.json()["errors"]["endpoint"][0]
    assert all(address not in detail for address in INSIDE[host])
    assert detail.replace(host, "<host>") == unresolved_detail(clients[0])
    assert not PushDevice.objects.exists()


def unresolved_detail(client: APIClient) -> str:
    """What a name that does not resolve is told (the name written ``<host>``)."""
    answer = client.post("/api/push/devices", subscription("https://unknown.test/x"), format="json")
    assert refused(answer)
    return str(answer.json()["errors"]["endpoint"][0]).replace("unknown.test", "<host>")


def test_a_name_resolving_to_public_addresses_is_registered(
    settings: Any, names: Names, clients: list[APIClient]
) -> None:
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = False
    names["fcm.public.test"] = [PUBLIC_V4, PUBLIC_V6]
    names["nat64.public.test"] = ["64:ff9b::808:808"]  # 8.8.8.8 through a NAT64 gateway

    for endpoint in ("https://fcm.public.test/wp/abc", "https://nat64.public.test:8443/wp/d"):
        answer = clients[0].post("/api/push/devices", subscription(endpoint), format="json")
        assert answer.status_code == HTTPStatus.CREATED, (endpoint, answer.content)
    assert PushDevice.objects.count() == 2


def test_the_test_setting_opens_loopback_and_nothing_else(
    settings: Any, names: Names, clients: list[APIClient]
) -> None:
    # given: the tests' own setting, which production refuses to start with
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = True
    names["loopback.test"] = ["127.0.0.1"]
    names["ten.test"] = ["10.0.0.1"]

    def post(endpoint: str) -> Any:
        return clients[0].post("/api/push/devices", subscription(endpoint), format="json")

    # then: loopback, by address or by name, over http too
    for endpoint in ("http://127.0.0.1:9/x", "https://[::1]:9/x", "http://loopback.test:9/x"):
        assert post(endpoint).status_code == HTTPStatus.CREATED, endpoint
    # and: every other address inside is refused as before
    for endpoint in ("http://10.0.0.1/x", "https://169.254.169.254/", "https://ten.test/x"):
        assert refused(post(endpoint)), endpoint


# --- each send --------------------------------------------------------------------------------


def device_for(player: Player, service: PushService, endpoint: str | None = None) -> PushDevice:
    keys = service.keys()
    return PushDevice.objects.create(
        player=player,
        kind="webpush",
        token=endpoint or service.subscription()["endpoint"],
        p256dh=keys["p256dh"],
        auth=keys["auth"],
    )


def test_a_name_rebound_inside_after_registration_is_never_connected_to(
    settings: Any,
    names: Names,
    players: list[Player],
    clients: list[APIClient],
    pinned: PushService,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # given: grace registers a name that resolves to a public address then
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = False
    names["push.pinned.test"] = [PUBLIC_V4]
    registered = clients[1].post("/api/push/devices", pinned.subscription(), format="json")
    assert registered.status_code == HTTPStatus.CREATED, registered.content

    # when: the name now resolves to this machine (the push service is listening there), and a
    # notification is pushed
    names["push.pinned.test"] = ["127.0.0.1"]
    notification = notify(player_id=players[1].pk, kind="match_over", payload={"match_id": 5})
    assert notification is not None
    with caplog.at_level(logging.INFO, logger="games.notifications.delivery"):
        assert deliver(notification_id=notification.pk) == (0, 0)

    # then: nothing connected to it; the device, pointing inside now, is removed
    assert pinned.connections == 0
    assert not PushDevice.objects.filter(pk=registered.json()["id"]).exists()
    assert any("gone" in record.getMessage() for record in caplog.records)
    assert Notification.objects.filter(pk=notification.pk).exists()  # the inbox keeps it


def test_a_device_kept_from_before_with_an_address_inside_is_removed_unsent(
    settings: Any, players: list[Player], vapid: None
) -> None:
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = True  # even so: link-local is never an outside address
    service = PushService(vapid_public_key=settings.VAPID_PUBLIC_KEY)
    device = device_for(players[1], service, "https://169.254.169.254/latest/meta-data/")
    notification = notify(player_id=players[1].pk, kind="match_over", payload={"match_id": 5})
    assert notification is not None

    assert deliver(notification_id=notification.pk) == (0, 0)

    assert not PushDevice.objects.filter(pk=device.pk).exists()


def test_a_send_connects_to_the_address_checked_and_keeps_the_name_for_tls_and_host(
    settings: Any, names: Names, players: list[Player], pinned: PushService, ca_file: str
) -> None:
    # given: the name resolves to loopback (the test setting lets loopback through)
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = True
    names["push.pinned.test"] = ["127.0.0.1"]
    device = device_for(players[1], pinned)
    message = {"id": 1, "kind": "match_over", "payload": {"match_id": 5}}

    # when: sent through a session that trusts the test's CA
    status = webpush_send(device=device, message=message, session=outside_session(verify=ca_file))

    # then: resolved once, by the check, and the connection made to that address; TLS asked
    # for the name and the certificate was checked for it; Host and the VAPID audience name it
    assert status == HTTPStatus.CREATED
    assert names.lookups == ["push.pinned.test"]
    push = pinned.wait("match_over")
    assert push is not None
    assert push.message == message
    port = pinned.url.rsplit(":", 1)[1]
    assert pinned.server_names == ["push.pinned.test"]
    assert push.headers["host"] == f"push.pinned.test:{port}"
    assert push.claims["aud"] == f"https://push.pinned.test:{port}"


def test_the_certificate_is_checked_for_the_name_not_the_address(
    settings: Any, names: Names, players: list[Player], pinned: PushService, ca_file: str
) -> None:
    # given: another name pointed at the service, whose certificate does not name it
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = True
    names["push.other.test"] = ["127.0.0.1"]
    port = pinned.url.rsplit(":", 1)[1]
    device = device_for(players[1], pinned, f"https://push.other.test:{port}/push/device-1")
    message = {"id": 1, "kind": "match_over", "payload": {"match_id": 5}}

    # when / then: refused by the client, and retried later rather than dropped
    with pytest.raises(NotSent):
        webpush_send(device=device, message=message, session=outside_session(verify=ca_file))
    assert pinned.connections == 1
    assert pinned.server_names == ["push.other.test"]
    assert pinned.received == []


def test_a_redirect_is_not_followed(settings: Any, players: list[Player], vapid: None) -> None:
    # given: a push service that answers every push with a redirect to another address
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = True
    service = PushService(vapid_public_key=settings.VAPID_PUBLIC_KEY, answer=307)
    service.start()
    try:
        service.location = f"{service.url}/elsewhere"
        device = device_for(players[1], service)
        notification = notify(player_id=players[1].pk, kind="match_over", payload={"match_id": 5})
        assert notification is not None

        # when
        sent = deliver(notification_id=notification.pk)

        # then: one request, to the endpoint; the push counts as not sent, the device stays
        assert sent == (0, 1)
        assert [r.path for r in service.received] == ["/push/device-1"]
        assert PushDevice.objects.filter(pk=device.pk).exists()
        assert not PushDelivery.objects.filter(device=device).exists()
    finally:
        service.stop()
