"""Usernames unique without regard to case or Unicode form; names that cannot pass for a bot."""

from __future__ import annotations

import importlib
from http import HTTPStatus
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection
from rest_framework.test import APIClient

from games.accounts.names import BOT_NAMES, looks_like_a_bot, username_key
from games.accounts.username_models import UsernameKey
from games.models import Player

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code, body
    return body


def register(username: str, **extra: Any) -> Any:
    return APIClient().post(
        "/api/players", {"username": username, "password": PASSWORD, **extra}, format="json"
    )


def login(username: str, password: str = PASSWORD) -> Any:
    return APIClient().post(
        "/api/auth/token", {"username": username, "password": password}, format="json"
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ada", "Ada"),
        ("ada", "ADA"),
        ("Ada", "\uff41\uff44\uff41"),  # full-width letters: NFKC makes them "ada"
        ("straße", "STRASSE"),  # case folding: ß is ss
        ("émile", "ÉMILE"),
        ("e\u0301mile", "émile"),  # a combining accent and the composed letter
    ],
)
def test_a_username_is_taken_in_any_case_or_unicode_form(first: str, second: str) -> None:
    assert register(first).status_code == HTTPStatus.CREATED

    body = problem(register(second), HTTPStatus.CONFLICT, "username_taken")

    assert "taken" in body["detail"]
    assert get_user_model().objects.count() == 1
    assert Player.objects.count() == 1


@pytest.mark.parametrize("typed", ["ada", "ADA", "Ada", "\uff41\uff44\uff41"])
def test_logging_in_works_in_any_case(typed: str) -> None:
    registered = register("Ada").json()

    response = login(typed)

    assert response.status_code == HTTPStatus.OK, response.content
    assert response.json()["player"] == registered["player"]


def test_a_username_is_stored_nfkc_normalised_and_its_case_kept() -> None:
    register("\uff21da")  # a full-width A

    user = get_user_model().objects.get()
    assert user.username == "Ada"
    assert UsernameKey.objects.get(user=user).key == "ada"
    assert user.player.display_name == "Ada"


def test_the_wrong_password_in_another_case_is_still_refused() -> None:
    register("Ada")

    problem(login("ADA", "wrong password"), HTTPStatus.UNAUTHORIZED, "invalid_credentials")
    problem(login("nobody"), HTTPStatus.UNAUTHORIZED, "invalid_credentials")


@pytest.mark.parametrize("length", [65, 100, 150, 151, 300])
def test_a_username_over_64_characters_is_a_400_naming_it(length: int) -> None:
    body = problem(register("a" * length), HTTPStatus.BAD_REQUEST, "invalid")

    assert list(body["errors"]) == ["username"]
    assert get_user_model().objects.count() == 0


def test_a_username_that_grows_past_64_when_normalised_is_a_400_naming_it() -> None:
    # "\u337f" (one character) is "\u682a\u5f0f\u4f1a\u793e" (four) in NFKC
    body = problem(register("\u337f" * 20), HTTPStatus.BAD_REQUEST, "invalid")

    assert list(body["errors"]) == ["username"]


def test_a_64_character_username_is_fine_and_is_its_display_name() -> None:
    response = register("a" * 64)

    assert response.status_code == HTTPStatus.CREATED
    assert response.json()["player"]["name"] == "a" * 64


def test_a_display_name_over_64_characters_is_a_400_naming_it() -> None:
    body = problem(register("ada", display_name="x" * 65), HTTPStatus.BAD_REQUEST, "invalid")

    assert list(body["errors"]) == ["display_name"]
    assert get_user_model().objects.count() == 0


@pytest.mark.parametrize(
    "name",
    [
        "Shark bot (level 3)",
        "shark bot",
        "SHARK BOT",
        "Shark-Bot",
        "Sharkbot",
        "\uff33\uff48\uff41\uff52\uff4b \uff42\uff4f\uff54",  # full width
        "Sh\u0430rk b\u043et",  # a Cyrillic a and o
        "R00kie b0t (level 1)",
        "the Greedy Bot",
        "Strong bot fan",
        "Any bot (level 9)",
        "Robot (Level 2)",
    ],
)
def test_a_display_name_that_looks_like_a_bot_is_refused(name: str) -> None:
    body = problem(register("ada", display_name=name), HTTPStatus.BAD_REQUEST, "invalid")

    assert list(body["errors"]) == ["display_name"]
    assert "bot" in body["errors"]["display_name"][0]
    assert get_user_model().objects.count() == 0


@pytest.mark.parametrize("username", ["SharkBot", "rookie_bot", "greedy.bot"])
def test_a_username_that_would_show_as_a_bot_needs_another_display_name(username: str) -> None:
    body = problem(register(username), HTTPStatus.BAD_REQUEST, "invalid")

    assert list(body["errors"]) == ["display_name"]
    assert register(username, display_name="Ada").status_code == HTTPStatus.CREATED


@pytest.mark.parametrize(
    "name", ["Ada", "Abbot", "Armstrong Bottle", "Robotics fan", "Bottom Shark", "Sharky"]
)
def test_ordinary_names_are_fine(name: str) -> None:
    assert not looks_like_a_bot(name)
    assert register("ada", display_name=name).status_code == HTTPStatus.CREATED


def test_every_bot_name_looks_like_a_bot() -> None:
    for level, name in BOT_NAMES.items():
        assert looks_like_a_bot(f"{name} (level {level})")
        assert looks_like_a_bot(name)


def test_accounts_made_outside_the_api_are_keyed_too() -> None:
    get_user_model().objects.create_user(username="Admin", password=PASSWORD)

    problem(register("admin"), HTTPStatus.CONFLICT, "username_taken")
    assert login("ADMIN").status_code == HTTPStatus.OK


def test_renaming_an_account_moves_its_key() -> None:
    user = get_user_model().objects.create_user(username="Ada", password=PASSWORD)
    user.username = "Grace"
    user.save()

    assert UsernameKey.objects.get(user=user).key == "grace"
    assert register("ada").status_code == HTTPStatus.CREATED


@pytest.mark.django_db(transaction=True)
def test_existing_accounts_get_keys_and_the_older_keeps_a_shared_one() -> None:
    # given: accounts from before keys, two of them differing only in case
    migration = importlib.import_module("games.migrations.0007_username_keys")
    user_model = get_user_model()
    older, newer, other = (
        user_model(username=name, password=make_password(password))
        for name, password in (
            ("Ada", PASSWORD),
            ("ada", "another passphrase"),
            ("Grace", PASSWORD),
        )
    )
    user_model.objects.bulk_create([older, newer, other])  # no keys: bulk_create sends no signals
    assert not UsernameKey.objects.exists()

    # when
    with connection.schema_editor() as editor:
        migration.key_existing_accounts(apps, editor)

    # then
    keys = dict(UsernameKey.objects.values_list("user_id", "key"))
    assert keys[older.pk] == "ada"
    assert keys[other.pk] == "grace"
    assert keys[newer.pk] != "ada"  # kept apart; its owner logs in by the exact name
    assert login("ADA").status_code == HTTPStatus.OK
    assert login("ada", "another passphrase").status_code == HTTPStatus.OK
    assert username_key("GRACE") == "grace"
