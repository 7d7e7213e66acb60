"""Refusing migrations that would lock a big table or break the release still running
(``make lint-migrations``; docs/operations.md, "Upgrades without downtime").

django-migration-linter reads the SQL each migration runs (``sqlmigrate``) and flags what the
previous release's code could not live with while both run: a column added NOT NULL without a
default, a column or table dropped or renamed, a column's type changed, a NOT NULL added to an
existing column, and (PostgreSQL) an index built or dropped without CONCURRENTLY on an
existing table. The migrations already released (``RELEASED_MIGRATIONS``, one
``<app> <name>`` a line) are accepted as they are; every other migration of the project's own
apps is linted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.db.migrations.loader import MigrationLoader
from django_migration_linter import MigrationLinter

#: The apps whose migrations are ours to lint (third-party apps' migrations come as released).
PROJECT_APPS = ("games", "scoring")
RELEASED_MIGRATIONS = Path(__file__).with_name("released_migrations.txt")
#: The linter's warnings that fail the lint too: on PostgreSQL, building or dropping an index
#: without CONCURRENTLY on a table that exists locks it against writes for the whole build.
WARNINGS_AS_ERRORS = ("CREATE_INDEX", "DROP_INDEX", "REINDEX")


@dataclass
class LintReport:
    linted: list[str] = field(default_factory=list)
    failed: bool = False


def released_migrations(path: Path = RELEASED_MIGRATIONS) -> set[tuple[str, str]]:
    """The ``(app, name)`` pairs the file lists (``#`` comments and blank lines skipped)."""
    pairs = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            app, name = text.split()
            pairs.add((app, name))
    return pairs


def unreleased_migrations(released: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """The project's migrations on disk that ``released`` does not list, in order."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return sorted(
        key for key in loader.disk_migrations if key[0] in PROJECT_APPS and key not in released
    )


def migrations_lint(
    *, released_path: Path = RELEASED_MIGRATIONS, quiet: bool = False
) -> LintReport:
    """Lint every unreleased migration of the project's apps; ``failed`` if any has an error."""
    report = LintReport()
    pending = unreleased_migrations(released_migrations(released_path))
    linter = MigrationLinter(
        no_cache=True, no_output=quiet, warnings_as_errors_tests=list(WARNINGS_AS_ERRORS)
    )
    for app, name in pending:
        linter.lint_migration(linter.migration_loader.disk_migrations[(app, name)])
        report.linted.append(f"{app}.{name}")
    if not quiet:
        linter.print_summary()
    report.failed = linter.has_errors
    return report
