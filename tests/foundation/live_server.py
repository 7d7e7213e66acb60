"""A real server on the embedded default, in a process of its own, for tests that need one.

``embedded_env`` is the environment a fresh machine has (no ``DATABASE_URL``, no ``REDIS_URL``)
with the database moved to a file of the test's own; ``serving`` starts a command that serves
HTTP (``make run``, ``manage.py runserver``, granian, Daphne) on a loopback address and port in
its own process group, waits until ``/api/health`` answers, and stops that group (by its id)
when the block ends.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from django.utils.datastructures import CaseInsensitiveMapping

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
#: What a deployment or CI may have set that the embedded default must not see.
DEPLOYMENT_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_QUEUE",
    "CELERY_WORKER_EXPECTED",
    "DJANGO_SETTINGS_MODULE",
    "PYTEST_ADDOPTS",
    "MAKEFLAGS",
    "MAKELEVEL",
    "MFLAGS",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def embedded_env(database: Path, **extra: str) -> dict[str, str]:
    """The environment of a fresh machine, with the SQLite database at ``database``; request
    limits off (the tests' clients all come from 127.0.0.1, faster than people)."""
    env = {k: v for k, v in os.environ.items() if k not in DEPLOYMENT_VARIABLES}
    return env | {"DATABASE_URL": f"sqlite:///{database}", "RATE_LIMITS": "off", **extra}


@dataclass
class Served:
    host: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def headers_of(response: http.client.HTTPResponse) -> dict[str, str]:
    """The answer's headers, looked up by any case (granian sends every name in lower case)."""
    return CaseInsensitiveMapping(dict(response.getheaders()))  # type: ignore[return-value]


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    conn: http.client.HTTPConnection | None = None,
    host: str = "127.0.0.1",
) -> tuple[int, dict[str, str], Any]:
    """One HTTP request to the server at ``host``:``port``; the JSON body parsed (``None`` when
    empty or not JSON)."""
    own = conn is None
    conn = conn or http.client.HTTPConnection(host, port, timeout=60)
    headers = {"Accept": "application/json"}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        status, response_headers = response.status, headers_of(response)
    finally:
        if own:
            conn.close()
    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        data = None
    return status, response_headers, data


def wait_for_health(
    port: int, process: subprocess.Popen[bytes], log: Path, timeout: float, host: str = "127.0.0.1"
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"the server exited ({process.returncode}) before answering:\n"
                + log.read_text(errors="replace")[-3000:]
            )
        with contextlib.suppress(OSError, http.client.HTTPException):
            status, _, _ = request(port, "GET", "/api/health", host=host)
            if status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(
        f"the server did not answer /api/health within {timeout:.0f} s:\n"
        + log.read_text(errors="replace")[-3000:]
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the process group this module started (its id is the leader's pid)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    else:
        # The leader is gone; a reloader's child may still hold the group.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


@contextlib.contextmanager
def serving(
    command: list[str],
    *,
    port: int,
    env: dict[str, str],
    log: Path,
    timeout: float = 60,
    host: str = "127.0.0.1",
) -> Iterator[Served]:
    """Run ``command`` (which serves on ``host``:``port``) until the block ends."""
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 - our own commands
            command,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for_health(port, process, log, timeout, host)
        yield Served(host, port, process, log)
    finally:
        stop(process)


_TEMPLATE: dict[str, Path] = {}


def migrated_database(scratch: Path, database: Path) -> None:
    """Put a migrated, empty SQLite database at ``database``.

    ``manage.py migrate`` runs once per test session (into ``scratch``); each caller gets a copy.
    """
    if "db" not in _TEMPLATE:
        template = scratch / "template.sqlite3"
        subprocess.run(  # noqa: S603 - our own interpreter
            [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=embedded_env(template),
            check=True,
            capture_output=True,
            timeout=120,
        )
        _TEMPLATE["db"] = template
    shutil.copyfile(_TEMPLATE["db"], database)


def load_script(relative: str) -> ModuleType:
    """A script of the repository (``relative`` to its root) loaded as a module."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem + "_script", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def serve_module() -> ModuleType:
    """deploy/serve.py, the Dockerfile's command, loaded as a module (it runs nothing then)."""
    return load_script("deploy/serve.py")


def production_server(
    port: int, *, host: str = "127.0.0.1", workers: int = 1, threads: int = 2
) -> list[str]:
    """The Dockerfile's server command (``deploy/serve.py``, as its CMD gives it) on
    ``host``:``port``, with ``workers`` processes of ``threads`` blocking threads."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    found = re.findall(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    assert len(found) == 1, found
    command = json.loads(found[0])
    assert command[:2] == ["python", "deploy/serve.py"], command
    return [
        *(PYTHON, str(ROOT / "deploy" / "serve.py"), *command[2:]),
        *("--host", host, "--port", str(port)),
        *("--workers", str(workers), "--blocking-threads", str(threads)),
    ]
