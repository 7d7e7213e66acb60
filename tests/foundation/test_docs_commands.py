"""Every shell command README.md and docs/*.md show is run: here, or by a named test or CI step.

``RUNNERS`` says, for each command the docs show, what runs it:

- ``LIVE``: this module runs it for real, in the order the document shows it, in one shell per
  document, against ``make run`` serving a fresh SQLite database on a free port (the docs'
  ``127.0.0.1:8000`` is rewritten to it), and checks the output the document shows below it
  (``tests/foundation/doc_commands.py`` says how outputs are compared).
- ``SERVER``: the command that serves the live commands (``make run``), started by this module.
- ``DRY_RUN``: a make target this module runs with ``make -n`` (it must expand without error).
- ``SAME_AS``: an inline mention of a command a fenced block shows and another runner runs.
- ``"ci: <step>"``: a step of ``.ci/run`` (the step must exist and contain ``fragment``).
- ``"test: <path>::<name>"``: another test (the test must exist).

A command no entry matches fails ``test_every_doc_command_is_run`` with what to do.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.foundation.doc_commands import DocCommand, all_commands, output_problems
from tests.foundation.live_server import (
    ROOT,
    Served,
    embedded_env,
    free_port,
    migrated_database,
    request,
    serving,
)

LIVE = "live"
SERVER = "server"
DRY_RUN = "dry-run"
SAME_AS = "same-as"
CI_RUN = ROOT / ".ci" / "run"
#: The superuser the live shell's environment asks ``make superuser`` for (no questions).
SUPERUSER_ENV = {
    "DJANGO_SUPERUSER_USERNAME": "docs-admin",
    "DJANGO_SUPERUSER_EMAIL": "docs-admin@example.com",
    "DJANGO_SUPERUSER_PASSWORD": "a long docs passphrase",
}


@dataclass(frozen=True)
class Runner:
    #: A regular expression the whole command (continuations joined, blanks collapsed) matches.
    pattern: str
    #: LIVE, SERVER, DRY_RUN, SAME_AS, "ci: <step title>" or "test: <path>::<test name>".
    runner: str
    #: For "ci:": text the step must contain. For SAME_AS: the fenced command it mentions.
    fragment: str = ""

    def matches(self, command: DocCommand) -> bool:
        return re.fullmatch(self.pattern, command.normalised) is not None


RUNNERS: tuple[Runner, ...] = (
    # The first screen.
    Runner(r"make run", SERVER),
    Runner(r"make run (HOST=\S+ )?PORT=\d+", DRY_RUN),
    Runner(r"make test", "ci: Running the test suite (make test)", "make test"),
    Runner(r"make test PYTEST_ARGS='[^']*'", DRY_RUN),
    # docs/reliability.md: the fuzz run, longer and at random (the suite runs it bounded).
    Runner(
        r"FUZZ_CASES=\d+ FUZZ_RANDOM=1 make test PYTEST_ARGS='tests/foundation/test_fuzz\.py -s'",
        "test: tests/foundation/test_fuzz.py::"
        "test_no_input_gets_a_5xx_and_every_answer_fits_the_schema",
    ),
    # README "Try it" and docs/tables.md: curl against the server, in order (an answer's token,
    # id or code kept in a shell variable).
    Runner(r"([A-Z]+=\$\()?curl .*http://127\.0\.0\.1:8000/.*", LIVE),
    # README "Manage".
    Runner(r"(DJANGO_SUPERUSER_\w+=\S+ )*(DJANGO_SUPERUSER_\w+='[^']*' )*make superuser", LIVE),
    Runner(r"make verify MATCH=\d+", LIVE),
    Runner(r"make verify-all", LIVE),
    Runner(r"make verify MATCH=<id>", SAME_AS, "make verify MATCH=1"),
    Runner(r"\.venv/bin/python manage\.py verify_match( 1)?", SAME_AS, "make verify MATCH=1"),
    # README "Development".
    Runner(r"make lint", "ci: Linting (make lint)", "make lint"),
    Runner(r"\.venv/bin/ruff check \.", "ci: Linting (make lint)", "make lint"),
    Runner(r"make worker", DRY_RUN),
    Runner(r"make migrate", DRY_RUN),
    Runner(r"CI=true bash \.ci/run", "ci: Installing requirements (make install)", "make install"),
    # The production stack: no Docker daemon where the suite runs; the compose file is checked,
    # and nginx runs with its configuration, the certificate the README makes and the key the
    # README makes.
    Runner(
        r"docker compose up( --build| --scale worker=\d+)",
        "test: tests/foundation/test_compose.py::test_compose_runs_what_the_readme_says",
    ),
    Runner(
        r"python3 -c 'import secrets; "
        r"print\(f\"SECRET_KEY=\{secrets\.token_urlsafe\(50\)\}\"\)' >> \.env",
        "test: tests/foundation/test_production_settings.py::"
        "test_the_readme_makes_a_key_production_accepts",
    ),
    Runner(
        r"mkdir -p deploy/certs && openssl req .*",
        "test: tests/foundation/test_reverse_proxy.py::test_the_readme_certificate_serves_tls",
    ),
    Runner(
        r"\.venv/bin/python manage\.py check --deploy --fail-level WARNING",
        "test: tests/foundation/test_production_settings.py::"
        "test_check_deploy_is_clean_in_production",
    ),
    # Benchmarks need PostgreSQL and take minutes: CI runs each briefly.
    Runner(
        r"\.venv/bin/python -m benchmarks\.api( \[?--\w[\w-]* \d+\]?)*",
        "ci: Benchmarks, briefly",
        "-m benchmarks.api",
    ),
    Runner(
        r"(BENCH_REDIS_URL=\S+ )?\.venv/bin/python -m benchmarks\.api --login-flood"
        r"( \[?--\w[\w-]*( \d+)?\]?)*",
        "ci: Benchmarks, briefly",
        "--login-flood",
    ),
    Runner(
        r"\.venv/bin/python -m benchmarks\.engine( \[?--\w[\w-]* \w+\]?)*",
        "ci: Benchmarks, briefly",
        "-m benchmarks.engine",
    ),
    # The scoring benchmark and its data: a PostgreSQL test runs each small.
    Runner(
        r"\.venv/bin/python manage\.py seed_league --matches \d+",
        "test: tests/scoring/test_seed_league.py::"
        "test_seed_league_writes_matches_whose_rows_agree_with_each_other",
    ),
    Runner(
        r"(nice -n 10 )?\.venv/bin/python -m benchmarks\.queries( \[?--\w[\w-]* [\w,]+\]?)*",
        "test: tests/scoring/test_benchmark_queries.py::"
        "test_the_benchmark_prints_medians_per_size_and_drops_its_database",
    ),
    Runner(
        r"\.venv/bin/python -m benchmarks\.bots( \[?--[\w-]+ \d+\]?)*",
        "test: tests/bots/test_benchmark.py::"
        "test_the_bot_benchmark_reports_win_shares_and_move_times",
    ),
    Runner(
        r"\.venv/bin/python -m benchmarks\.bodies( \[?--repeat \d+\]?)?",
        "test: tests/foundation/test_benchmark_bodies.py::"
        "test_the_body_benchmark_reports_cpu_per_case_and_each_refusal",
    ),
    Runner(
        r"\.venv/bin/python -m benchmarks\.live( \[?--\w[\w-]* \w+\]?)*",
        "ci: Benchmarks, briefly",
        "-m benchmarks.live",
    ),
    # Needs Node and npm for its TypeScript half: CI runs it whole.
    Runner(
        r"\.venv/bin/python clients/check\.py( --skip-typescript)?",
        "ci: Generated clients play whole matches (clients/check.py)",
        "clients/check.py",
    ),
)


def runner_for(command: DocCommand) -> Runner | None:
    return next((runner for runner in RUNNERS if runner.matches(command)), None)


def ci_steps() -> dict[str, str]:
    """``.ci/run``'s steps: title -> the script up to the next step."""
    text = CI_RUN.read_text(encoding="utf-8")
    parts = re.split(r'^step "([^"]+)"\s*$', text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


# --- Every command has a runner, and every runner exists ------------------------------------


def test_every_doc_command_is_run() -> None:
    commands = all_commands()
    assert len(commands) >= 20  # the extraction found the docs' commands at all
    unrun = [command for command in commands if runner_for(command) is None]
    assert not unrun, (
        "These commands in the docs are run by nothing:\n"
        + "\n".join(f"  {command.where}: {command.normalised}" for command in unrun)
        + "\nA command the docs show must be run by a test or by .ci/run. Either make it one this"
        " test already runs (curl against http://127.0.0.1:8000 and the make targets in RUNNERS"
        " run for real), or add a Runner to RUNNERS in tests/foundation/test_docs_commands.py"
        ' naming what runs it: "test: <path>::<test name>" of a test that runs it, or'
        ' "ci: <step title>" of a .ci/run step (add the step) and a fragment of its command.'
    )


def test_every_runner_is_used_and_exists() -> None:
    commands = all_commands()
    steps = ci_steps()
    fenced = {command.normalised for command in commands if command.fenced}
    for runner in RUNNERS:
        assert any(runner.matches(command) for command in commands), (
            f"RUNNERS entry {runner.pattern!r} matches no command in the docs any more: remove it"
        )
        if runner.runner.startswith("ci: "):
            title = runner.runner.removeprefix("ci: ")
            assert title in steps, f".ci/run has no step {title!r} (its steps: {sorted(steps)})"
            assert runner.fragment in steps[title], (
                f".ci/run's step {title!r} does not run {runner.fragment!r}"
            )
        elif runner.runner.startswith("test: "):
            path, _, name = runner.runner.removeprefix("test: ").partition("::")
            test_file = ROOT / path
            assert test_file.is_file(), f"{runner.runner}: no such file"
            assert re.search(rf"^def {re.escape(name)}\(", test_file.read_text(), re.MULTILINE), (
                f"{runner.runner}: no such test"
            )
        elif runner.runner == SAME_AS:
            assert runner.fragment in fenced, (
                f"{runner.pattern!r} stands for {runner.fragment!r}, which no fenced block shows"
            )
        else:
            assert runner.runner in (LIVE, SERVER, DRY_RUN), runner


def test_ci_run_installs_and_tests() -> None:
    """``CI=true bash .ci/run`` is what CI runs: it installs, lints and runs the suite."""
    steps = ci_steps()
    assert "make install" in steps["Installing requirements (make install)"]
    assert "make test" in steps["Running the test suite (make test)"]


def make_dry_run(words: list[str]) -> subprocess.CompletedProcess[str]:
    """``make -n`` of a ``make …`` command the docs show, on the embedded default."""
    return subprocess.run(  # noqa: S603 - make, with a command the docs show
        ["make", "-n", *words[1:]],  # noqa: S607
        cwd=ROOT,
        env=embedded_env(Path(os.devnull)),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    "command",
    [c for c in all_commands() if (r := runner_for(c)) is not None and r.runner == DRY_RUN],
    ids=lambda command: command.normalised,
)
def test_make_targets_expand(command: DocCommand) -> None:
    """Targets that would run a long time (the suite, a worker) expand without error."""
    words = shlex.split(command.normalised)
    assert words[0] == "make"
    result = make_dry_run(words)
    assert result.returncode == 0, result.stderr
    assert ".venv/bin/" in result.stdout, result.stdout


def test_make_run_serves_where_host_and_port_say() -> None:
    """``make run PORT=…`` (and ``HOST=…``) as the docs show them: runserver gets that address."""
    shown = [c for c in all_commands() if re.fullmatch(r"make run .*PORT=\d+", c.normalised)]
    assert shown, "the docs show no make run PORT=..."
    for command in shown:
        words = shlex.split(command.normalised)
        given = dict(word.split("=", 1) for word in words[2:])
        result = make_dry_run(words)
        assert result.returncode == 0, result.stderr
        address = f"{given.get('HOST', '127.0.0.1')}:{given['PORT']}"
        assert f"runserver --insecure {address}" in result.stdout, result.stdout


# --- The live commands --------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    """``make run`` as the README shows it, on a fresh database and a free port."""
    work = tmp_path_factory.mktemp("docs")
    database = work / "db.sqlite3"
    migrated_database(tmp_path_factory.getbasetemp(), database)
    port = free_port()
    command = next(c for c in all_commands() if (r := runner_for(c)) and r.runner == SERVER)
    with serving(
        command.normalised.split(),
        port=port,
        env=embedded_env(database, PORT=str(port), HOST="127.0.0.1"),
        log=work / "server.log",
        timeout=90,
    ) as server:
        yield server, database


def _live_script(commands: list[DocCommand], port: int) -> str:
    lines = []
    for number, command in enumerate(commands):
        text = command.text.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        lines += [
            f"printf '\\n@@DOC-COMMAND {number}@@\\n'",
            text,
            "printf '\\n@@DOC-EXIT %s@@\\n' $?",
        ]
    return "\n".join(lines) + "\n"


def _run_live(
    commands: list[DocCommand], served: Served, database: Path
) -> dict[int, tuple[str, int]]:
    result = subprocess.run(  # noqa: S603 - bash, with commands the docs show
        ["bash", "--noprofile", "--norc", "-c", _live_script(commands, served.port)],  # noqa: S607
        cwd=ROOT,
        env=embedded_env(database, **SUPERUSER_ENV),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    outputs: dict[int, tuple[str, int]] = {}
    for match in re.finditer(
        r"@@DOC-COMMAND (\d+)@@\n(.*?)\n@@DOC-EXIT (\d+)@@", result.stdout, flags=re.DOTALL
    ):
        outputs[int(match.group(1))] = (match.group(2), int(match.group(3)))
    assert len(outputs) == len(commands), (
        f"the shell stopped early:\nstdout:\n{result.stdout[-3000:]}"
        f"\nstderr:\n{result.stderr[-3000:]}"
    )
    return outputs


def live_documents() -> list[Path]:
    return sorted({c.path for c in all_commands() if (r := runner_for(c)) and r.runner == LIVE})


def live_commands(path: Path) -> list[DocCommand]:
    return [
        c
        for c in all_commands()
        if c.path == path and c.fenced and (r := runner_for(c)) is not None and r.runner == LIVE
    ]


@pytest.fixture(scope="module")
def live_runs(
    served: tuple[Served, Path],
) -> dict[Path, tuple[list[DocCommand], dict[int, tuple[str, int]]]]:
    """Each document's live commands, run in order: document -> (commands, outputs)."""
    server, database = served
    runs = {}
    for path in live_documents():
        commands = live_commands(path)
        runs[path] = (commands, _run_live(commands, server, database))
    return runs


@pytest.mark.parametrize("path", live_documents(), ids=lambda path: path.name)
def test_live_commands_run_as_shown(
    served: tuple[Served, Path],
    live_runs: dict[Path, tuple[list[DocCommand], dict[int, tuple[str, int]]]],
    path: Path,
) -> None:
    server, _ = served
    commands, outputs = live_runs[path]
    problems = []
    for number, command in enumerate(commands):
        output, status = outputs[number]
        if status != 0:
            problems.append(f"{command.where}: `{command.normalised}` exited {status}:\n{output}")
            continue
        for problem in output_problems(command.shown, output):
            problems.append(f"{command.where}: `{command.normalised}`: {problem}")
        problem_status = _problem_status(output)
        if problem_status is not None and not command.shown:
            problems.append(
                f"{command.where}: `{command.normalised}` was refused ({problem_status}): {output}"
            )
    assert not problems, (
        "Commands in the docs do not run as shown (fix the docs or the code; if a comment right"
        " below a command is not its output, put a blank line between them):\n"
        + "\n".join(problems)
    )
    log = server.log_text()
    assert not re.search(r'" 5\d\d ', log), log[-3000:]


def _problem_status(output: str) -> int | None:
    """The status of a problem document the output is (a refusal), if it is one."""
    text = output.strip()
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    status = data.get("status") if isinstance(data, dict) else None
    return status if isinstance(status, int) and status >= 400 and "type" in data else None


def test_manage_section_does_what_it_says(
    served: tuple[Served, Path],
    live_runs: dict[Path, tuple[list[DocCommand], dict[int, tuple[str, int]]]],
) -> None:
    """After the README's commands: both administrators exist, and the admin asks for a login."""
    server, database = served
    commands, outputs = live_runs[ROOT / "README.md"]
    verified = [
        outputs[n][0] for n, c in enumerate(commands) if c.normalised == "make verify MATCH=1"
    ]
    assert verified, "the README no longer shows `make verify MATCH=1`"
    assert "match 1: ok (" in verified[0], verified[0]
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT username, is_staff, is_superuser FROM auth_user").fetchall()
    users = {name: (staff, superuser) for name, staff, superuser in rows}
    assert users.get("admin") == (1, 1), users
    assert users.get(SUPERUSER_ENV["DJANGO_SUPERUSER_USERNAME"]) == (1, 1), users
    status, headers, _ = request(server.port, "GET", "/admin/")
    assert status == 302
    assert headers["Location"].startswith("/admin/login/")
