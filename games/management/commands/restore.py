"""``restore --file F [--force]`` (``make restore FILE=F``): a backup into the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chickenfoot.backups import BackupRefused, database_restore


class Command(BaseCommand):
    help = (
        "Restore a backup written by `backup`: pg_restore --clean --if-exists --no-owner on "
        "PostgreSQL, the online backup API on SQLite. Refuses a database that is not empty "
        "unless --force is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--file", type=Path, required=True, help="The backup to restore.")
        parser.add_argument(
            "--force", action="store_true", help="Replace a database that is not empty."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            database_restore(path=path, force=options["force"])
        except BackupRefused as refused:
            raise CommandError(str(refused)) from None
        self.stdout.write(f"restored: {path}")
