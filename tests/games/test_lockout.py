"""Log-in lockout (django-axes, games/accounts/lockout.py): the failure that reaches the limit, for
a username or from an address, locks it for the cool-off; while locked, a log-in (the API's or
the admin's) is answered 429 ``locked_out`` with ``Retry-After`` before any password is hashed,
even with the right password. A success clears the account's failures, and only the account's.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import timedelta
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessLog
from django.contrib.auth import get_user_model
from django.db.models import F, Sum
from django.test import Client
from rest_framework.test import APIClient

from games.models import Player
from tests.games import hashers

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
ADDRESS, OTHER_ADDRESS = "192.0.2.10", "192.0.2.20"  # documentation addresses (RFC 5737)
PASSWORD = "a-long-enough-passphrase"  # the factories' password
LIMIT = 3
COOL_OFF = timedelta(minutes=15)


@pytest.fixture(autouse=True)
def lockout(settings: Any) -> None:
    """Lockout after ``LIMIT`` failures, and a password hasher that counts its calls."""
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.AXES_COOLOFF_TIME = COOL_OFF
    settings.PASSWORD_HASHERS = ["tests.games.hashers.CountingHasher"]
    hashers.CountingHasher.calls = 0


def log_in(name: str, password: str = PASSWORD, address: str = ADDRESS) -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        "/api/auth/token", {"username": name, "password": password}, format="json"
    )


def assert_locked_out(response: Any, *, at_most: int = 900) -> int:
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert (body["code"], body["title"], body["status"]) == ("locked_out", "Locked out", 429)
    assert body["type"] == "https://chickenfoot.dev/problems/locked-out"
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= at_most
    minutes = -(-retry_after // 60)
    assert re.search(rf"try again in {minutes} minutes?\.$", body["detail"]), body["detail"]
    return retry_after


def failures(**where: str) -> int:
    return AccessAttempt.objects.filter(**where).aggregate(n=Sum("failures_since_start"))["n"] or 0


def test_the_failure_that_reaches_the_limit_locks_the_account(players: list[Player]) -> None:
    hashed = hashers.CountingHasher.calls
    answers = [log_in("ada", "wrong").status_code for _ in range(LIMIT - 1)]
    locking = log_in("ada", "wrong")

    assert answers == [HTTPStatus.UNAUTHORIZED] * (LIMIT - 1)
    assert assert_locked_out(locking) > 890  # a full cool-off from now
    assert hashers.CountingHasher.calls - hashed == LIMIT  # each failure was a real check


def test_while_locked_even_the_right_password_is_refused_before_hashing(
    players: list[Player],
) -> None:
    for _ in range(LIMIT):
        log_in("ada", "wrong")
    hashed = hashers.CountingHasher.calls

    refused = [log_in("ada", PASSWORD, address) for address in (ADDRESS, OTHER_ADDRESS)]

    for response in refused:
        assert_locked_out(response)
    assert hashers.CountingHasher.calls == hashed  # no password was hashed
    assert failures(username="ada") == LIMIT  # and the refusals were not counted
    assert log_in("grace", address="203.0.113.5").status_code == HTTPStatus.OK  # another account


def test_an_account_is_locked_by_failures_from_several_addresses(players: list[Player]) -> None:
    addresses = [f"198.51.100.{i}" for i in range(LIMIT)]

    answers = [log_in("ada", "wrong", address).status_code for address in addresses]

    assert answers[-1] == HTTPStatus.TOO_MANY_REQUESTS
    assert_locked_out(log_in("ada", address="203.0.113.9"))
    assert log_in("grace", address=addresses[0]).status_code == HTTPStatus.OK


def test_an_address_is_locked_by_failures_on_several_usernames(players: list[Player]) -> None:
    names = ["ada", "grace", "nobody-at-all"][:LIMIT]

    answers = [log_in(name, "wrong").status_code for name in names]
    hashed = hashers.CountingHasher.calls
    flood = [log_in(f"guess{i}", "guess") for i in range(5)]

    assert answers[-1] == HTTPStatus.TOO_MANY_REQUESTS
    for response in flood:
        assert_locked_out(response)
    assert hashers.CountingHasher.calls == hashed  # an anonymous flood hashes nothing
    assert_locked_out(log_in("alan"))  # from the locked address, even a good log-in
    assert log_in("alan", address=OTHER_ADDRESS).status_code == HTTPStatus.OK


def test_usernames_count_in_any_capitals(players: list[Player]) -> None:
    for number, name in enumerate(("ada", "ADA", "Ａｄａ")[:LIMIT]):  # noqa: RUF001 - on purpose
        log_in(name, "wrong", address=f"198.51.100.{number}")

    assert_locked_out(log_in("ada", address=OTHER_ADDRESS))


def test_a_success_clears_the_accounts_failures(players: list[Player]) -> None:
    for _ in range(LIMIT - 1):
        log_in("ada", "wrong")

    assert log_in("ada").status_code == HTTPStatus.OK
    assert failures(username="ada") == 0
    answers = [log_in("ada", "wrong").status_code for _ in range(LIMIT - 1)]
    assert answers == [HTTPStatus.UNAUTHORIZED] * (LIMIT - 1)


def test_logging_in_to_ones_own_account_does_not_clear_an_addresses_guesses(
    players: list[Player],
) -> None:
    for _ in range(LIMIT - 1):
        log_in("ada", "wrong")  # guesses at ada's password ...

    assert log_in("grace").status_code == HTTPStatus.OK  # ... then one's own account
    assert failures(ip_address=ADDRESS) == LIMIT - 1
    assert_locked_out(log_in("ada", "wrong"))  # the next guess still locks


def test_the_lock_lifts_a_cool_off_after_the_failure_that_reached_the_limit(
    players: list[Player],
) -> None:
    for _ in range(LIMIT):
        log_in("ada", "wrong")

    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=10))
    retry_after = assert_locked_out(log_in("ada"), at_most=300)
    assert retry_after > 290  # what is left of the cool-off

    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=5))
    assert log_in("ada").status_code == HTTPStatus.OK


def test_the_admin_log_in_is_covered(db: None) -> None:
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    browser = Client(REMOTE_ADDR=ADDRESS)

    def admin_log_in(password: str) -> Any:
        return browser.post(
            "/admin/login/?next=/admin/", {"username": "root", "password": password}
        )

    answers = [admin_log_in("wrong").status_code for _ in range(LIMIT - 1)]
    locking = admin_log_in("wrong")
    hashed = hashers.CountingHasher.calls
    refused = admin_log_in(PASSWORD)

    assert answers == [HTTPStatus.OK] * (LIMIT - 1)  # the form again, with its error
    assert_locked_out(locking)
    assert_locked_out(refused)
    assert hashers.CountingHasher.calls == hashed
    assert "_auth_user_id" not in browser.session


def test_the_admin_and_the_api_count_together(db: None) -> None:
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    for _ in range(LIMIT - 1):
        log_in("root", "wrong")

    response = Client(REMOTE_ADDR=OTHER_ADDRESS).post(
        "/admin/login/?next=/admin/", {"username": "root", "password": "wrong"}
    )

    assert_locked_out(response)


def test_with_the_lockout_off_nothing_is_counted(players: list[Player], settings: Any) -> None:
    settings.AXES_ENABLED = False

    answers = [log_in("ada", "wrong").status_code for _ in range(LIMIT + 2)]

    assert answers == [HTTPStatus.UNAUTHORIZED] * (LIMIT + 2)
    assert log_in("ada").status_code == HTTPStatus.OK
    assert not AccessAttempt.objects.exists()


@pytest.mark.parametrize(
    ("meta", "proxies"),
    [({"REMOTE_ADDR": ""}, 0), ({"REMOTE_ADDR": "None"}, 0), ({"REMOTE_ADDR": "not-an-address"}, 0),
     ({"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "2025-03-01, 10.0.0.1"}, 2)],
)  # fmt: skip
def test_an_attempt_without_a_usable_address_counts_under_no_address(
    players: list[Player], settings: Any, meta: dict[str, str], proxies: int
) -> None:
    """No ``REMOTE_ADDR``, or an entry that is no IP address: a 401 as usual (the attempt is
    recorded with no address, never as text in the address column), and a later lockout."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    client = APIClient()
    client.defaults.update(meta)

    def attempt(password: str) -> Any:
        return client.post(
            "/api/auth/token", {"username": "ada", "password": password}, format="json"
        )

    answers = [attempt("wrong").status_code for _ in range(LIMIT - 1)]

    assert answers == [HTTPStatus.UNAUTHORIZED] * (LIMIT - 1)
    assert failures(ip_address__isnull=True) == LIMIT - 1
    assert_locked_out(attempt("wrong"))
    assert_locked_out(attempt(PASSWORD))


KNOWN_ADDRESS = "198.51.100.77"  # where ada plays from


def lock_ada_from_elsewhere() -> None:
    for number in range(LIMIT):
        log_in("ada", "wrong", address=f"203.0.113.{number}")


def test_a_locked_username_still_logs_in_from_an_address_it_logged_in_from(
    players: list[Player],
) -> None:
    assert log_in("ada", address=KNOWN_ADDRESS).status_code == HTTPStatus.OK
    lock_ada_from_elsewhere()

    elsewhere = log_in("ada", address=OTHER_ADDRESS)
    at_home = log_in("ada", address=KNOWN_ADDRESS)

    assert_locked_out(elsewhere)  # locked everywhere else, even with the right password
    assert at_home.status_code == HTTPStatus.OK


def test_at_a_known_address_failures_still_count_and_its_own_lock_holds(
    players: list[Player],
) -> None:
    assert log_in("ada", address=KNOWN_ADDRESS).status_code == HTTPStatus.OK
    lock_ada_from_elsewhere()

    answers = [log_in("ada", "wrong", KNOWN_ADDRESS).status_code for _ in range(LIMIT - 1)]
    locking = log_in("ada", "wrong", KNOWN_ADDRESS)

    assert answers == [HTTPStatus.UNAUTHORIZED] * (LIMIT - 1)  # checked, not refused
    assert_locked_out(locking)  # the address's own lock
    assert_locked_out(log_in("ada", address=KNOWN_ADDRESS))
    assert failures(username="ada") == 2 * LIMIT


def test_an_address_known_for_another_username_is_no_exception(players: list[Player]) -> None:
    assert log_in("grace", address=KNOWN_ADDRESS).status_code == HTTPStatus.OK
    lock_ada_from_elsewhere()

    assert_locked_out(log_in("ada", address=KNOWN_ADDRESS))


def test_an_address_is_known_for_the_window_only(players: list[Player], settings: Any) -> None:
    assert log_in("ada", address=KNOWN_ADDRESS).status_code == HTTPStatus.OK
    AccessLog.objects.update(attempt_time=F("attempt_time") - timedelta(days=31))
    lock_ada_from_elsewhere()

    assert_locked_out(log_in("ada", address=KNOWN_ADDRESS))  # 31 days ago: forgotten
    AccessLog.objects.update(attempt_time=F("attempt_time") + timedelta(days=2))
    assert log_in("ada", address=KNOWN_ADDRESS).status_code == HTTPStatus.OK  # 29 days ago
    settings.LOGIN_KNOWN_ADDRESS_DAYS = 0
    lock_ada_from_elsewhere()
    assert_locked_out(log_in("ada", address=KNOWN_ADDRESS))  # none is known


def test_log_ins_older_than_the_window_are_forgotten_at_the_next(
    players: list[Player], settings: Any
) -> None:
    assert log_in("ada", address=KNOWN_ADDRESS).status_code == HTTPStatus.OK
    AccessLog.objects.update(attempt_time=F("attempt_time") - timedelta(days=31))

    assert log_in("ada", address=OTHER_ADDRESS).status_code == HTTPStatus.OK

    assert list(AccessLog.objects.values_list("username", "ip_address")) == [("ada", OTHER_ADDRESS)]
    settings.LOGIN_KNOWN_ADDRESS_DAYS = 0
    assert log_in("ada", address=OTHER_ADDRESS).status_code == HTTPStatus.OK
    assert not AccessLog.objects.exists()  # none is kept


PROBE = (
    "import json; from django.conf import settings; print(json.dumps([settings.AXES_ENABLED, "
    "settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME.total_seconds() / 60, "
    "settings.LOGIN_KNOWN_ADDRESS_DAYS]))"
)


def test_the_documented_defaults_are_the_settings_defaults() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOGIN_")}
    env["DJANGO_SETTINGS_MODULE"] = "chickenfoot.settings"
    probe = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", f"import django; django.setup(); {PROBE}"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    enabled, limit, minutes, known_days = json.loads(probe.stdout.strip().splitlines()[-1])
    doc = (ROOT / "docs" / "reliability.md").read_text()

    assert enabled is True
    assert "| the lockout itself | on | `LOGIN_LOCKOUT` (`off`: none) |" in doc
    assert f"within the cool-off | {limit} | `LOGIN_FAILURE_LIMIT` |" in doc
    assert f"| cool-off | {minutes:g} minutes | `LOGIN_COOLOFF_MINUTES` |" in doc
    assert f"logged in from within | {known_days} days | `LOGIN_KNOWN_ADDRESS_DAYS`" in doc
