"""``backup [--file F] [--force]`` (``make backup``): the database to a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chickenfoot.backups import BackupRefused, database_backup, default_backup_path


class Command(BaseCommand):
    help = (
        "Back up the database: pg_dump --format=custom on PostgreSQL, the online backup API on "
        "SQLite. Without --file, writes BACKUP_DIR/chickenfoot-<UTC timestamp>.<dump|sqlite3>."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--file", type=Path, help="Where to write the backup.")
        parser.add_argument("--force", action="store_true", help="Overwrite an existing file.")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"] or default_backup_path()
        try:
            written = database_backup(path=path, force=options["force"])
        except BackupRefused as refused:
            raise CommandError(str(refused)) from None
        self.stdout.write(f"backup written: {written}")
