"""Password hashing under floods (chickenfoot/hashing.py): past this second's hashes (counted in
the shared cache) or with every hashing slot of the process taken, a log-in or a registration is
refused at once with 429 ``busy`` and ``Retry-After``, before any password is hashed; nothing is
written and no failed log-in is counted. A cache that cannot be reached fails open, logged.

The suite runs without the bounds (tests/conftest.py); ``bounds`` turns them on here, on a
cache of the test's own: a fresh local-memory cache, and, when ``REDIS_URL`` is set (CI), Redis
as in production, under a key prefix of the test's own.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import redis
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connections
from django.test import Client
from rest_framework.test import APIClient

from chickenfoot import hashing
from games.models import Player
from tests.caches import CACHE_KINDS, cache_of_own
from tests.games import hashers
from tests.games.conftest import client_for
from tests.games.schema_check import openapi
from tests.hashing_slots import slots_held
from tests.processes import redis_cache, refusing_port

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-enough-passphrase"  # the factories' password
#: A moment 0.25 s into a second: the clock the per-second count reads.
NOW = 1_000_000_000.25


@pytest.fixture(params=CACHE_KINDS)
def bounds(
    request: pytest.FixtureRequest, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., None]]:
    """``bounds(per_second=2, at_once=0, known_per_second=0, known_at_once=0)``: those bounds
    (and the known devices' reserves of them), counted in a cache of this test's own, at the
    clock ``NOW`` (``bounds.clock["now"]`` moves it); hashing with ``CountingHasher``."""
    prefix = f"test-hashing-{uuid.uuid4().hex}"
    settings.CACHES = cache_of_own(request.param, prefix)
    settings.PASSWORD_HASHERS = ["tests.games.hashers.CountingHasher"]
    clock = {"now": NOW}
    monkeypatch.setattr(hashing, "clock", lambda: clock["now"])

    def set_bounds(
        *, per_second: int = 0, at_once: int = 0, known_per_second: int = 0, known_at_once: int = 0
    ) -> None:
        settings.PASSWORD_HASHES_PER_SECOND = per_second
        settings.PASSWORD_HASHES_AT_ONCE = at_once
        settings.PASSWORD_HASHES_KNOWN_DEVICES_PER_SECOND = known_per_second
        settings.PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE = known_at_once

    set_bounds.clock = clock  # type: ignore[attr-defined]
    yield set_bounds
    if request.param == "redis":
        server = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=2)
        for key in server.scan_iter(f"{prefix}:*"):
            server.delete(key)


def log_in(
    name: str = "ada",
    password: str = PASSWORD,
    address: str = "192.0.2.10",
    credential: str | None = None,
) -> Any:
    body = {"username": name, "password": password}
    if credential is not None:
        body["device_credential"] = credential
    return APIClient(REMOTE_ADDR=address).post("/api/auth/token", body, format="json")


def credential_of(name: str) -> str:
    """A device credential of ``name``'s account (logged in before the bounds are set)."""
    answer = log_in(name)
    assert answer.status_code == HTTPStatus.OK, answer.content
    return str(answer.json()["device_credential"])


def register(name: str) -> Any:
    return APIClient().post(
        "/api/players", {"username": name, "password": "correct horse battery"}, format="json"
    )


def assert_busy(response: Any) -> None:
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert (body["code"], body["title"], body["status"]) == ("busy", "Busy", 429)
    assert body["type"] == "https://chickenfoot.dev/problems/busy"
    assert body["detail"] == (
        "The server is checking too many passwords right now: try again in 1 second."
    )
    assert response["Retry-After"] == "1"


def test_log_ins_past_this_seconds_hashes_are_busy_before_hashing(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    bounds(per_second=2)
    hashed = hashers.CountingHasher.calls

    answers = [log_in().status_code, log_in("grace", "wrong").status_code]
    refused = [log_in(), log_in("alan"), log_in("nobody", "guess")]

    assert answers == [HTTPStatus.OK, HTTPStatus.UNAUTHORIZED]
    for response in refused:
        assert_busy(response)
    assert hashers.CountingHasher.calls - hashed == 2  # the refused hashed nothing
    assert sum(a.failures_since_start for a in AccessAttempt.objects.all()) == 1  # nor counted

    bounds.clock["now"] = NOW + 1  # type: ignore[attr-defined]  (the next second)
    assert log_in("alan").status_code == HTTPStatus.OK


def test_while_the_budget_is_spent_a_log_in_is_refused_before_any_query(
    bounds: Callable[..., None], players: list[Player], django_assert_num_queries: Any
) -> None:
    """Neither the lockout's queries nor the account's lookup: a refusal costs next to nothing."""
    bounds(per_second=1, at_once=1)
    assert log_in().status_code == HTTPStatus.OK

    with django_assert_num_queries(0):
        past_the_count = log_in("grace")
    bounds.clock["now"] = NOW + 1  # type: ignore[attr-defined]
    with slots_held(1), django_assert_num_queries(0):
        every_slot_taken = log_in("grace")

    assert_busy(past_the_count)
    assert_busy(every_slot_taken)


def test_an_unknown_username_costs_a_hash_too(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    """Django hashes the password of an attempt on no account (so that timing does not tell
    which names exist): that hash is counted like any other."""
    bounds(per_second=2)
    hashed = hashers.CountingHasher.calls

    answers = [log_in(f"nobody{i}", "guess").status_code for i in range(2)]

    assert answers == [HTTPStatus.UNAUTHORIZED] * 2
    assert hashers.CountingHasher.calls - hashed == 2
    assert_busy(log_in())


def test_a_registration_past_this_seconds_hashes_is_busy_and_writes_nothing(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    bounds(per_second=1)
    users = get_user_model().objects.count()
    first = register("newcomer")
    hashed = hashers.CountingHasher.calls

    refused = register("latecomer")

    assert first.status_code == HTTPStatus.CREATED
    assert_busy(refused)
    assert hashers.CountingHasher.calls == hashed
    assert get_user_model().objects.count() == users + 1
    assert not Player.objects.filter(display_name="latecomer").exists()
    bounds.clock["now"] = NOW + 1  # type: ignore[attr-defined]
    assert register("latecomer").status_code == HTTPStatus.CREATED


def test_log_ins_and_registrations_share_the_count(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    bounds(per_second=2)

    assert register("newcomer").status_code == HTTPStatus.CREATED
    assert log_in().status_code == HTTPStatus.OK
    assert_busy(register("latecomer"))
    assert_busy(log_in("grace"))


def test_a_locked_out_attempt_costs_none_of_the_budget(
    bounds: Callable[..., None], players: list[Player], settings: Any
) -> None:
    """The lockout refuses first (django-axes' backend comes before the bounded one)."""
    settings.AXES_FAILURE_LIMIT = 2
    bounds(per_second=2)
    for _ in range(2):
        log_in("ada", "wrong")  # the second reaches the limit: ada is locked
    bounds.clock["now"] = NOW + 1  # type: ignore[attr-defined]

    locked = [log_in("ada", address=f"198.51.100.{i}") for i in range(5)]

    assert {response.json()["code"] for response in locked} == {"locked_out"}
    assert log_in("grace", address="203.0.113.1").status_code == HTTPStatus.OK
    assert log_in("alan", address="203.0.113.2").status_code == HTTPStatus.OK


def test_the_admins_log_in_form_is_bounded(bounds: Callable[..., None], db: None) -> None:
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    bounds(at_once=1)
    browser = Client(REMOTE_ADDR="192.0.2.10")

    with slots_held(1):
        refused = browser.post(
            "/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD}
        )

    assert_busy(refused)
    assert "_auth_user_id" not in browser.session
    assert not AccessAttempt.objects.exists()


def test_with_every_slot_taken_a_log_in_is_busy_at_once(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    bounds(at_once=2)
    hashed = hashers.CountingHasher.calls

    with slots_held(2):
        refused = [log_in(), register("newcomer")]
    with slots_held(1):
        allowed = log_in()

    for response in refused:
        assert_busy(response)
    assert allowed.status_code == HTTPStatus.OK
    assert hashers.CountingHasher.calls - hashed == 1
    assert not get_user_model().objects.filter(username="newcomer").exists()


@pytest.mark.django_db(transaction=True)
def test_while_a_hash_runs_other_requests_do_not_wait_behind_it(
    bounds: Callable[..., None], players: list[Player], settings: Any
) -> None:
    """One log-in hashing (held in its hash until the test lets it go): a second log-in is
    refused at once rather than queued behind it, an authenticated request is answered, and the
    first log-in then completes."""
    bounds(at_once=1)
    settings.PASSWORD_HASHERS = ["tests.games.hashers.GatedHasher"]
    hashers.GatedHasher.gate.clear()
    hashers.GatedHasher.started.clear()
    first: dict[str, Any] = {}
    me = client_for(players[1])  # its token is checked by digest, not by the password hasher

    def first_log_in() -> None:
        try:
            first["answer"] = log_in()
        finally:
            connections.close_all()  # this thread's own connection

    hashing_thread = threading.Thread(target=first_log_in)
    hashing_thread.start()
    try:
        assert hashers.GatedHasher.started.wait(timeout=10), "the first log-in never hashed"

        second = log_in("grace")
        mine = me.get("/api/players/me")
    finally:
        hashers.GatedHasher.gate.set()
        hashing_thread.join(timeout=30)

    assert_busy(second)
    assert mine.status_code == HTTPStatus.OK
    assert first["answer"].status_code == HTTPStatus.OK


def test_with_the_unknown_share_spent_a_known_device_still_logs_in(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    """The flood (no credential) spends everyone else's share of this second's hashes; the
    known devices' reserve is left for a device that presents a credential for its account."""
    adas = credential_of("ada")
    bounds(per_second=2, known_per_second=1)
    hashed = hashers.CountingHasher.calls

    flood = [log_in(f"nobody{i}", "guess", address=f"198.18.0.{i}") for i in range(1, 4)]
    unknown = log_in("ada")  # the right password, but no credential
    known = log_in("ada", credential=adas)
    again = log_in("ada", credential=known.json().get("device_credential"))

    assert flood[0].status_code == HTTPStatus.UNAUTHORIZED  # the unknown share: one a second
    for refused in (*flood[1:], unknown, again):  # and the reserve's one, taken
        assert_busy(refused)
    assert known.status_code == HTTPStatus.OK, known.content
    assert hashers.CountingHasher.calls - hashed == 2  # the bound held: two in the second
    bounds.clock["now"] = NOW + 1  # type: ignore[attr-defined]
    assert log_in("ada").status_code == HTTPStatus.OK


def test_a_known_device_draws_from_the_unknown_share_once_its_reserve_is_spent(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    adas, graces, alans = credential_of("ada"), credential_of("grace"), credential_of("alan")
    bounds(per_second=3, known_per_second=1)

    first = log_in("ada", credential=adas)  # the reserve
    second = log_in("grace", credential=graces)  # the unknown share (1 of 2)
    unknown = log_in("edsger")  # the unknown share (2 of 2)

    assert [first.status_code, second.status_code, unknown.status_code] == [HTTPStatus.OK] * 3
    assert_busy(log_in("alan", credential=alans))
    assert_busy(log_in("nobody", "guess"))


def test_a_credential_not_valid_for_the_account_draws_from_the_unknown_share(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    """Another account's credential, or a forged one, is an unknown client's: the reserve is
    not theirs."""
    graces = credential_of("grace")
    bounds(per_second=2, known_per_second=1)
    assert log_in("nobody", "guess").status_code == HTTPStatus.UNAUTHORIZED  # the unknown share

    assert_busy(log_in("ada", credential=graces))
    assert_busy(log_in("ada", credential=graces[:-2] + "xx"))
    assert log_in("grace", credential=graces).status_code == HTTPStatus.OK


def test_registrations_share_what_is_left_of_the_budget(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    bounds(per_second=2, known_per_second=1)

    assert register("newcomer").status_code == HTTPStatus.CREATED

    assert_busy(register("latecomer"))  # the reserve is left, but not for a registration


def test_while_every_share_is_spent_a_known_device_is_refused_before_any_query(
    bounds: Callable[..., None], players: list[Player], django_assert_num_queries: Any
) -> None:
    adas = credential_of("ada")
    bounds(per_second=2, known_per_second=1)
    assert log_in("nobody", "guess").status_code == HTTPStatus.UNAUTHORIZED
    assert log_in("ada", credential=adas).status_code == HTTPStatus.OK

    with django_assert_num_queries(0):
        refused = log_in("ada", credential=adas)

    assert_busy(refused)


def test_with_the_unknown_slots_taken_a_known_device_hashes_in_its_reserved_slot(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    adas, graces = credential_of("ada"), credential_of("grace")
    bounds(at_once=2, known_at_once=1)

    with slots_held(1):  # a flood's log-in hashing: the unknown share's one slot
        refused = [log_in("grace"), register("newcomer")]
        known = log_in("ada", credential=adas)
    with slots_held(1, known_device=True):  # the reserved slot taken: the unknown share's
        other_known = log_in("grace", credential=graces)
    with slots_held(1), slots_held(1, known_device=True):
        none_left = log_in("ada", credential=adas)

    for response in refused:
        assert_busy(response)
    assert known.status_code == HTTPStatus.OK, known.content
    assert other_known.status_code == HTTPStatus.OK, other_known.content
    assert_busy(none_left)


@pytest.mark.django_db(transaction=True)
def test_a_known_devices_log_in_releases_the_thread_waiting_for_a_floods_hash(
    bounds: Callable[..., None], players: list[Player], settings: Any
) -> None:
    """A flood's log-in hashing aside (its request's thread waiting for the hashing thread):
    a known device's log-in begins its hash, and the flood's request is answered ``busy`` at
    once, before its hash has ended, so that a known device's log-in never holds a second
    thread of the process beside it. The flood's hash runs on in its hashing thread, holding
    its slot: no other unknown client's hash starts until it has ended."""
    adas = credential_of("ada")
    bounds(at_once=2, known_at_once=1)
    settings.PASSWORD_HASHERS = ["tests.games.hashers.AsideGatedHasher"]
    settings.PASSWORD_HASH_NICENESS = 10
    gated = hashers.GuessGatedHasher
    for event in (gated.gate, gated.started, gated.ended):
        event.clear()
    flood: dict[str, Any] = {}

    def floods_log_in() -> None:
        try:
            flood["answer"] = log_in("nobody", gated.GATED, address="198.18.0.1")
        finally:
            connections.close_all()  # this thread's own connection

    flooding = threading.Thread(target=floods_log_in)
    flooding.start()
    try:
        assert gated.started.wait(timeout=10), "the flood's log-in never hashed"

        known = log_in("ada", credential=adas)
        flooding.join(timeout=10)
        released_before_its_hash_ended = not flooding.is_alive() and not gated.ended.is_set()
        while_it_runs = log_in("grace")
    finally:
        gated.gate.set()
        flooding.join(timeout=30)

    assert known.status_code == HTTPStatus.OK, known.content
    assert released_before_its_hash_ended
    assert_busy(flood["answer"])
    assert_busy(while_it_runs)
    assert gated.ended.wait(timeout=10)
    for _ in range(100):  # the slot is given back as the hashing thread ends
        if hashing._running.count == 0:
            break
        threading.Event().wait(0.05)
    assert log_in("grace").status_code == HTTPStatus.OK
    assert not AccessAttempt.objects.filter(username="nobody").exists()  # no failure counted


def test_while_a_known_devices_hash_runs_no_unknown_clients_hash_starts(
    bounds: Callable[..., None], players: list[Player]
) -> None:
    """A known device's log-in holds one thread of the process: no other request's hash takes
    a second, but another known device's may (from the unknown share's slot)."""
    graces = credential_of("grace")
    bounds(at_once=3, known_at_once=1)

    with slots_held(1, known_device=True):
        refused = [log_in("ada"), register("newcomer"), log_in("nobody", "guess")]
        other_known = log_in("grace", credential=graces)

    for response in refused:
        assert_busy(response)
    assert other_known.status_code == HTTPStatus.OK, other_known.content
    assert log_in("ada").status_code == HTTPStatus.OK


@pytest.fixture
def unreachable_cache(settings: Any) -> Iterator[None]:
    """The cache on a loopback port that refuses connections (bound by this test, not
    listening): every cache call fails, as with Redis down."""
    with refusing_port() as port:
        settings.CACHES = redis_cache(f"redis://127.0.0.1:{port}/0")
        yield


def test_with_the_cache_down_the_count_fails_open_and_logs(
    unreachable_cache: None,
    players: list[Player],
    settings: Any,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.PASSWORD_HASHES_PER_SECOND = 1
    settings.PASSWORD_HASHES_AT_ONCE = 1
    monkeypatch.setattr(hashing, "_last_warning", [0.0])
    caplog.set_level(logging.WARNING, logger="chickenfoot.hashing")

    answers = [log_in().status_code, log_in("grace").status_code, register("newcomer").status_code]

    assert answers == [HTTPStatus.OK, HTTPStatus.OK, HTTPStatus.CREATED]
    warnings = [r for r in caplog.records if r.name == "chickenfoot.hashing"]
    assert len(warnings) == 1  # once, not once a request
    assert "not counted across processes" in warnings[0].getMessage()
    with slots_held(1):  # the per-process bound still holds
        assert_busy(log_in())


def test_busy_is_in_the_schema_of_both_operations() -> None:
    schema = openapi()
    for path in ("/api/players", "/api/auth/token"):
        refused = schema["paths"][path]["post"]["responses"]["429"]
        media = refused["content"]["application/problem+json"]
        codes = {example["value"]["code"] for example in media["examples"].values()}
        assert {"throttled", "busy"} <= codes, path
        assert "Retry-After" in refused["headers"]
    assert "busy" in schema["components"]["schemas"]["ProblemCodeEnum"]["enum"]


def test_the_hasher_is_djangos_pbkdf2_computed_at_a_lower_priority(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same hashes as Django's PBKDF2-SHA256 (old and new verify alike), each computed in
    a thread of niceness ``PASSWORD_HASH_NICENESS``, or in the caller's with 0."""
    settings.PASSWORD_HASH_NICENESS = 10
    ran_in: list[tuple[int, int]] = []
    encode = PBKDF2PasswordHasher.encode

    def recording(self: Any, *args: Any) -> str:
        thread = threading.get_native_id()
        ran_in.append((thread, os.getpriority(os.PRIO_PROCESS, thread)))
        return encode(self, *args)

    monkeypatch.setattr(PBKDF2PasswordHasher, "encode", recording)
    ours, django = hashing.NicePBKDF2PasswordHasher(), PBKDF2PasswordHasher()

    hashed = ours.encode("correct horse battery", "somesaltsomesalt", 1000)
    with hashing.password_hashing(known_device=True):  # a person waiting: at their priority
        known = ours.encode("correct horse battery", "somesaltsomesalt", 1000)
    settings.PASSWORD_HASH_NICENESS = 0
    in_place = ours.encode("correct horse battery", "somesaltsomesalt", 1000)

    assert hashed == known == in_place
    assert in_place == encode(django, "correct horse battery", "somesaltsomesalt", 1000)
    assert ours.algorithm == django.algorithm == "pbkdf2_sha256"
    mine = threading.get_native_id()
    assert ran_in[0][0] != mine
    assert ran_in[0][1] == 10
    assert ran_in[1] == ran_in[2] == (mine, os.getpriority(os.PRIO_PROCESS, mine))


PROBE = (
    "import json; from django.conf import settings; print(json.dumps([settings."
    "PASSWORD_HASHES_PER_SECOND, settings.PASSWORD_HASHES_AT_ONCE, settings.PASSWORD_HASH_NICENESS,"
    " settings.PASSWORD_HASHERS[0], settings.AUTHENTICATION_BACKENDS, settings."
    "PASSWORD_HASHES_KNOWN_DEVICES_PER_SECOND, settings.PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE, "
    "settings.LOGIN_KNOWN_DEVICE_DAYS]))"
)


def settings_probe(**environ: str) -> subprocess.CompletedProcess[str]:
    """The settings' defaults as a fresh process reads them (``environ`` set, no other of the
    hashing bounds' variables)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PASSWORD_HASH", "RATE_LIMITS", "LOGIN_KNOWN_DEVICE"))
    }
    env |= {"DJANGO_SETTINGS_MODULE": "chickenfoot.settings", **environ}
    return subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", f"import django; django.setup(); {PROBE}"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip


def test_the_documented_defaults_are_the_settings_defaults() -> None:
    probe = settings_probe()
    assert probe.returncode == 0, probe.stderr
    per_second, at_once, niceness, hasher, backends, known_per_second, known_at_once, days = (
        json.loads(probe.stdout.strip().splitlines()[-1])
    )
    doc = (ROOT / "docs" / "reliability.md").read_text()

    assert f"(counted in the cache: Redis in production) | {per_second} |" in doc
    assert f"| password hashes running at once in one process | {at_once} |" in doc
    assert f"| of those each second, reserved for known devices | {known_per_second} |" in doc
    assert f"| of those at once in one process, reserved for known devices | {known_at_once} |" in (
        doc
    )
    assert f"| the hashing thread's niceness (Linux) | {niceness} |" in doc
    assert f"| a device credential lasts, and a device unused is kept | {days} days |" in doc
    assert hasher == "chickenfoot.hashing.NicePBKDF2PasswordHasher"
    assert backends == [
        "axes.backends.AxesStandaloneBackend",
        "chickenfoot.hashing.BoundedModelBackend",
    ]


@pytest.mark.parametrize(
    "environ",
    [
        {"PASSWORD_HASHES_PER_SECOND": "2", "PASSWORD_HASHES_KNOWN_DEVICES_PER_SECOND": "2"},
        {"PASSWORD_HASHES_AT_ONCE": "2", "PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE": "3"},
        {"PASSWORD_HASHES_AT_ONCE": "2", "PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE": "-1"},
    ],
)
def test_a_reserve_that_leaves_nobody_else_a_share_stops_the_server(
    environ: dict[str, str],
) -> None:
    probe = settings_probe(**environ)

    assert probe.returncode != 0
    assert "ImproperlyConfigured" in probe.stderr
    assert "the rest is everyone else's share" in probe.stderr
