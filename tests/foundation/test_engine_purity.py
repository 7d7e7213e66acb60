"""games/engine imports nothing from Django, DRF, Celery or the rest of the project.

lint-imports checks the same contract; this test keeps it even where lint-imports is not run.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
FORBIDDEN_ROOTS = {"django", "rest_framework", "celery", "kombu", "chickenfoot", "scoring"}


def imported_modules(source: str, package: list[str]) -> set[str]:
    """Absolute names of every module ``source`` (in ``package``) imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
    return names


def is_forbidden(module: str) -> bool:
    parts = module.split(".")
    if parts[0] in FORBIDDEN_ROOTS:
        return True
    return parts[0] == "games" and parts[:2] != ["games", "engine"]


def test_engine_exists() -> None:
    assert (ENGINE / "errors.py").is_file()


def test_engine_imports_no_framework_or_project_code() -> None:
    offenders = {
        f"{path.relative_to(ENGINE.parent.parent)}: {module}"
        for path in sorted(ENGINE.rglob("*.py"))
        for module in imported_modules(
            path.read_text(encoding="utf-8"),
            ["games", "engine", *path.relative_to(ENGINE).parent.parts],
        )
        if is_forbidden(module)
    }

    assert not offenders, "games/engine must stay pure Python:\n" + "\n".join(sorted(offenders))


def test_relative_imports_are_resolved() -> None:
    source = "from . import tiles\nfrom ..models import Match\nimport django.db\nimport json\n"

    modules = imported_modules(source, ["games", "engine"])

    assert modules == {"games.engine", "games.models", "django.db", "json"}
    assert {m for m in modules if is_forbidden(m)} == {"games.models", "django.db"}
