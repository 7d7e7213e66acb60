"""Moving from DRF's authtoken: every old key keeps working, and no key stays in clear."""

from __future__ import annotations

import importlib
from http import HTTPStatus

import pytest
from django.apps import apps
from django.db import connection
from rest_framework.test import APIClient

from games.models import DeviceToken
from tests.games.factories import PlayerFactory

migration = importlib.import_module("games.migrations.0006_device_tokens")

OLD_KEY = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"


@pytest.mark.django_db(transaction=True)
def test_old_authtoken_keys_become_hashed_tokens_and_their_table_goes() -> None:
    # given: DRF authtoken's table with a key, as a database before this migration has it
    player = PlayerFactory(user__username="ada")
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id integer NOT NULL)"
            if connection.vendor == "postgresql"
            else "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created datetime NOT NULL, user_id integer NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
            [OLD_KEY, "2026-01-02 03:04:05+00:00", player.user_id],
        )
        cursor.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('authtoken', '0004_alter_tokenproxy_options', CURRENT_TIMESTAMP)"
        )

    # when
    with connection.schema_editor() as editor:
        migration.carry_over_authtokens(apps, editor)

    # then: the old key authenticates, as a token listed with its device and first date
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {OLD_KEY}")
    assert client.get("/api/players/me").status_code == HTTPStatus.OK
    token = DeviceToken.objects.get(user=player.user)
    assert token.device == "before device tokens"
    assert (token.created.year, token.created.month) == (2026, 1)
    assert token.expiry is not None
    # and: no key in clear anywhere
    assert "authtoken_token" not in connection.introspection.table_names()
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM django_migrations WHERE app = 'authtoken'")
        assert cursor.fetchone()[0] == 0


@pytest.mark.django_db(transaction=True)
def test_a_database_without_authtoken_is_left_as_it_is() -> None:
    with connection.schema_editor() as editor:
        migration.carry_over_authtokens(apps, editor)

    assert DeviceToken.objects.count() == 0
