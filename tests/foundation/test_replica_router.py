"""The read replica: the lag-tolerant read views read ``"replica"``, everything else ``"default"``.

A second real PostgreSQL database, copied from the test database as its template, stands in
for the streaming replica; rows written to only one of the two show which one a view read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.db.utils import load_backend
from rest_framework.test import APIClient

from chickenfoot.db_router import REPLICA, replica_reads
from games.models import Player
from scoring.models import Rating
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

on_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the replica is a second PostgreSQL database (CREATE DATABASE ... TEMPLATE)",
)

ROOT = Path(__file__).resolve().parents[2]
ROUTER = "chickenfoot.db_router.ReplicaRouter"
ENGINE = "django.db.backends.postgresql"


def _admin() -> psycopg.Connection:
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("prepare_threshold", None)
    return psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True)


@pytest.fixture
def replica(settings: Any) -> Iterator[str]:
    """A second database, migrated and empty, as ``"replica"``, and the router."""
    source = connections["default"].settings_dict["NAME"]
    name = f"{source}_replica"
    with _admin() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    # migrated as a replica's primary would have been (a template copy of the test database
    # would need it free of other sessions, which the suite's workers never leave it)
    own = connections["default"].settings_dict
    url = f"postgres://{own['USER']}@{own['HOST'] or '127.0.0.1'}:{own['PORT'] or 5432}/{name}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        check=True,
    )
    # The connection is made here rather than declared in settings.DATABASES: pytest-django
    # would otherwise make a test database of its own for it, and refuse it in this test.
    replica = load_backend(ENGINE).DatabaseWrapper(
        {**connections["default"].settings_dict, "NAME": name}, alias=REPLICA
    )
    setattr(connections._connections, REPLICA, replica)
    settings.DATABASE_ROUTERS = [ROUTER]
    try:
        yield name
    finally:
        replica.close()
        delattr(connections._connections, REPLICA)
        with _admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def rated(player: Player, *, using: str, ordinal: float) -> None:
    Rating.objects.using(using).create(
        player=player, variant="chickenfoot", mu=ordinal, sigma=0.0, ordinal=ordinal, matches=3
    )


def board_names(client: APIClient) -> list[str]:
    response = client.get("/api/leaderboards/chickenfoot")
    assert response.status_code == HTTPStatus.OK, response.content
    return [row["name"] for row in response.json()["results"]]


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_the_leaderboard_reads_the_replica_and_signing_in_reads_the_primary(
    replica: str,
) -> None:
    reader = PlayerFactory(display_name="On the primary")  # its token exists only there
    rated(reader, using="default", ordinal=5.0)
    # bulk_create: no post_save handlers, which would write their rows to the primary
    user_model = get_user_model()
    [user] = user_model.objects.using(REPLICA).bulk_create([user_model(username="copied")])
    copied = Player.objects.using(REPLICA).create(
        user=user, kind="human", display_name="On the replica"
    )
    rated(copied, using=REPLICA, ordinal=7.0)

    # when
    names = board_names(client_for(reader))

    # then: the token was checked on the primary, the board read on the replica
    assert names == ["On the replica"]


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_inside_replica_reads_writes_and_transactions_use_the_primary(replica: str) -> None:
    Player.objects.using(REPLICA).create(kind="guest", display_name="On the replica")

    with replica_reads():
        written = Player.objects.create(kind="guest", display_name="Written")
        read = list(Player.objects.values_list("display_name", flat=True))
        with transaction.atomic():
            locked = list(
                Player.objects.select_for_update()
                .filter(pk=written.pk)
                .values_list("display_name", flat=True)
            )

    # then: the write went to the primary, the plain read to the replica (which lacks it),
    # and the read in the transaction (with its row lock) to the primary
    assert Player.objects.using("default").filter(display_name="Written").exists()
    assert "Written" not in read
    assert "On the replica" in read
    assert locked == ["Written"]
    # outside replica_reads every read is the primary's
    assert not Player.objects.filter(display_name="On the replica").exists()


@pytest.mark.django_db
def test_without_a_replica_the_leaderboard_reads_the_primary() -> None:
    reader = PlayerFactory(display_name="On the primary")
    rated(reader, using="default", ordinal=5.0)

    assert board_names(client_for(reader)) == ["On the primary"]


def settings_of(replica_url: str) -> dict[str, Any]:
    """What a fresh process's settings make of ``DATABASE_REPLICA_URL`` ("" is unset)."""
    probe = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'routers': s.DATABASE_ROUTERS, 'databases': sorted(s.DATABASES), "
        "'replica': s.DATABASES.get('replica', {}).get('NAME')}))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "chickenfoot.settings"}
    env["DATABASE_REPLICA_URL"] = replica_url
    out = subprocess.run(  # noqa: S603 - our own interpreter and script
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_settings_install_the_router_only_with_a_replica_url() -> None:
    assert settings_of("") == {
        "routers": [],
        "databases": ["default"],
        "replica": None,
    }
    assert settings_of("postgres://reader@127.0.0.1:5432/copy") == {
        "routers": [ROUTER],
        "databases": ["default", "replica"],
        "replica": "copy",
    }
