"""Known devices (games/accounts/devices.py): a log-in gives its client a signed device credential
(in the answer, and as the web's cookie); sent back with a log-in to that account, it gets the
log-in past the account's lockout and its address's, and only it: forged, altered, another
account's, expired, revoked (password change or reset, account deletion) or locked, it counts for
nothing and the log-in is an unknown client's. The budget split is tests/games/test_hashing.py's.
"""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus
from http.cookies import SimpleCookie
from typing import Any

import pytest
import time_machine
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.utils import timezone
from rest_framework.test import APIClient

from games.accounts import devices
from games.accounts.links import reset_uid, verify_token_make
from games.models import KnownDevice, Player
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"  # the factories' password
NEW_PASSWORD = "a brand new passphrase"
HOME, ELSEWHERE = "192.0.2.10", "203.0.113.50"  # documentation addresses (RFC 5737)
LIMIT = 3


@pytest.fixture(autouse=True)
def lockout(settings: Any) -> None:
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    settings.LOGIN_KNOWN_DEVICE_DAYS = 90
    settings.LOGIN_KNOWN_ADDRESS_DAYS = 0  # the known addresses are not what is tested here


def log_in(
    name: str,
    password: str = PASSWORD,
    *,
    credential: str | None = None,
    address: str = HOME,
    client: APIClient | None = None,
) -> Any:
    body = {"username": name, "password": password}
    if credential is not None:
        body["device_credential"] = credential
    client = client or APIClient()
    client.defaults["REMOTE_ADDR"] = address
    return client.post("/api/auth/token", body, format="json")


def credential_of(name: str, **kwargs: Any) -> str:
    """A device credential of ``name``'s account: what a log-in answers."""
    answer = log_in(name, **kwargs)
    assert answer.status_code == HTTPStatus.OK, answer.content
    return str(answer.json()["device_credential"])


def lock(name: str) -> None:
    """``name``'s username locked, by failures from addresses the test does not log in from."""
    for number in range(LIMIT):
        log_in(name, "wrong", address=f"198.51.100.{number}")
    assert log_in(name).json()["code"] == "locked_out"


def assert_locked_out(response: Any) -> dict[str, Any]:
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS, response.content
    body: dict[str, Any] = response.json()
    assert body["code"] == "locked_out"
    assert int(response["Retry-After"]) > 0
    return body


# --- the credential -------------------------------------------------------------------------


def test_a_log_in_gives_a_credential_and_the_webs_cookie(players: list[Player]) -> None:
    answer = log_in("ada")

    assert answer.status_code == HTTPStatus.OK
    credential = answer.json()["device_credential"]
    claim = devices.claim_of(credential)
    device = KnownDevice.objects.get()
    assert claim == devices.Claim(device_id=device.pk, user_id=players[0].user_id)
    cookie = answer.cookies[devices.COOKIE]
    assert cookie.value == credential
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Strict"
    assert cookie["path"] == "/api/auth/token"
    assert cookie["max-age"] == 90 * 24 * 3600


def test_registering_gives_a_credential_of_the_new_account(db: None) -> None:
    answer = APIClient().post(
        "/api/players", {"username": "newcomer", "password": PASSWORD}, format="json"
    )

    assert answer.status_code == HTTPStatus.CREATED, answer.content
    claim = devices.claim_of(answer.json()["device_credential"])
    user = get_user_model().objects.get(username="newcomer")
    assert claim is not None
    assert claim.user_id == user.pk
    assert answer.cookies[devices.COOKIE].value == answer.json()["device_credential"]


def test_a_known_device_logs_in_to_a_locked_account_and_an_unknown_client_does_not(
    players: list[Player],
) -> None:
    credential = credential_of("ada")
    lock("ada")

    assert_locked_out(log_in("ada"))  # the right password, from home, but no credential
    known = log_in("ada", credential=credential)
    assert known.status_code == HTTPStatus.OK, known.content
    assert log_in("ada", credential=credential, address=ELSEWHERE).status_code == HTTPStatus.OK


def test_the_webs_cookie_makes_a_known_device_too(players: list[Player]) -> None:
    browser = APIClient()
    assert log_in("ada", client=browser).status_code == HTTPStatus.OK  # the cookie is kept
    lock("ada")

    assert log_in("ada", client=browser).status_code == HTTPStatus.OK
    assert_locked_out(log_in("ada"))  # another browser


def test_the_cookie_keeps_the_credentials_of_the_last_accounts(players: list[Player]) -> None:
    browser = APIClient()
    for name in ("ada", "grace", "alan", "edsger"):
        assert log_in(name, client=browser).status_code == HTTPStatus.OK
    held = browser.cookies[devices.COOKIE].value.split(".")
    for name in ("grace", "alan"):
        lock(name)

    assert [devices.claim_of(c).user_id for c in held] == [  # type: ignore[union-attr]
        players[i].user_id for i in (3, 2, 1)
    ]
    assert log_in("grace", client=browser).status_code == HTTPStatus.OK
    assert log_in("alan", client=browser).status_code == HTTPStatus.OK
    lock("ada")
    assert_locked_out(log_in("ada", client=browser))  # the oldest, no longer kept


def test_a_forged_or_altered_credential_counts_for_nothing(players: list[Player]) -> None:
    credential = credential_of("ada")
    lock("ada")
    device_id, user_id = KnownDevice.objects.get().pk, players[0].user_id
    payload, stamp, signature = credential.split(":")
    other_signature = signature[:-2] + ("AA" if signature[-2:] != "AA" else "BB")
    forged = [
        f"{payload}:{stamp}:{other_signature}",  # the signature altered
        devices.credential_of(KnownDevice(pk=device_id, user_id=user_id))[:-1],  # cut short
        credential.replace(payload, "WzQxLDNd"),  # another device named, under ada's signature
        verify_token_make(player=players[0]),  # another signed value of ours (another salt)
        "not a credential",
        "",
    ]

    for value in forged:
        assert_locked_out(log_in("ada", credential=value))


def test_a_credential_of_another_account_counts_for_nothing(players: list[Player]) -> None:
    graces = credential_of("grace")
    lock("ada")

    assert_locked_out(log_in("ada", credential=graces))
    # and the other way round: grace's credential lets grace in, nobody else
    assert log_in("grace", credential=graces).status_code == HTTPStatus.OK


def test_an_expired_credential_counts_for_nothing(players: list[Player], settings: Any) -> None:
    credential = credential_of("ada")
    now = timezone.now()

    with time_machine.travel(now + timedelta(days=89, hours=23), tick=False):
        lock("ada")
        assert log_in("ada", credential=credential).status_code == HTTPStatus.OK
    # the device has logged in since (with a newer credential): this one's own stamp decides
    KnownDevice.objects.update(last_login=now + timedelta(days=90))
    with time_machine.travel(now + timedelta(days=90, hours=1), tick=False):
        lock("ada")
        assert_locked_out(log_in("ada", credential=credential))
        settings.LOGIN_KNOWN_DEVICE_DAYS = 0  # none is accepted
        fresh = devices.credential_of(KnownDevice.objects.get())
        assert_locked_out(log_in("ada", credential=fresh))


def test_a_device_unused_for_the_days_is_forgotten(players: list[Player]) -> None:
    """The credential's stamp alone does not make it known: its device's last log-in does, and
    devices unused that long are deleted at the account's next log-in."""
    old = credential_of("ada")
    stale = KnownDevice.objects.get()
    KnownDevice.objects.update(last_login=timezone.now() - timedelta(days=91))
    lock("ada")

    assert_locked_out(log_in("ada", credential=old))
    assert log_in("grace").status_code == HTTPStatus.OK  # another account's log-in: none go
    assert KnownDevice.objects.filter(pk=stale.pk).exists()
    AccessAttempt.objects.all().delete()  # ada's lock lifted
    assert log_in("ada").status_code == HTTPStatus.OK  # ada's next log-in
    mine = KnownDevice.objects.filter(user_id=players[0].user_id)
    assert mine.count() == 1
    assert not mine.filter(pk=stale.pk).exists()


def test_a_password_change_revokes_every_credential_and_gives_this_client_a_new_one(
    players: list[Player],
) -> None:
    phone = credential_of("ada")
    laptop = credential_of("ada")
    changed = client_for(players[0]).post(
        "/api/players/me/password",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )
    assert changed.status_code == HTTPStatus.OK, changed.content
    renewed = changed.json()["device_credential"]
    assert changed.cookies[devices.COOKIE].value == renewed
    lock("ada")

    for revoked in (phone, laptop):
        assert_locked_out(log_in("ada", NEW_PASSWORD, credential=revoked))
    assert log_in("ada", NEW_PASSWORD, credential=renewed).status_code == HTTPStatus.OK


def test_a_password_reset_revokes_every_credential(players: list[Player]) -> None:
    credential = credential_of("ada")
    user = get_user_model().objects.get(pk=players[0].user_id)  # as the log-in left it
    body = {
        "uid": reset_uid(user),
        "token": default_token_generator.make_token(user),
        "new_password": NEW_PASSWORD,
    }

    reset = APIClient().post("/api/auth/password-reset/confirm", body, format="json")

    assert reset.status_code == HTTPStatus.OK, reset.content
    assert not KnownDevice.objects.exists()
    lock("ada")
    assert_locked_out(log_in("ada", NEW_PASSWORD, credential=credential))


def test_deleting_the_account_revokes_its_credentials_for_whoever_takes_the_name(
    players: list[Player],
) -> None:
    credential = credential_of("ada")
    deleted = client_for(players[0]).post(
        "/api/players/me/delete", {"password": PASSWORD}, format="json"
    )
    assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted.content
    assert not KnownDevice.objects.exists()
    again = APIClient().post(
        "/api/players", {"username": "ada", "password": NEW_PASSWORD}, format="json"
    )
    assert again.status_code == HTTPStatus.CREATED, again.content
    lock("ada")

    assert_locked_out(log_in("ada", NEW_PASSWORD, credential=credential))


# --- the lockout ------------------------------------------------------------------------------


def test_a_known_device_is_not_refused_by_its_addresss_lock(players: list[Player]) -> None:
    credential = credential_of("ada", address=ELSEWHERE)
    for name in ("grace", "alan", "nobody"):  # guesses from the player's own address
        log_in(name, "wrong")

    assert_locked_out(log_in("alan"))  # the address is locked for everyone else
    assert log_in("ada", credential=credential).status_code == HTTPStatus.OK


def test_a_known_devices_failures_lock_that_device_and_count_against_the_username(
    players: list[Player],
) -> None:
    credential = credential_of("ada")
    lock("ada")

    answers = [log_in("ada", "wrong", credential=credential) for _ in range(LIMIT)]

    for answer in answers[:-1]:
        assert answer.status_code == HTTPStatus.UNAUTHORIZED  # checked, not refused
    locking = assert_locked_out(answers[-1])
    assert locking["detail"] == "Too many failed log-ins from this device: try again in 15 minutes."
    device = KnownDevice.objects.get()
    assert (device.failures, devices.is_locked(device)) == (LIMIT, True)
    # locked, the device is an unknown client: the username's lock holds
    refused = assert_locked_out(log_in("ada", credential=credential))
    assert "for this username or from this address" in refused["detail"]
    assert AccessAttempt.objects.filter(username="ada").count() >= 1
    assert sum(a.failures_since_start for a in AccessAttempt.objects.filter(username="ada")) == (
        2 * LIMIT
    )
    # once its cool-off is over it is known again
    KnownDevice.objects.update(failed_since=timezone.now() - timedelta(minutes=16))
    assert log_in("ada", credential=credential).status_code == HTTPStatus.OK


def test_a_failure_with_a_device_deleted_meanwhile_is_counted_as_any_other(
    players: list[Player],
) -> None:
    """A password change between the credential's check and the failure's count deletes the
    device: counting the failure against it is no error, and its credential then makes an
    unknown client's log-in (a 401, counted against the username)."""
    credential = credential_of("ada")
    device = devices.known_device(devices.claims_of([credential]), user_id=players[0].user_id)
    assert device is not None
    KnownDevice.objects.all().delete()

    assert devices.device_failed(device) is device
    assert log_in("ada", "wrong", credential=credential).status_code == 401


def test_a_success_clears_the_devices_failures(players: list[Player]) -> None:
    credential = credential_of("ada")
    for _ in range(LIMIT - 1):
        assert log_in("ada", "wrong", credential=credential).status_code == 401

    assert log_in("ada", credential=credential).status_code == HTTPStatus.OK

    device = KnownDevice.objects.get()
    assert (device.failures, device.failed_since) == (0, None)
    answers = [log_in("ada", "wrong", credential=credential).status_code for _ in range(LIMIT - 1)]
    assert answers == [HTTPStatus.UNAUTHORIZED] * (LIMIT - 1)


def test_with_the_lockout_off_nothing_locks_a_device(players: list[Player], settings: Any) -> None:
    settings.AXES_ENABLED = False
    credential = credential_of("ada")

    answers = [log_in("ada", "wrong", credential=credential).status_code for _ in range(LIMIT)]

    assert answers == [HTTPStatus.UNAUTHORIZED] * LIMIT
    assert log_in("ada", credential=credential).status_code == HTTPStatus.OK


def test_a_known_devices_log_in_renews_its_device(players: list[Player]) -> None:
    credential = credential_of("ada")
    KnownDevice.objects.update(last_login=timezone.now() - timedelta(days=10))

    renewed = log_in("ada", credential=credential)

    assert renewed.status_code == HTTPStatus.OK
    device = KnownDevice.objects.get()  # the same device, no other
    assert timezone.now() - device.last_login < timedelta(minutes=1)
    assert devices.claim_of(renewed.json()["device_credential"]).device_id == device.pk  # type: ignore[union-attr]


def test_a_credential_too_long_is_refused_as_bad_input(players: list[Player]) -> None:
    answer = log_in("ada", credential="x" * 201)

    assert answer.status_code == HTTPStatus.BAD_REQUEST
    assert "device_credential" in answer.json()["errors"]


def test_with_no_days_no_credential_is_given(players: list[Player], settings: Any) -> None:
    settings.LOGIN_KNOWN_DEVICE_DAYS = 0

    answer = log_in("ada")

    assert answer.status_code == HTTPStatus.OK
    assert answer.json()["device_credential"] is None
    assert devices.COOKIE not in answer.cookies
    assert not KnownDevice.objects.exists()


def test_the_cookie_is_secure_where_the_session_cookie_is(
    players: list[Player], settings: Any
) -> None:
    settings.SESSION_COOKIE_SECURE = True

    cookie = log_in("ada").cookies[devices.COOKIE]

    assert cookie["secure"] is True
    header = SimpleCookie()
    header.load(cookie.OutputString())
    assert header[devices.COOKIE].value == cookie.value
