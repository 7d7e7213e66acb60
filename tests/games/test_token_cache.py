"""Token lookups kept in the process (games/accounts/token_cache.py): every revocation stops a
kept token at once in this process, an expired one stops at its expiry, and no two requests
share an instance."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from knox.crypto import hash_token
from rest_framework.test import APIClient, APIRequestFactory

from games.accounts import token_cache
from games.accounts.authentication import PlayerTokenAuthentication
from games.accounts.passwords import password_reset_confirm
from games.models import DeviceToken, Player
from tests.games.test_tokens import PASSWORD, as_token, login, register

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another battery staple 7"


def kept(key: str) -> bool:
    return token_cache.kept(hash_token(key), 5) is not None


def logout(phone: str, laptop: str) -> None:
    assert as_token(phone).post("/api/auth/logout").status_code == HTTPStatus.NO_CONTENT


def logout_everywhere(phone: str, laptop: str) -> None:
    assert as_token(laptop).post("/api/auth/logout-all").status_code == HTTPStatus.OK


def revoke_by_id(phone: str, laptop: str) -> None:
    token_id = DeviceToken.objects.get(digest=hash_token(phone)).pk
    response = as_token(laptop).delete(f"/api/auth/tokens/{token_id}")
    assert response.status_code == HTTPStatus.NO_CONTENT


def change_password(phone: str, laptop: str) -> None:
    body = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    response = as_token(laptop).post("/api/players/me/password", body, format="json")
    assert response.status_code == HTTPStatus.OK, response.content


def reset_password(phone: str, laptop: str) -> None:
    user = get_user_model().objects.get(username="ada")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    assert password_reset_confirm(uid=uid, token=token, new_password=NEW_PASSWORD) == 3


def delete_account(phone: str, laptop: str) -> None:
    response = as_token(laptop).post(
        "/api/players/me/delete", {"password": PASSWORD}, format="json"
    )
    assert response.status_code in (HTTPStatus.OK, HTTPStatus.NO_CONTENT), response.content


def make_inactive(phone: str, laptop: str) -> None:
    user = get_user_model().objects.get(username="ada")
    user.is_active = False
    user.save()


@pytest.mark.parametrize(
    "revoke",
    [
        logout,
        logout_everywhere,
        revoke_by_id,
        change_password,
        reset_password,
        delete_account,
        make_inactive,
    ],
)
def test_a_revoked_token_kept_in_the_process_stops_at_once(
    revoke: Callable[[str, str], None],
) -> None:
    # given: ada on two devices, the phone's token used (so kept in this process)
    register()
    phone, laptop = login(device="phone")["token"], login(device="laptop")["token"]
    assert as_token(phone).get("/api/players/me").status_code == HTTPStatus.OK
    assert kept(phone)

    # when: it is revoked
    revoke(phone, laptop)

    # then: the next request with it is refused, with no wait
    response = as_token(phone).get("/api/players/me")
    assert response.status_code == HTTPStatus.UNAUTHORIZED, response.content
    assert response.json()["code"] == "authentication_failed"


def test_a_kept_token_stops_at_its_expiry_and_is_removed() -> None:
    register()
    body = login(device="phone")
    expiry = dt.datetime.fromisoformat(body["expiry"])
    client = as_token(body["token"])
    assert client.get("/api/players/me").status_code == HTTPStatus.OK

    with time_machine.travel(expiry - dt.timedelta(milliseconds=50), tick=False):
        assert kept(body["token"])
        assert client.get("/api/players/me").status_code == HTTPStatus.OK
    with time_machine.travel(expiry, tick=False):
        assert kept(body["token"])
        refused = client.get("/api/players/me")

    assert refused.status_code == HTTPStatus.UNAUTHORIZED
    assert "expired" in refused.json()["detail"]
    assert not DeviceToken.objects.filter(pk=body["token_id"]).exists()
    assert not kept(body["token"])


def test_a_player_made_organiser_is_seen_at_once() -> None:
    key = register()["token"]
    assert as_token(key).get("/api/players/me").json()["is_organiser"] is False

    player = Player.objects.get(user__username="ada")
    player.is_organiser = True
    player.save()  # as the admin does

    assert as_token(key).get("/api/players/me").json()["is_organiser"] is True


def test_each_request_gets_instances_of_its_own() -> None:
    key = register()["token"]
    factory, auth = APIRequestFactory(), PlayerTokenAuthentication()

    def authenticated() -> tuple[Any, DeviceToken]:
        found = auth.authenticate(factory.get("/", HTTP_AUTHORIZATION=f"Bearer {key}"))
        assert found is not None
        return found

    first_user, first_token = authenticated()
    second_user, second_token = authenticated()

    assert kept(key)
    assert first_user is not second_user
    assert first_token is not second_token
    assert first_user.player is not second_user.player
    assert first_token.pk == second_token.pk
    assert first_user.pk == second_user.pk


def test_a_lookup_that_began_before_a_revocation_is_not_kept() -> None:
    since = token_cache.generation()
    read_at = token_cache.now()
    token_cache.evict_token("another digest")  # a revocation while the lookup was under way

    token_cache.keep("digest", ("row",), 1, read_at=read_at, since=since)

    assert token_cache.kept("digest", 5) is None


def test_no_keeping_with_token_cache_seconds_0(settings: Any) -> None:
    settings.TOKEN_CACHE_SECONDS = 0
    key = register()["token"]

    assert as_token(key).get("/api/players/me").status_code == HTTPStatus.OK

    assert not kept(key)


def test_an_unknown_token_is_never_kept() -> None:
    response = APIClient(HTTP_AUTHORIZATION="Bearer nosuchtoken").get("/api/players/me")

    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert not kept("nosuchtoken")
