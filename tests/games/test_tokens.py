"""Tokens: one per login, stored hashed, expiring, listed for their owner, revocable."""

from __future__ import annotations

import datetime as dt
from http import HTTPStatus
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from knox.crypto import hash_token
from rest_framework.test import APIClient

from games.accounts import token_cache
from games.accounts.authentication import LAST_USED_EVERY
from games.models import DeviceToken

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code, body
    return body


def register(username: str = "ada", **extra: Any) -> dict[str, Any]:
    response = APIClient().post(
        "/api/players", {"username": username, "password": PASSWORD, **extra}, format="json"
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def login(username: str = "ada", **extra: Any) -> dict[str, Any]:
    response = APIClient().post(
        "/api/auth/token", {"username": username, "password": PASSWORD, **extra}, format="json"
    )
    assert response.status_code == HTTPStatus.OK, response.content
    return response.json()


def as_token(key: str, scheme: str = "Bearer") -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
    return client


def test_each_login_gets_a_token_of_its_own_and_both_work() -> None:
    registered = register()

    phone = login(device="Ada's phone")
    laptop = login(device="Ada's laptop")

    assert len({registered["token"], phone["token"], laptop["token"]}) == 3
    assert phone["player"] == registered["player"]
    for body in (registered, phone, laptop):
        assert as_token(body["token"]).get("/api/players/me").status_code == HTTPStatus.OK
    assert DeviceToken.objects.filter(user__username="ada").count() == 3


def test_keys_are_stored_only_as_digests() -> None:
    body = login_after_register()

    token = DeviceToken.objects.get(pk=body["token_id"])
    assert token.digest == hash_token(body["token"])
    stored = [str(value) for value in DeviceToken.objects.values_list().get(pk=token.pk)]
    assert body["token"] not in stored


def login_after_register() -> dict[str, Any]:
    register()
    return login(device="phone")


def test_a_login_says_when_its_token_expires(settings: Any) -> None:
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": dt.timedelta(hours=5)}
    before = timezone.now()

    body = login_after_register()

    expiry = dt.datetime.fromisoformat(body["expiry"])
    assert before + dt.timedelta(hours=5) <= expiry <= timezone.now() + dt.timedelta(hours=5)


def test_tokens_may_never_expire(settings: Any) -> None:
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": None}

    body = login_after_register()

    assert body["expiry"] is None
    assert as_token(body["token"]).get("/api/players/me").status_code == HTTPStatus.OK


def test_an_expired_token_is_refused_and_removed() -> None:
    body = login_after_register()
    DeviceToken.objects.filter(pk=body["token_id"]).update(
        expiry=timezone.now() - dt.timedelta(seconds=1)
    )

    refused = problem(
        as_token(body["token"]).get("/api/players/me"),
        HTTPStatus.UNAUTHORIZED,
        "authentication_failed",
    )

    assert "expired" in refused["detail"]
    assert not DeviceToken.objects.filter(pk=body["token_id"]).exists()


def test_the_owner_lists_their_tokens_without_the_keys() -> None:
    register()
    phone = login(device="Ada's phone")
    laptop = login(device="Ada's laptop")
    register("bob")

    response = as_token(phone["token"]).get("/api/auth/tokens")

    assert response.status_code == HTTPStatus.OK
    page = response.json()
    assert page["count"] == 3
    rows = page["results"]
    assert [row["id"] for row in rows[:2]] == [laptop["token_id"], phone["token_id"]]
    assert [row["device"] for row in rows] == ["Ada's laptop", "Ada's phone", ""]
    assert [row["current"] for row in rows] == [False, True, False]
    assert set(rows[0]) == {"id", "device", "created", "expiry", "last_used", "current"}
    assert rows[0]["expiry"] == laptop["expiry"]
    for row in rows:
        assert row["last_used"] is not None
    text = response.content.decode()
    for key in (phone["token"], laptop["token"]):
        assert key not in text
        assert key[:15] not in text


def test_an_expired_token_is_not_listed() -> None:
    register()
    phone = login(device="phone")
    old = login(device="old")
    DeviceToken.objects.filter(pk=old["token_id"]).update(expiry=timezone.now())

    rows = as_token(phone["token"]).get("/api/auth/tokens").json()["results"]

    assert old["token_id"] not in [row["id"] for row in rows]


def test_last_used_is_written_at_most_once_a_minute(
    django_assert_num_queries: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = login_after_register()
    client = as_token(body["token"])
    used = DeviceToken.objects.get(pk=body["token_id"]).last_used

    # within the minute: one query (the token, its user and player), no write; then the row
    # kept in this process answers the next requests, with no query at all
    with django_assert_num_queries(1):
        client.get("/api/players/me")
    with django_assert_num_queries(0):
        client.get("/api/players/me")
    assert DeviceToken.objects.get(pk=body["token_id"]).last_used == used

    # a minute on (the kept row is older than TOKEN_CACHE_SECONDS): the lookup again, and one
    # more statement records the use
    earlier = used - LAST_USED_EVERY
    DeviceToken.objects.filter(pk=body["token_id"]).update(last_used=earlier)
    later = token_cache.now() + settings.TOKEN_CACHE_SECONDS
    monkeypatch.setattr(token_cache, "now", lambda: later)
    with django_assert_num_queries(2):
        client.get("/api/players/me")
    written = DeviceToken.objects.get(pk=body["token_id"]).last_used
    assert written > used
    # and the row kept knows of that write: the next request neither reads nor writes
    with django_assert_num_queries(0):
        assert client.get("/api/players/me").status_code == HTTPStatus.OK
    assert DeviceToken.objects.get(pk=body["token_id"]).last_used == written


@pytest.mark.parametrize("scheme", ["Token", "Bearer"])
def test_logout_revokes_only_the_token_it_was_sent_with(scheme: str) -> None:
    register()
    phone = login(device="phone")
    laptop = login(device="laptop")

    response = as_token(phone["token"], scheme).post("/api/auth/logout")

    assert response.status_code == HTTPStatus.NO_CONTENT
    problem(
        as_token(phone["token"], scheme).get("/api/players/me"),
        HTTPStatus.UNAUTHORIZED,
        "authentication_failed",
    )
    assert as_token(laptop["token"], scheme).get("/api/players/me").status_code == HTTPStatus.OK
    # and: logging out again with the revoked token is refused
    problem(
        as_token(phone["token"], scheme).post("/api/auth/logout"),
        HTTPStatus.UNAUTHORIZED,
        "authentication_failed",
    )


def test_logout_everywhere_revokes_every_token_of_the_caller_only() -> None:
    register()
    phone = login(device="phone")
    laptop = login(device="laptop")
    bob = register("bob")

    response = as_token(phone["token"]).post("/api/auth/logout-all")

    assert response.status_code == HTTPStatus.OK
    assert response.json() == {"revoked": 3}
    for body in (phone, laptop):
        problem(
            as_token(body["token"]).get("/api/players/me"),
            HTTPStatus.UNAUTHORIZED,
            "authentication_failed",
        )
    assert as_token(bob["token"]).get("/api/players/me").status_code == HTTPStatus.OK


def test_revoking_one_token_by_id_logs_that_device_out() -> None:
    register()
    phone = login(device="phone")
    lost = login(device="lost tablet")

    response = as_token(phone["token"]).delete(f"/api/auth/tokens/{lost['token_id']}")

    assert response.status_code == HTTPStatus.NO_CONTENT
    problem(
        as_token(lost["token"]).get("/api/players/me"),
        HTTPStatus.UNAUTHORIZED,
        "authentication_failed",
    )
    assert as_token(phone["token"]).get("/api/players/me").status_code == HTTPStatus.OK


def test_nobody_revokes_a_token_that_is_not_theirs() -> None:
    register()
    ada = login(device="phone")
    bob = register("bob")

    body = problem(
        as_token(ada["token"]).delete(f"/api/auth/tokens/{bob['token_id']}"),
        HTTPStatus.NOT_FOUND,
        "token_not_found",
    )

    assert body["title"] == "No such token"
    assert as_token(bob["token"]).get("/api/players/me").status_code == HTTPStatus.OK
    problem(
        as_token(ada["token"]).delete("/api/auth/tokens/999999"),
        HTTPStatus.NOT_FOUND,
        "token_not_found",
    )


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/api/auth/logout"),
        ("post", "/api/auth/logout-all"),
        ("get", "/api/auth/tokens"),
        ("delete", "/api/auth/tokens/1"),
    ],
)
def test_token_endpoints_need_a_token(method: str, path: str) -> None:
    problem(getattr(APIClient(), method)(path), HTTPStatus.UNAUTHORIZED, "not_authenticated")


def test_a_device_name_over_64_characters_is_refused() -> None:
    register()

    response = APIClient().post(
        "/api/auth/token",
        {"username": "ada", "password": PASSWORD, "device": "x" * 65},
        format="json",
    )

    body = problem(response, HTTPStatus.BAD_REQUEST, "invalid")
    assert list(body["errors"]) == ["device"]
    assert DeviceToken.objects.count() == 1  # registration's only


def test_a_wrong_password_issues_no_token() -> None:
    register()

    problem(
        APIClient().post("/api/auth/token", {"username": "ada", "password": "wrong"}),
        HTTPStatus.UNAUTHORIZED,
        "invalid_credentials",
    )

    assert DeviceToken.objects.count() == 1


def test_the_token_list_refuses_an_unknown_query_parameter() -> None:
    body = login_after_register()

    refused = problem(
        as_token(body["token"]).get("/api/auth/tokens?device=phone"),
        HTTPStatus.BAD_REQUEST,
        "invalid",
    )

    assert list(refused["errors"]) == ["device"]
    paged = as_token(body["token"]).get("/api/auth/tokens?page=1&page_size=1")
    assert paged.status_code == HTTPStatus.OK
    assert len(paged.json()["results"]) == 1
