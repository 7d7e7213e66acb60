"""games.services and games.sweeps never import games.tasks: the tasks call them, not the reverse.

lint-imports checks the same contract (pyproject.toml); this test keeps it even where lint-imports
is not run. The services queue tasks through the port ``games.jobs`` that ``games.tasks`` fills.
"""

from __future__ import annotations

import ast
from pathlib import Path

from games import tasks
from games.jobs import games_jobs
from tests.foundation.test_engine_purity import imported_modules

GAMES = Path(__file__).resolve().parents[2] / "games"
QUEUERS = [*sorted((GAMES / "services").glob("*.py")), GAMES / "sweeps.py"]


def imported_names(source: str, package: list[str]) -> set[str]:
    """Every module ``source`` imports, and every name it imports from one (``from games import
    tasks`` gives ``games`` and ``games.tasks``)."""
    names = imported_modules(source, package)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_services_and_sweeps_import_no_tasks() -> None:
    offenders = {
        f"{path.relative_to(GAMES.parent)}: {module}"
        for path in QUEUERS
        for module in imported_names(
            path.read_text(), ["games", *path.relative_to(GAMES).parent.parts]
        )
        if module == "games.tasks" or module.startswith("games.tasks.")
    }

    assert len(QUEUERS) > 2
    assert not offenders, offenders


def test_the_tasks_are_registered_once_django_is_ready() -> None:
    jobs = games_jobs()

    assert jobs.bot_turn_enqueue_on_commit is tasks.bot_turn_enqueue_on_commit
    assert jobs.bot_play_turn is tasks.bot_play_turn
    assert jobs.clock_warn is tasks.clock_warn_task
    assert jobs.clock_expire is tasks.clock_expire_task
