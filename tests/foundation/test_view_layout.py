"""Views read as their logic: the OpenAPI declarations live in ``apidocs`` modules beside them.

In a module of views (one that defines an ``*Api`` class), no ``extend_schema(...)`` call spans
more than 8 lines, and no ``*Api`` class, from its ``class`` line to its last, more than 60: the
parameters, examples, responses and descriptions an operation declares are named constants of
``<app>/api/apidocs/<module>.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("chickenfoot", "games", "scoring")
MAX_CLASS_LINES = 60
MAX_EXTEND_SCHEMA_LINES = 8


def view_modules() -> list[Path]:
    """Every module of the apps that defines an ``*Api`` class (``apidocs`` modules are not)."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "apidocs" in path.parts or "migrations" in path.parts:
                continue
            if any(_is_api_class(node) for node in ast.walk(ast.parse(path.read_text()))):
                found.append(path)
    return found


def _is_api_class(node: ast.AST) -> bool:
    return isinstance(node, ast.ClassDef) and node.name.endswith("Api")


def _is_extend_schema(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name == "extend_schema"


def _span(node: ast.AST) -> int:
    return node.end_lineno - node.lineno + 1  # type: ignore[attr-defined,operator]


def oversized(path: Path) -> list[str]:
    """What in the module at ``path`` is past a limit, as ``path:line: what``."""
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if _is_api_class(node) and _span(node) > MAX_CLASS_LINES:
            found.append(
                f"{where}:{node.lineno}: class {node.name} is {_span(node)} lines"  # type: ignore[attr-defined]
                f" (at most {MAX_CLASS_LINES})"
            )
        if _is_extend_schema(node) and _span(node) > MAX_EXTEND_SCHEMA_LINES:
            found.append(
                f"{where}:{node.lineno}: extend_schema(...) spans {_span(node)} lines"  # type: ignore[attr-defined]
                f" (at most {MAX_EXTEND_SCHEMA_LINES})"
            )
    return found


def test_the_views_are_found() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in view_modules()}

    assert {"games/api/moves.py", "games/api/matches.py", "scoring/api/standings.py"} <= names


def test_views_name_their_openapi_declarations_and_stay_short() -> None:
    problems = [line for path in view_modules() for line in oversized(path)]

    assert not problems, (
        "Move the OpenAPI declarations (parameters, examples, responses, descriptions) into "
        "named constants of the apidocs module beside the views:\n" + "\n".join(problems)
    )


def test_the_limits_catch_a_long_class_and_a_long_declaration(tmp_path: Path) -> None:
    keywords = "".join(f"        p{n}={n},\n" for n in range(8))
    body = "".join(f"        x{n} = {n}\n" for n in range(60))
    probe = tmp_path / "probe.py"
    probe.write_text(
        f"class ProbeApi:\n    @extend_schema(\n{keywords}    )\n    def get(self):\n{body}"
    )

    found = oversized(probe)

    assert any("class ProbeApi is 72 lines" in line for line in found), found
    assert any("extend_schema(...) spans 10 lines" in line for line in found), found
