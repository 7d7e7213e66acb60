"""Request limits (chickenfoot/throttles.py): registration, log-in, match creation and move
submission refuse the request past the limit with 429 ``throttled`` and ``Retry-After``, per
player and per address; everyone else is unaffected.

The suite runs without limits (tests/conftest.py); ``limits`` turns them on here, on a cache of
the test's own: a fresh local-memory cache, and, when ``REDIS_URL`` is set (CI), Redis as in
production, under a key prefix of the test's own.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from chickenfoot import throttles
from chickenfoot.env import env_rate
from games.models import Match, Player
from tests.caches import CACHE_KINDS, cache_of_own
from tests.games.conftest import client_for
from tests.games.helpers import play_turn, submit
from tests.games.schema_check import openapi
from tests.processes import redis_cache, refusing_port

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
RELIABILITY_MD = ROOT / "docs" / "reliability.md"
#: Every scope the settings limit.
SCOPES = ("register", "login", "match_create", "match_create_address", "move", "move_address")
#: A moment 45 s into a minute (and into no particular hour): the clock the throttles read.
NOW = 1_000_000 * 3600 + 20 * 60 + 45.0
ADDRESS, OTHER_ADDRESS = "192.0.2.10", "192.0.2.20"  # documentation addresses (RFC 5737)


@pytest.fixture(params=CACHE_KINDS)
def limits(
    request: pytest.FixtureRequest, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., None]]:
    """``limits(move="3/min", …)``: those rates (the rest off), counted in a cache of this test's
    own, at the clock ``NOW`` (``throttles.ScopedThrottle.timer``)."""
    prefix = f"test-limits-{uuid.uuid4().hex}"
    settings.CACHES = cache_of_own(request.param, prefix)
    clock = {"now": NOW}
    monkeypatch.setattr(throttles.ScopedThrottle, "timer", staticmethod(lambda: clock["now"]))

    def set_limits(**rates: str) -> None:
        settings.THROTTLE_RATES = {scope: env_rate("UNUSED", rate) for scope, rate in rates.items()}

    set_limits.clock = clock  # type: ignore[attr-defined]
    yield set_limits
    if request.param == "redis":  # the test's own keys (they would expire within the hour)
        server = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=2)
        for key in server.scan_iter(f"{prefix}:*"):
            server.delete(key)


def anonymous(address: str = ADDRESS, **extra: str) -> APIClient:
    return APIClient(REMOTE_ADDR=address, **extra)


def as_player(player: Player, address: str = ADDRESS) -> APIClient:
    client = client_for(player)
    client.defaults["REMOTE_ADDR"] = address
    return client


def register(client: APIClient, name: str) -> Any:
    return client.post(
        "/api/players", {"username": name, "password": "correct horse battery"}, format="json"
    )


PASSWORD = "a-long-enough-passphrase"


def log_in(client: APIClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/auth/token", {"username": name, "password": password}, format="json")


NEW_MATCH = {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]}


def create(client: APIClient) -> Any:
    return client.post("/api/matches", NEW_MATCH, format="json")


def assert_throttled(response: Any, retry_after: int) -> None:
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response["Retry-After"] == str(retry_after)
    body = response.json()
    assert (body["code"], body["title"], body["status"]) == ("throttled", "Too many requests", 429)
    assert re.search(rf"\b{retry_after} seconds?\.", body["detail"]), body["detail"]


def test_the_registration_past_the_limit_is_refused_and_creates_nobody(
    limits: Callable[..., None],
) -> None:
    limits(register="3/hour")
    client = anonymous()

    answers = [register(client, f"new{i}").status_code for i in range(3)]
    refused = register(client, "new3")

    assert answers == [HTTPStatus.CREATED] * 3
    assert_throttled(refused, retry_after=3600 - (20 * 60 + 45))
    assert not Player.objects.filter(user__username="new3").exists()
    assert register(anonymous(OTHER_ADDRESS), "new3").status_code == HTTPStatus.CREATED


def test_the_log_in_past_the_limit_is_refused_even_with_the_right_password(
    players: list[Player], limits: Callable[..., None]
) -> None:
    limits(login="3/min")
    client = anonymous()

    answers = [log_in(client, "ada", password).status_code for password in ("wrong", "bad", "x")]
    refused = log_in(client, "ada")

    assert answers == [HTTPStatus.UNAUTHORIZED] * 3
    assert_throttled(refused, retry_after=15)
    assert log_in(anonymous(OTHER_ADDRESS), "ada").status_code == HTTPStatus.OK


def test_the_window_ends_when_retry_after_says(
    players: list[Player], limits: Callable[..., None]
) -> None:
    limits(login="2/min")
    client = anonymous()
    log_in(client, "ada")
    log_in(client, "ada")
    assert_throttled(log_in(client, "ada"), retry_after=15)

    limits.clock["now"] = NOW + 14  # type: ignore[attr-defined]
    assert_throttled(log_in(client, "ada"), retry_after=1)
    limits.clock["now"] = NOW + 15  # type: ignore[attr-defined]
    assert log_in(client, "ada").status_code == HTTPStatus.OK


def test_match_creation_is_limited_per_player(
    players: list[Player], limits: Callable[..., None]
) -> None:
    limits(match_create="2/hour", match_create_address="100/hour")
    ada, grace = as_player(players[0]), as_player(players[1])

    answers = [create(ada).status_code for _ in range(2)]
    refused = create(ada)

    assert answers == [HTTPStatus.CREATED] * 2
    assert_throttled(refused, retry_after=3600 - (20 * 60 + 45))
    assert Match.objects.filter(created_by=players[0]).count() == 2
    assert create(grace).status_code == HTTPStatus.CREATED  # same address, another player


def test_match_creation_is_limited_per_address(
    players: list[Player], limits: Callable[..., None]
) -> None:
    limits(match_create="100/hour", match_create_address="3/hour")
    here = [as_player(p) for p in players[:3]]

    answers = [create(client).status_code for client in here]
    refused = create(as_player(players[3]))

    assert answers == [HTTPStatus.CREATED] * 3
    assert_throttled(refused, retry_after=3600 - (20 * 60 + 45))
    assert create(as_player(players[3], OTHER_ADDRESS)).status_code == HTTPStatus.CREATED


def test_moves_are_limited_per_player_and_the_refused_move_changes_nothing(
    players: list[Player], limits: Callable[..., None], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=2)
    turn = int(match.state["turn"])
    mover, waiter = as_player(players[turn]), as_player(players[1 - turn])
    legal = mover.get(f"/api/matches/{match.pk}/legal-moves").json()
    move = {**legal["moves"][0], "version": legal["version"]}
    limits(move="3/min", move_address="100/min")

    answers = [submit(waiter, match.pk, move).status_code for _ in range(3)]  # out of turn
    refused = submit(waiter, match.pk, move)
    played = submit(mover, match.pk, move)

    assert answers == [HTTPStatus.CONFLICT] * 3
    assert_throttled(refused, retry_after=15)
    assert played.status_code == HTTPStatus.CREATED, played.content


def test_moves_are_limited_per_address(
    players: list[Player], limits: Callable[..., None], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=3)
    limits(move="100/min", move_address="4/min")
    body = {"kind": "draw", "version": match.version}

    answers = [submit(as_player(players[i % 3]), match.pk, body).status_code for i in range(4)]
    refused = submit(as_player(players[3]), match.pk, body)
    elsewhere = submit(as_player(players[3], OTHER_ADDRESS), match.pk, body)

    assert HTTPStatus.TOO_MANY_REQUESTS not in answers
    assert_throttled(refused, retry_after=15)
    assert elsewhere.status_code == HTTPStatus.FORBIDDEN  # not throttled: no seat at the match


def test_reads_are_not_limited(
    players: list[Player], limits: Callable[..., None], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=2)
    limits(move="1/min", move_address="1/min", match_create="1/hour")
    client = as_player(players[0])

    answers = {client.get(f"/api/matches/{match.pk}").status_code for _ in range(10)}

    assert answers == {HTTPStatus.OK}


def test_a_forwarded_for_header_is_believed_only_behind_a_trusted_proxy(
    players: list[Player], limits: Callable[..., None], settings: Any
) -> None:
    limits(login="1/min")
    spoofing = [anonymous(HTTP_X_FORWARDED_FOR=f"198.51.100.{i}") for i in range(2)]

    assert log_in(spoofing[0], "ada").status_code == HTTPStatus.OK
    assert_throttled(log_in(spoofing[1], "ada"), retry_after=15)  # the same REMOTE_ADDR

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxied = [anonymous("10.0.0.1", HTTP_X_FORWARDED_FOR=f"198.51.100.7, 203.0.113.{i}")
               for i in range(2)]  # fmt: skip
    assert log_in(proxied[0], "ada").status_code == HTTPStatus.OK
    assert log_in(proxied[1], "ada").status_code == HTTPStatus.OK  # two clients behind nginx
    assert_throttled(log_in(proxied[0], "ada"), retry_after=15)


def test_a_scope_without_a_rate_is_not_limited(
    players: list[Player], limits: Callable[..., None]
) -> None:
    limits(register="1/hour")
    client = anonymous()

    assert {log_in(client, "ada").status_code for _ in range(5)} == {HTTPStatus.OK}


@pytest.mark.parametrize(
    ("raw", "rate"),
    [("120/min", "120/m"), ("20/hour", "20/h"), (" 5 / Second ", "5/s"), ("1/d", "1/d"),
     ("off", None), ("OFF", None), ("none", None)],
)  # fmt: skip
def test_rates_are_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, raw: str, rate: str | None
) -> None:
    monkeypatch.setenv("THROTTLE_X", raw)

    assert env_rate("THROTTLE_X", "9/min") == rate


@pytest.mark.parametrize("raw", ["120", "0/min", "12/fortnight", "many/min", "-1/min"])
def test_a_bad_rate_stops_the_settings(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("THROTTLE_X", raw)

    with pytest.raises(ImproperlyConfigured, match="THROTTLE_X"):
        env_rate("THROTTLE_X", "9/min")


LIMIT_ROW = re.compile(
    r"^\| [^|]+ \| `([a-z_]+)` \| [^|]+ \| (\d+/\d*[a-z]+) \| `(THROTTLE_[A-Z_]+)` \|$"
)
PROBE = "import json; from django.conf import settings; print(json.dumps(settings.THROTTLE_RATES))"


def documented_limits() -> list[tuple[str, str, str]]:
    lines = RELIABILITY_MD.read_text().splitlines()
    return [(m[1], m[2], m[3]) for m in map(LIMIT_ROW.match, lines) if m]


def test_the_documented_defaults_are_the_settings_defaults() -> None:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("THROTTLE_") and k != "RATE_LIMITS"}  # fmt: skip
    env["DJANGO_SETTINGS_MODULE"] = "chickenfoot.settings"
    probe = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", f"import django; django.setup(); {PROBE}"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    defaults = json.loads(probe.stdout.strip().splitlines()[-1])

    rows = documented_limits()

    assert {scope for scope, _, _ in rows} == set(defaults)
    for scope, rate, variable in rows:
        assert variable == f"THROTTLE_{scope.upper()}"
        assert env_rate("UNUSED", rate) == defaults[scope], scope


def test_every_limited_view_uses_its_scopes() -> None:
    from games.api.matches import MatchCreateApi
    from games.api.moves import MoveSubmitApi
    from games.api.players import PlayerRegisterApi, TokenObtainApi

    scopes = {
        view.__name__: {throttle.scope for throttle in view.throttle_classes}
        for view in (PlayerRegisterApi, TokenObtainApi, MatchCreateApi, MoveSubmitApi)
    }

    assert scopes == {
        "PlayerRegisterApi": {"register"},
        "TokenObtainApi": {"login"},
        "MatchCreateApi": {"match_create", "match_create_address"},
        "MoveSubmitApi": {"move", "move_address"},
    }


def test_the_suite_runs_without_limits(players: list[Player]) -> None:
    client = anonymous()

    assert {log_in(client, "ada").status_code for _ in range(30)} == {HTTPStatus.OK}


@pytest.mark.parametrize("operation", ["player_register", "token_obtain", "match_create",
                                       "move_submit", "chat_send"])  # fmt: skip
def test_the_schema_declares_the_429_and_its_retry_after(operation: str) -> None:
    found = [op for methods in openapi()["paths"].values() for op in methods.values()
             if isinstance(op, dict) and op.get("operationId") == operation]  # fmt: skip

    (declared,) = found
    answer = declared["responses"]["429"]
    assert answer["headers"]["Retry-After"]["schema"]["type"] == "integer"
    media = answer["content"]["application/problem+json"]
    assert media["schema"] == {"$ref": "#/components/schemas/Problem"}
    assert any(e["value"]["code"] == "throttled" for e in media["examples"].values())


def test_the_limits_fail_open_and_say_so_when_the_cache_cannot_be_reached(
    settings: Any, players: list[Player], caplog: pytest.LogCaptureFixture
) -> None:
    # given: every limit at one a period, counted in a Redis that refuses connections
    settings.THROTTLE_RATES = {scope: env_rate("UNUSED", "1/hour") for scope in SCOPES}
    with refusing_port() as port:
        settings.CACHES = redis_cache(f"redis://127.0.0.1:{port}/0")
        client, ada = anonymous(), as_player(players[0])

        # when: each limited operation is asked for twice
        answers = [
            *(register(client, name).status_code for name in ("new1", "new2")),
            *(log_in(client, "grace").status_code for _ in range(2)),
            *(create(ada).status_code for _ in range(2)),
        ]

    # then: every request goes through, and each throttle it passed says it was not applied
    assert answers == [HTTPStatus.CREATED] * 2 + [HTTPStatus.OK] * 2 + [HTTPStatus.CREATED] * 2
    failed = [r for r in caplog.records if r.name == "chickenfoot.throttles"]
    assert {r.levelname for r in failed} == {"WARNING"}
    said = [r.getMessage() for r in failed]
    for scope in ("register", "login", "match_create", "match_create_address"):
        assert len([m for m in said if m.startswith(f"Throttle {scope} not applied")]) == 2
    assert all("the cache is unavailable: ConnectionError" in m for m in said), said


def test_moves_go_through_when_the_cache_cannot_be_reached(
    settings: Any, players: list[Player], started_match: Callable[..., Match]
) -> None:
    settings.THROTTLE_RATES = {scope: env_rate("UNUSED", "1/hour") for scope in SCOPES}
    match = started_match(n=2)
    clients = [as_player(player) for player in players[:2]]
    with refusing_port() as port:
        settings.CACHES = redis_cache(f"redis://127.0.0.1:{port}/0")

        for _ in range(3):
            play_turn(clients, match.pk, random.Random(0))  # each answered 201

    match.refresh_from_db()
    assert match.moves_played == 3


def test_a_rate_may_count_in_several_periods() -> None:
    from django.core.exceptions import ImproperlyConfigured

    from chickenfoot.throttles import ChatThrottle

    assert env_rate("UNUSED", "5/10s") == "5/10s"
    assert env_rate("UNUSED", " 5 / 10 seconds ") == "5/10s"
    assert env_rate("UNUSED", "120/min") == "120/m"
    assert ChatThrottle().parse_rate("5/10s") == (5, 10)
    assert ChatThrottle().parse_rate("3/2h") == (3, 7200)
    assert ChatThrottle().parse_rate("120/m") == (120, 60)
    for bad in ("5/0s", "5/10", "5/10x"):
        with pytest.raises(ImproperlyConfigured):
            env_rate("UNUSED", bad)
