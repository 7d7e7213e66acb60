"""Backing up the database to a file and restoring it (``make backup``, ``make restore``).

PostgreSQL: ``pg_dump --format=custom`` (one consistent snapshot, taken while others write) and
``pg_restore --clean --if-exists --no-owner``, the machine's client programs. SQLite (the
embedded default): the sqlite3 online backup API, both ways. docs/operations.md, "Backups and
restore", says how often and how long to keep them.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import connection
from django.utils.translation import gettext as _

POSTGRESQL = "django.db.backends.postgresql"
SQLITE = "django.db.backends.sqlite3"


class BackupRefused(Exception):
    """A backup or restore that was not started; the message says why, in one line."""


def default_backup_path(*, now: datetime | None = None) -> Path:
    """``BACKUP_DIR/chickenfoot-<UTC timestamp>.<dump|sqlite3>`` for the configured database."""
    when = (now or datetime.now(UTC)).astimezone(UTC)
    suffix = "sqlite3" if _engine() == SQLITE else "dump"
    return Path(settings.BACKUP_DIR) / f"chickenfoot-{when:%Y%m%dT%H%M%SZ}.{suffix}"


def database_backup(*, path: Path, force: bool = False) -> Path:
    """Write a backup of the default database to ``path``; refuses to overwrite unless ``force``."""
    if path.exists() and not force:
        raise BackupRefused(
            _("%(path)s exists already (pass --force to overwrite it).") % {"path": path}
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    engine = _engine()
    if engine == POSTGRESQL:
        _run(["pg_dump", "--format=custom", "--no-password", f"--file={path}", *_pg_args()])
    elif engine == SQLITE:
        _sqlite_copy(source=_sqlite_name(), target=str(path))
    else:
        raise BackupRefused(
            _("Backups support PostgreSQL and SQLite, not %(engine)s.") % {"engine": engine}
        )
    return path


def database_restore(*, path: Path, force: bool = False) -> None:
    """Replace the default database's content with the backup at ``path``.

    Refuses when the file is missing, or when the database holds rows of the project's models
    and ``force`` is not given (a migrated but unused database counts as empty).
    """
    if not path.is_file():
        raise BackupRefused(_("There is no backup file %(path)s.") % {"path": path})
    if not force and not database_is_empty():
        raise BackupRefused(
            _(
                "The database is not empty: restore into a new database, or "
                "pass --force to replace it."
            )
        )
    engine = _engine()
    connection.close()
    if engine == POSTGRESQL:
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--exit-on-error",
                "--single-transaction",
                "--no-password",
                *_pg_args(),
                str(path),
            ]
        )
    elif engine == SQLITE:
        _check_sqlite_file(path)
        _sqlite_copy(source=str(path), target=_sqlite_name())
    else:
        raise BackupRefused(
            _("Restores support PostgreSQL and SQLite, not %(engine)s.") % {"engine": engine}
        )


def database_is_empty() -> bool:
    """No table of an installed model (migrations' own bookkeeping aside) holds a row."""
    existing = set(connection.introspection.table_names())
    skip = {"django_content_type", "auth_permission"}  # what migrating alone writes
    with connection.cursor() as cursor:
        for model in apps.get_models(include_auto_created=True):
            table = model._meta.db_table
            if table in existing and table not in skip:
                cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(table)} LIMIT 1")  # noqa: S608 - a model's table name
                if cursor.fetchone() is not None:
                    return False
    return True


def _engine() -> str:
    return str(settings.DATABASES["default"]["ENGINE"])


def _sqlite_name() -> str:
    return str(settings.DATABASES["default"]["NAME"])


def _sqlite_copy(*, source: str, target: str) -> None:
    src = sqlite3.connect(source)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _check_sqlite_file(path: Path) -> None:
    with path.open("rb") as file:
        if file.read(16) != b"SQLite format 3\x00":
            raise BackupRefused(_("%(path)s is not a SQLite backup.") % {"path": path})


def _pg_args() -> list[str]:
    db: dict[str, Any] = settings.DATABASES["default"]
    args = []
    if db.get("HOST"):
        args.append(f"--host={db['HOST']}")
    if db.get("PORT"):
        args.append(f"--port={db['PORT']}")
    if db.get("USER"):
        args.append(f"--username={db['USER']}")
    args.append(f"--dbname={db['NAME']}")
    return args


def _run(command: list[str]) -> None:
    program = shutil.which(command[0])
    if program is None:
        raise BackupRefused(
            _("%(command)s is not installed (Debian: apt-get install postgresql-client).")
            % {"command": command[0]}
        )
    env = dict(os.environ)
    password = settings.DATABASES["default"].get("PASSWORD")
    if password:
        env["PGPASSWORD"] = str(password)  # in the environment, never on the command line
    result = subprocess.run(  # noqa: S603 - the PostgreSQL client, with our own arguments
        [program, *command[1:]], env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise BackupRefused(
            _("%(command)s failed (exit %(returncode)s): %(last)s")
            % {"command": command[0], "returncode": result.returncode, "last": last}
        )
