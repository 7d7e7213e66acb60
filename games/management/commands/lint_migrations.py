"""``lint_migrations`` (``make lint-migrations``): the unreleased migrations, linted."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from chickenfoot.migration_lint import RELEASED_MIGRATIONS, migrations_lint


class Command(BaseCommand):
    help = (
        "Lint the migrations of games and scoring that chickenfoot/released_migrations.txt does "
        "not list (django-migration-linter): refuses what would lock a table or break the "
        "release still running."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = migrations_lint(quiet=options["verbosity"] == 0)
        if report.failed:
            raise CommandError(
                "A migration would break the release still running (docs/operations.md, "
                '"Upgrades without downtime").'
            )
        if not report.linted:
            self.stdout.write(f"No migration newer than {RELEASED_MIGRATIONS.name} to lint.")
