"""No two modules of the project import each other, directly or through others, and an import
inside a function counts as much as one at the top (a lazy import hides a circle; it does not
break it). The layering reads one way: ``games.services.timeouts`` plays through
``moves`` and ``leaving``, which share ``clock`` and ``common``, which share ``standings``; the
notification writes (``games.notifications.services``) queue the delivery, which never imports
them. pyproject's import-linter contracts keep those two packages' layers; this test keeps every
package free of circles, even where lint-imports is not run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("chickenfoot", "games", "scoring")


def module_names(root: Path, packages: Iterable[str]) -> dict[str, tuple[Path, list[str]]]:
    """Every module of ``packages`` (migrations aside): name -> (path, its package's parts)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                found[".".join(parts[:-1])] = (path, parts[:-1])
            else:
                found[".".join(parts)] = (path, parts[:-1])
    return found


def imports_of(source: str, package: list[str]) -> set[str]:
    """Every name ``source`` (a module of ``package``) imports, anywhere in it: a module, or
    for ``from module import name`` each ``module.name`` (a submodule, or a name ``module``
    holds: the caller resolves it to the module it lies in)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def import_graph(sources: Mapping[str, tuple[str, list[str]]]) -> dict[str, set[str]]:
    """module -> the modules among ``sources`` it imports (``sources``: name -> (source,
    package parts)); a name is resolved to the longest module it lies in. ``from package
    import submodule`` is an import of the submodule: the package it loads first is the one
    the importer's own package loads (a package's ``__init__`` loading its submodules is no
    circle)."""
    graph: dict[str, set[str]] = {}
    for name, (source, package) in sources.items():
        targets = set()
        for imported in imports_of(source, package):
            parts = imported.split(".")
            while parts and ".".join(parts) not in sources:
                parts.pop()
            if parts and ".".join(parts) != name:
                targets.add(".".join(parts))
        graph[name] = targets
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_module_of_the_project_imports_itself_through_others() -> None:
    sources = {
        name: (path.read_text(encoding="utf-8"), package)
        for name, (path, package) in module_names(ROOT, PACKAGES).items()
    }
    assert "games.services.timeouts" in sources
    assert "games.notifications.envelope" in sources

    found = circles(import_graph(sources))

    assert not found, "modules that import each other:\n" + "\n".join(map(str, found))


def test_a_function_level_import_closes_a_circle() -> None:
    # given: the two circles this package once had, each closed by an import in a function
    sources = {
        "games.notifications.services": (
            "def after() -> None:\n    from games.notifications.delivery import push_deliver\n",
            ["games", "notifications"],
        ),
        "games.notifications.delivery": (
            "from games.notifications import services\n",
            ["games", "notifications"],
        ),
        "games.services.clock": (
            "def expire():\n    from .moves import timed_out_move\n",
            ["games", "services"],
        ),
        "games.services.moves": ("from games.services.common import x\n", ["games", "services"]),
        "games.services.common": (
            "def end():\n    from games.services import leaving\n",
            ["games", "services"],
        ),
        "games.services.leaving": ("import games.services.clock\n", ["games", "services"]),
        "games.services.replay": ("from games.services.leaving import y\n", ["games", "services"]),
    }

    # when / then: both are found, and the module that only imports into one is not in it
    assert sorted(circles(import_graph(sources))) == [
        ["games.notifications.delivery", "games.notifications.services"],
        [
            "games.services.clock",
            "games.services.common",
            "games.services.leaving",
            "games.services.moves",
        ],
    ]
