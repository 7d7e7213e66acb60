"""``make backup`` and ``make restore`` on the embedded default (SQLite's online backup API),
as docs/operations.md shows them: a round trip that verifies, and each refusal in one line.
tests/foundation/test_restore_drill.py is the PostgreSQL drill."""

from __future__ import annotations

import re
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.foundation.live_server import PYTHON, ROOT, embedded_env, migrated_database

#: Two people play a Chicken Foot match to the end through the API (results and ratings too).
SEED = """
from games.models import Match
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_to_end

players = [PlayerFactory(user__username=name) for name in ("ada", "grace")]
match = match_create(
    creator=players[0], variant="chickenfoot", seats=[SeatSpec(kind="creator"),
    SeatSpec(kind="open")], options={"max_pip": 6, "rounds": 2},
)
seat_join(match_id=match.pk, player=players[1], position=1)
match_start(match_id=match.pk, player=players[0])
play_to_end([client_for(p) for p in players], match.pk)
assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
"""


def run(database: Path, *command: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - make and our own interpreter
        list(command),
        cwd=ROOT,
        env=embedded_env(database, ALLOWED_HOSTS="testserver", **extra),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def table_rows(database: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(database) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {t: conn.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in tables}  # noqa: S608


def refused(result: subprocess.CompletedProcess[str], words: str) -> None:
    """A refusal: a non-zero exit and one line (the last of stderr, make's own aside) saying why."""
    assert result.returncode != 0, result.stdout
    lines = [line for line in result.stderr.splitlines() if not line.startswith("make: ***")]
    last = lines[-1]
    assert words in last, result.stderr


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    database = tmp_path / "db.sqlite3"
    migrated_database(tmp_path, database)
    seed = run(database, PYTHON, "manage.py", "shell", "-c", SEED)
    assert seed.returncode == 0, seed.stderr
    return database


def test_make_backup_and_make_restore_round_trip_on_sqlite(seeded: Path, tmp_path: Path) -> None:
    # given: a database with a finished match, and an empty one migrated elsewhere
    backups = tmp_path / "backups"
    fresh = tmp_path / "restored.sqlite3"
    migrated_database(tmp_path, fresh)

    # when: make backup (the default name under BACKUP_DIR), then make restore into the new one
    backup = run(seeded, "make", "backup", BACKUP_DIR=str(backups))
    assert backup.returncode == 0, backup.stderr
    (written,) = backups.iterdir()
    assert re.fullmatch(r"chickenfoot-\d{8}T\d{6}Z\.sqlite3", written.name), written.name
    assert f"backup written: {written}" in backup.stdout
    restore = run(fresh, "make", "restore", f"FILE={written}")
    assert restore.returncode == 0, restore.stderr

    # then: every table holds the same rows, and the restored match replays as stored
    assert table_rows(fresh) == table_rows(seeded)
    verified = run(fresh, PYTHON, "manage.py", "verify_match", "--all")
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.count(": ok (") == 1, verified.stdout


def test_refusals_are_one_line_and_force_overrides_them(seeded: Path, tmp_path: Path) -> None:
    file = tmp_path / "before-upgrade.sqlite3"
    assert run(seeded, "make", "backup", f"FILE={file}").returncode == 0

    refused(run(seeded, "make", "backup", f"FILE={file}"), "exists already")
    refused(run(seeded, "make", "restore", f"FILE={tmp_path / 'none.sqlite3'}"), "no backup file")
    refused(run(seeded, "make", "restore"), "make restore needs a backup file")
    refused(run(seeded, "make", "restore", f"FILE={file}"), "not empty")
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("not a database")
    empty = tmp_path / "empty.sqlite3"
    migrated_database(tmp_path, empty)
    refused(run(empty, "make", "restore", f"FILE={not_sqlite}"), "is not a SQLite backup")

    # FORCE=1 replaces a database that is not empty, and overwrites a backup file
    other = tmp_path / "other.sqlite3"
    migrated_database(tmp_path, other)
    assert run(other, "make", "backup", f"FILE={file}", "FORCE=1").returncode == 0
    forced = run(seeded, "make", "restore", f"FILE={file}", "FORCE=1")
    assert forced.returncode == 0, forced.stderr
    assert table_rows(seeded) == table_rows(other)
