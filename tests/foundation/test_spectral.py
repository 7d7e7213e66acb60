"""Spectral's ``spectral:oas`` ruleset finds no error in the OpenAPI schema.

Spectral is pinned by tools/spectral/package-lock.json (``npm ci`` in tools/spectral installs
it; .ci/run does). Without it this test skips, except in CI (``CI=true``), where it fails.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tools" / "spectral"
SPECTRAL = FOLDER / "node_modules" / ".bin" / "spectral"


def spectral_results(schema: Path, output: Path) -> list[dict[str, object]]:
    """Spectral's findings on ``schema`` (every severity), with the repository's ruleset."""
    completed = subprocess.run(  # noqa: S603 - the pinned Spectral, on a file written here
        [
            str(SPECTRAL),
            "lint",
            "--ruleset",
            str(FOLDER / ".spectral.yaml"),
            "--format",
            "json",
            "--output",
            str(output),
            "--fail-severity",
            "error",
            str(schema),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert output.exists(), completed.stderr
    results: list[dict[str, object]] = json.loads(output.read_text() or "[]")
    assert completed.returncode == (1 if any(r["severity"] == 0 for r in results) else 0), (
        completed.stderr
    )
    return results


@pytest.fixture
def spectral() -> Path:
    if not SPECTRAL.exists():
        message = "Spectral is not installed: run `npm ci` in tools/spectral"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: it must run)")
        pytest.skip(message)
    return SPECTRAL


def test_the_ruleset_extends_spectral_oas() -> None:
    assert (FOLDER / ".spectral.yaml").read_text().strip() == 'extends: ["spectral:oas"]'
    pinned = json.loads((FOLDER / "package.json").read_text())["dependencies"]
    assert all(version[0].isdigit() for version in pinned.values()), pinned


def test_spectral_finds_no_error_in_the_schema(spectral: Path, tmp_path: Path) -> None:
    schema = tmp_path / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--file", str(schema))

    results = spectral_results(schema, tmp_path / "spectral.json")

    errors = [r for r in results if r["severity"] == 0]  # 0 error, 1 warning, 2 info, 3 hint
    assert errors == [], json.dumps(errors, indent=1)[:4000]


def test_spectral_does_find_an_error_where_there_is_one(spectral: Path, tmp_path: Path) -> None:
    """The check can fail: a schema whose example breaks its schema is refused."""
    schema = tmp_path / "broken.json"
    schema.write_text(
        json.dumps(
            {
                "openapi": "3.1.0",
                "info": {"title": "t", "version": "1", "description": "d", "contact": {}},
                "servers": [{"url": "/"}],
                "tags": [{"name": "t", "description": "d"}],
                "paths": {},
                "components": {"schemas": {"Seat": {"type": "integer", "example": "not a seat"}}},
            }
        )
    )

    results = spectral_results(schema, tmp_path / "spectral.json")

    assert [r["code"] for r in results if r["severity"] == 0] == ["oas3-valid-schema-example"]
