"""A database out of reach: every endpoint answers 503 problem JSON with ``Retry-After``, never a
500, and ``/api/health`` says the database is unavailable without naming its host or port.

The server test runs granian (the production server, deploy/serve.py) pointed at a PostgreSQL
address on loopback that refuses connections: a port this test holds bound without listening, so
nothing else can take it. No real database is stopped.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from chickenfoot.outage import database_unreachable
from tests.foundation.live_server import (
    ROOT,
    embedded_env,
    free_port,
    headers_of,
    production_server,
    stop,
)

#: What the server must never send about the database: where it is, and the driver's words.
LEAKS = ("127.0.0.1", "5432", "refused", "psycopg", "OperationalError", "connection")


def problem(status: int, headers: dict[str, str], body: Any) -> None:
    assert status == HTTPStatus.SERVICE_UNAVAILABLE, body
    assert headers["Content-Type"] == "application/problem+json"
    assert headers["Retry-After"] == "5"
    assert body["code"] == "database_unavailable"
    assert body["title"] == "Database unavailable"
    assert body["status"] == HTTPStatus.SERVICE_UNAVAILABLE


# --- in-process --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.urls("tests.foundation.urls")
@pytest.mark.parametrize("path", ["/test/raise/database-down", "/test/plain-database-down"])
def test_an_api_view_or_a_django_view_that_cannot_connect_answers_503(path: str) -> None:
    response = APIClient(raise_request_exception=False).get(path)

    problem(response.status_code, dict(response.headers), response.json())
    assert "nonexistent-directory" not in response.content.decode()


def test_other_database_errors_are_not_an_outage() -> None:
    """A deadlock or a locked SQLite file is a database that answers: still a server error."""
    with pytest.raises(OperationalError) as raised:
        raise OperationalError("database is locked")

    assert not database_unreachable(raised.value)
    assert not database_unreachable(RuntimeError("no database at all"))


# --- a real server whose database refuses connections -----------------------------------------


@contextlib.contextmanager
def refusing_port() -> Iterator[int]:
    """A loopback port bound (so no other process can take it) but not listening: refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


def call(
    port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], Any, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    payload = json.dumps(body).encode() if body is not None else None
    sent = {"Accept": "*/*", **(headers or {})}
    if payload is not None:
        sent["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=payload, headers=sent)
        response = conn.getresponse()
        raw = response.read().decode("utf-8", "replace")
        return response.status, headers_of(response), _json(raw), raw
    finally:
        conn.close()


def _json(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


@pytest.fixture(scope="module")
def outage_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """The production server on a free port, its DATABASE_URL a PostgreSQL address that
    refuses."""
    log = tmp_path_factory.mktemp("outage") / "granian.log"
    port = free_port()
    with refusing_port() as db_port:
        env = embedded_env(Path("unused.sqlite3"))
        env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{db_port}/chickenfoot"
        with log.open("wb") as out:
            process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                production_server(port, workers=1, threads=2),
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, log.read_text(errors="replace")[-3000:]
                with contextlib.suppress(OSError, http.client.HTTPException):
                    call(port, "GET", "/api/schema/")
                    break
                assert time.monotonic() < deadline, "granian did not answer within 60 s"
                time.sleep(0.2)
            yield port, log
        finally:
            stop(process)


#: Bodies that pass validation, so that each request goes as far as the database.
BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/api/players"): {"username": "ada", "password": "correct horse battery"},
    ("POST", "/api/auth/token"): {"username": "ada", "password": "correct horse battery"},
    ("POST", "/api/auth/password-reset"): {"email": "ada@example.com"},
    ("POST", "/api/auth/password-reset/confirm"): {
        "uid": "MQ",
        "token": "made-up",
        "new_password": "a brand new passphrase",
    },
}
#: Served without the database: the schema and the pages that show it.
NO_DATABASE = {"/api/schema/", "/api/docs/", "/api/redoc/"}


def operations(port: int) -> list[tuple[str, str]]:
    status, _, schema, _ = call(port, "GET", "/api/schema/", headers={"Accept": "application/json"})
    assert status == HTTPStatus.OK
    out = []
    for template, methods in schema["paths"].items():
        path = re.sub(r"\{(\w+)\}", lambda m: "chickenfoot" if m[1] == "variant" else "1", template)
        out += [(method.upper(), path) for method in methods if method != "parameters"]
    return out


def test_every_endpoint_answers_503_with_retry_after(outage_server: tuple[int, Path]) -> None:
    port, log = outage_server
    checked = 0
    for method, path in operations(port):
        if path in NO_DATABASE or path.startswith("/api/health"):
            continue  # the health documents: below and in tests/foundation/test_health*.py
        body = BODIES.get((method, path), {} if method == "POST" else None)

        status, headers, document, raw = call(
            port, method, path, body, {"Authorization": "Token " + "a" * 40}
        )

        assert status == HTTPStatus.SERVICE_UNAVAILABLE, (method, path, status, raw[:300])
        problem(status, headers, document)
        assert not [leak for leak in LEAKS if leak in raw], (method, path, raw)
        checked += 1
    assert checked >= 30
    # the details are the server's: in its log
    assert "Connection refused" in log.read_text(errors="replace")


def test_a_web_page_needing_the_database_answers_503(outage_server: tuple[int, Path]) -> None:
    port, _ = outage_server
    status, headers, document, _ = call(
        port, "GET", "/admin/", headers={"Cookie": "sessionid=" + "a" * 32}
    )

    problem(status, headers, document)


def test_health_says_the_database_is_unavailable_and_nothing_more(
    outage_server: tuple[int, Path],
) -> None:
    port, log = outage_server

    status, headers, document, raw = call(port, "GET", "/api/health")

    assert status == HTTPStatus.SERVICE_UNAVAILABLE
    assert headers["Retry-After"] == "5"
    assert document == {
        "status": "degraded",
        "database": "error",
        "broker": "eager",
        "errors": {"database": "The database is unavailable."},
    }
    assert not [leak for leak in LEAKS if leak in raw]
    assert "Health: the database is down" in log.read_text(errors="replace")


def test_live_answers_and_ready_says_the_database_is_unavailable(
    outage_server: tuple[int, Path],
) -> None:
    port, log = outage_server

    live = call(port, "GET", "/api/health/live")
    status, headers, document, raw = call(port, "GET", "/api/health/ready")

    # the process answers: live asks no dependency
    assert live[0] == HTTPStatus.OK
    assert live[2] == {"status": "ok"}
    # not ready: the database is down, and the migrations could not be asked
    assert status == HTTPStatus.SERVICE_UNAVAILABLE
    assert headers["Retry-After"] == "5"
    assert document == {
        "status": "unavailable",
        "database": "error",
        "redis": "not_configured",
        "migrations": "error",
        "errors": {"database": "The database is unavailable."},
    }
    assert not [leak for leak in LEAKS if leak in raw]
    assert "Ready: the database is down" in log.read_text(errors="replace")
