"""``make lint-migrations`` (chickenfoot/migration_lint.py): the current tree passes, and a new
migration that the release still running could not live with is refused.

The new migrations go in a copy of scoring's migrations under ``tmp_path`` (MIGRATION_MODULES
points scoring at it), so the tree itself is never touched."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from chickenfoot.migration_lint import migrations_lint, released_migrations, unreleased_migrations
from tests.foundation.live_server import ROOT, embedded_env

# sqlmigrate on SQLite needs foreign-key checks off, which a test's open transaction forbids.
pytestmark = pytest.mark.django_db(transaction=True)

SCORING_MIGRATIONS = ROOT / "scoring" / "migrations"

ADD_FIELD = """
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "{previous}")]
    operations = [
        migrations.AddField(model_name="rating", name="streak", field={field}),
    ]
"""

#: An index built on an existing table inside the migration's transaction (not CONCURRENTLY).
ADD_INDEX = """
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "{previous}")]
    operations = [
        migrations.AddIndex(
            model_name="rating", index=models.Index(fields=["mu"], name="rating_mu_idx")
        ),
    ]
"""

#: A NOT NULL column without a default: the release still running inserts rows without it.
NOT_NULL_WITHOUT_DEFAULT = "models.IntegerField()"
#: A nullable column: the release still running neither reads nor writes it, and inserts work.
NULLABLE = "models.IntegerField(null=True)"


def scoring_migrations_with(
    tmp_path: Path, settings: Any, field: str, monkeypatch: Any, template: str = ""
) -> str:
    """Scoring's migrations and one more (``template``, by default adding ``field`` to Rating);
    returns that one's name."""
    # A package name of the test's own: Python keeps each migration module it imported.
    module = "lint_" + "".join(c if c.isalnum() else "_" for c in tmp_path.name)
    package = tmp_path / module
    shutil.copytree(
        SCORING_MIGRATIONS, package / "migrations", ignore=shutil.ignore_patterns("__pycache__")
    )
    (package / "__init__.py").write_text("")
    previous = max(path.stem for path in SCORING_MIGRATIONS.glob("0*.py"))
    name = "0099_rating_streak"
    migration = (template or ADD_FIELD).replace("{previous}", previous).replace("{field}", field)
    (package / "migrations" / f"{name}.py").write_text(migration)
    monkeypatch.syspath_prepend(str(tmp_path))
    settings.MIGRATION_MODULES = {"scoring": f"{module}.migrations"}
    return name


def test_the_current_tree_passes_and_every_migration_is_listed_as_released(tmp_path: Path) -> None:
    result = subprocess.run(
        ["make", "lint-migrations"],  # noqa: S607
        cwd=ROOT,
        env=embedded_env(tmp_path / "db.sqlite3"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No migration newer than released_migrations.txt to lint." in result.stdout
    assert unreleased_migrations(released_migrations()) == []
    assert not migrations_lint(quiet=True).failed  # on the suite's database too (CI: PostgreSQL)


def test_a_not_null_column_without_a_default_is_refused(
    tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = scoring_migrations_with(tmp_path, settings, NOT_NULL_WITHOUT_DEFAULT, monkeypatch)

    report = migrations_lint(quiet=True)

    assert report.linted == [f"scoring.{name}"]
    assert report.failed


def test_a_nullable_column_is_accepted(
    tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = scoring_migrations_with(tmp_path, settings, NULLABLE, monkeypatch)

    report = migrations_lint(quiet=True)

    assert report.linted == [f"scoring.{name}"]
    assert not report.failed


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="index locks are checked on PostgreSQL's SQL (CI runs this)",
)
def test_an_index_built_on_an_existing_table_without_concurrently_is_refused(
    tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = scoring_migrations_with(tmp_path, settings, "", monkeypatch, template=ADD_INDEX)

    report = migrations_lint(quiet=True)

    assert report.linted == [f"scoring.{name}"]
    assert report.failed
