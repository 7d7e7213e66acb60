"""The embedded default holds under concurrent clients: no 5xx, no match stuck on a bot's turn.

A real server (``manage.py runserver``, as ``make run`` starts it) on a file SQLite database, and
eight clients in threads, each on its own connection: each registers, creates a match against
two bots, starts it (the bots' turns run in-process after each commit), and plays its seat's
moves. Every answer must be below 500, and afterwards no match may wait on a bot.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.foundation.live_server import (
    PYTHON,
    ROOT,
    embedded_env,
    free_port,
    migrated_database,
    request,
    serving,
)

CLIENTS = 8
#: Human moves each client plays (each is a view, a legal-moves and a move request).
MOVES = 8
PASSWORD = "correct horse battery"


class Client(threading.Thread):
    def __init__(self, number: int, port: int) -> None:
        super().__init__(name=f"client-{number}")
        self.number = number
        self.port = port
        self.answers: list[tuple[str, int]] = []
        self.match_id: int | None = None
        self.token: str | None = None
        self.error: BaseException | None = None

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, _, data = request(self.port, method, path, body, self.token, conn=self.conn)
        self.answers.append((f"{method} {path}", status))
        return status, data

    def run(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            self.play()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.error = error
        finally:
            self.conn.close()

    def play(self) -> None:
        status, data = self.call(
            "POST", "/api/players", {"username": f"client{self.number}", "password": PASSWORD}
        )
        assert status == 201, data
        self.token = data["token"]
        variant = "chickenfoot" if self.number % 2 else "mexican_train"
        status, data = self.call(
            "POST",
            "/api/matches",
            {
                "variant": variant,
                "options": {"rounds": 1},
                "seats": [
                    {"kind": "creator"},
                    {"kind": "bot", "level": 1},
                    {"kind": "bot", "level": 2},
                ],
            },
        )
        assert status == 201, data
        self.match_id = data["id"]
        path = f"/api/matches/{self.match_id}"
        status, data = self.call("POST", f"{path}/start")
        assert status == 200, data
        for _ in range(MOVES):
            status, match = self.call("GET", path)
            assert status == 200, match
            if match["status"] != "playing" or match["state"]["turn"] != match["your_seat"]:
                return
            status, legal = self.call("GET", f"{path}/legal-moves")
            assert status == 200, legal
            moves = legal["moves"] if isinstance(legal, dict) else legal
            status, data = self.call(
                "POST", f"{path}/moves", {**moves[0], "version": match["version"]}
            )
            assert status in (201, 409), data


def test_eight_clients_on_the_embedded_default(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    migrated_database(tmp_path_factory.getbasetemp(), tmp_path / "db.sqlite3")
    env = embedded_env(tmp_path / "db.sqlite3")
    port = free_port()
    command = [PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    with serving(command, port=port, env=env, log=tmp_path / "server.log") as server:
        clients = [Client(number, port) for number in range(CLIENTS)]
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=120)
        assert not any(client.is_alive() for client in clients), "a client hung"

        # given eight clients, when they have played, then no answer was a server error
        answers = [answer for client in clients for answer in client.answers]
        server_errors = [answer for answer in answers if answer[1] >= 500]
        assert not server_errors, f"{len(server_errors)} of {len(answers)}: {server_errors[:10]}"
        errors = {client.name: repr(client.error) for client in clients if client.error}
        assert not errors, errors
        assert len(answers) >= CLIENTS * 4

        # and no match is left waiting for a bot
        for client in clients:
            status, _, match = request(
                port, "GET", f"/api/matches/{client.match_id}", None, client.token
            )
            assert status == 200, match
            if match["status"] == "playing":
                assert match["state"]["turn"] == match["your_seat"], (
                    f"match {client.match_id} is stuck on seat {match['state']['turn']}, a bot"
                )
        log = server.log_text()
    assert "Traceback" not in log, log[-4000:]
    assert "database is locked" not in log, log[-4000:]


@pytest.mark.parametrize("name", ["journal_mode", "busy_timeout"])
def test_embedded_sqlite_is_set_for_concurrent_writers(tmp_path: Path, name: str) -> None:
    """A connection of the embedded default: write-ahead log, a busy timeout, BEGIN IMMEDIATE."""
    probe = (
        "import django, json; django.setup()\n"
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        f"    c.execute('PRAGMA {name}'); value = c.fetchone()[0]\n"
        "print(json.dumps({'value': value, 'mode': connection.transaction_mode}))\n"
    )
    env = embedded_env(tmp_path / "db.sqlite3", DJANGO_SETTINGS_MODULE="chickenfoot.settings")
    out = subprocess.run(  # noqa: S603 - our own interpreter
        [PYTHON, "-c", probe],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=ROOT,
    )
    seen = json.loads(out.stdout)
    assert seen["mode"] == "IMMEDIATE"
    if name == "journal_mode":
        assert seen["value"] == "wal"
    else:
        assert seen["value"] >= 5000
