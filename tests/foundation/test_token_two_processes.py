"""A token kept by two server processes (games/accounts/token_cache.py), on one database.

Two granians (deploy/serve.py, as the Dockerfile runs it) serve the embedded default's SQLite
file of this module's own, on two loopback ports: A and B. Each keeps a token's lookup for
``TOKEN_CACHE_SECONDS`` (5). docs/api.md, "Accounts and tokens", is what this shows:

- a token logged out through A is refused by A at once and by B within 5 s, though B answered
  with it just before (and, from the row it kept, a little after);
- a token kept by both stops on both at its expiry, not up to 5 s later.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

import pytest

from tests.foundation.live_server import (
    Served,
    embedded_env,
    free_port,
    migrated_database,
    production_server,
    request,
    serving,
)

BOUND = 5.0
#: What a request and the poll's step may add to the bound on a busy machine.
SLACK = 1.0


@dataclass
class Processes:
    a: Served
    b: Served
    database: Path


@pytest.fixture(scope="module")
def processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Processes]:
    workdir = tmp_path_factory.mktemp("tokens")
    database = workdir / "db.sqlite3"
    migrated_database(tmp_path_factory.getbasetemp(), database)
    env = embedded_env(database, TOKEN_CACHE_SECONDS=str(int(BOUND)))
    with contextlib.ExitStack() as stop:
        served = []
        for name in ("a", "b"):
            port = free_port()
            command = production_server(port, workers=1, threads=2)
            log = workdir / f"granian-{name}.log"
            served.append(stop.enter_context(serving(command, port=port, env=env, log=log)))
        yield Processes(served[0], served[1], database)


def me(served: Served, token: str) -> int:
    status, _, _ = request(served.port, "GET", "/api/players/me", token=token)
    return status


def register(served: Served, username: str) -> dict[str, object]:
    body = {"username": username, "password": "correct horse battery"}
    status, _, data = request(served.port, "POST", "/api/players", body)
    assert status == HTTPStatus.CREATED, data
    return data


def test_a_logout_through_a_stops_the_token_on_a_at_once_and_on_b_within_5_s(
    processes: Processes,
) -> None:
    a, b = processes.a, processes.b
    # given: a token used on both processes, B's use the last before the logout (kept there)
    token = str(register(a, "ada")["token"])
    assert me(a, token) == HTTPStatus.OK
    assert me(b, token) == HTTPStatus.OK
    read_on_b = time.monotonic()

    # when: it is logged out through A
    status, _, _ = request(a.port, "POST", "/api/auth/logout", token=token)
    assert status == HTTPStatus.NO_CONTENT

    # then: A refuses it at once
    assert me(a, token) == HTTPStatus.UNAUTHORIZED
    # and B, which answered from the row it kept, refuses it within the bound of its read
    answers = []
    while time.monotonic() - read_on_b < BOUND + SLACK:
        status = me(b, token)
        answers.append((time.monotonic() - read_on_b, status))
        if status == HTTPStatus.UNAUTHORIZED:
            break
        time.sleep(0.05)
    assert answers[-1][1] == HTTPStatus.UNAUTHORIZED, answers
    assert answers[0][1] == HTTPStatus.OK, f"B kept no row: {answers}"
    assert answers[-1][0] <= BOUND + SLACK, answers
    # and it stays refused on both
    assert me(a, token) == me(b, token) == HTTPStatus.UNAUTHORIZED


def set_expiry(database: Path, token_id: object, expiry: dt.datetime) -> None:
    """The token's ``expiry``, written as Django's SQLite backend writes it (naive UTC)."""
    with contextlib.closing(sqlite3.connect(database, timeout=20)) as db, db:
        db.execute(
            "UPDATE games_devicetoken SET expiry = ? WHERE id = ?",
            (expiry.astimezone(dt.UTC).replace(tzinfo=None).isoformat(" "), token_id),
        )


def test_a_token_kept_on_both_stops_on_both_at_its_expiry(processes: Processes) -> None:
    a, b = processes.a, processes.b
    # given: a token expiring in 3 s, used on both (each keeps its row, expiry included)
    body = register(a, "bob")
    token = str(body["token"])
    expiry = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=3)
    set_expiry(processes.database, body["token_id"], expiry)
    assert me(a, token) == HTTPStatus.OK
    assert me(b, token) == HTTPStatus.OK
    kept_from = time.monotonic()

    # when: its expiry comes, sooner than the kept rows would be read again
    left = (expiry - dt.datetime.now(dt.UTC)).total_seconds()
    time.sleep(max(0.0, left))

    # then: both refuse it at once, from the row each kept
    assert time.monotonic() - kept_from < BOUND, "too slow a machine to tell: the rows were old"
    assert me(b, token) == HTTPStatus.UNAUTHORIZED
    assert me(a, token) == HTTPStatus.UNAUTHORIZED
