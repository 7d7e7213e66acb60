"""Processes a test starts itself and stops by PID: a Redis server, a Celery worker, Celery beat.

The crash and outage tests (``tests/games/test_reliability_worker.py``,
``tests/games/test_redis_outage.py``) run them on a loopback port of their own, so that killing or
restarting them touches nothing else on the machine. For an outage without a process,
``refusing_port`` is a loopback port that refuses connections, and ``redis_cache`` points the
cache at a Redis.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

from chickenfoot.celery import app as celery_app

PROJECT = Path(settings.BASE_DIR)

#: The marks of a test that needs a running Celery worker (CI: ``CELERY_WORKER_EXPECTED=1``).
WORKER_MARKS = [
    pytest.mark.worker,
    pytest.mark.skipif(
        os.environ.get("CELERY_WORKER_EXPECTED") != "1",
        reason="no worker expected: set REDIS_URL, start a worker, and CELERY_WORKER_EXPECTED=1",
    ),
    pytest.mark.django_db(transaction=True),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def refusing_port() -> Iterator[int]:
    """A loopback port bound (so no other process can take it) but not listening: refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


def redis_cache(url: str, **options: Any) -> dict[str, Any]:
    """``settings.CACHES`` for Django's Redis cache at ``url``, as settings.py configures it."""
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, **options},
        }
    }


def wait_for(predicate: object, timeout: float, what: str, interval: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, grace: float = 10) -> None:
    """Stop ``process`` (one PID) with ``sig``, then SIGKILL it if it is still there."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


class RedisServer:
    """A throwaway redis-server on a free loopback port, keeping nothing on disk."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise AssertionError("redis-server is not installed (.ci/run installs it)")
        self.binary = binary
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - our own argument list
            [
                *(self.binary, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.workdir)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self._answers, 10, f"redis-server on port {self.port}")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL: an outage, as abrupt as they come."""
        if self.process is not None:
            stop(self.process, signal.SIGKILL)


def database_url_of_tests() -> str:
    """The URL of the database this test writes to (pytest-django's ``test_<name>``)."""
    base = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(base._replace(path="/" + connection.settings_dict["NAME"]))


class Celery:
    """A Celery worker or beat of this project, started with its own environment and log."""

    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.workdir = workdir
        self.env = {**os.environ, **env}
        self.processes: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []

    def _start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = self.workdir / f"{name}-{len(self.logs)}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(  # noqa: S603 - our own argument list
                [sys.executable, "-m", "celery", "-A", "chickenfoot", *args, "--loglevel=INFO"],
                cwd=PROJECT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.processes.append(process)
        self.logs.append(log)
        return process

    def worker(
        self, name: str, pool: str = "solo", queues: str | None = None
    ) -> subprocess.Popen[bytes]:
        """A worker; with the ``solo`` pool its PID is the process running the task, with
        ``prefork`` it has one pool process (``pool_children``). It consumes ``queues``
        (comma-separated), or every queue of ``CELERY_TASK_QUEUES``."""
        process = self._start(
            name,
            *("worker", "-n", f"{name}@{socket.gethostname()}", f"--pool={pool}"),
            *(("-Q", queues) if queues else ()),
            "--concurrency=1",
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
        )
        log = self.logs[-1]
        wait_for(
            lambda: process.poll() is not None or b" ready." in log.read_bytes(),
            90,
            f"worker {name} to be ready",
        )
        assert process.poll() is None, self.tail()
        return process

    @staticmethod
    def pool_children(process: subprocess.Popen[bytes]) -> list[int]:
        """The PIDs of a prefork worker's pool processes (Linux: /proc)."""
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text()
        return [int(pid) for pid in children.split()]

    def beat(self) -> subprocess.Popen[bytes]:
        schedule = self.workdir / "beat-schedule"
        return self._start("beat", "beat", f"--schedule={schedule}")

    def tail(self, lines: int = 60) -> str:
        parts = []
        for log in self.logs:
            text = log.read_text(errors="replace").splitlines()[-lines:]
            parts.append(f"--- {log.name} ---\n" + "\n".join(text))
        return "\n".join(parts)

    def stop_all(self) -> None:
        """SIGTERM to every one at once (they shut down side by side), then each is waited
        for, and SIGKILLed if it is still there after 10 s."""
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="chickenfoot-reliability-"))


@dataclass
class Stack:
    """A test's own Redis, and its own Celery workers and beat on it."""

    redis: RedisServer
    celery: Celery


@contextlib.contextmanager
def own_redis_and_celery(**env: str) -> Iterator[Stack]:
    """A redis-server of our own, and the environment of our own Celery workers and beat on it
    (started by the test), reading and writing the database the test writes to; ``env`` adds to
    or overrides that environment. On leaving, the workers and beat, then the Redis, are stopped
    by PID and their directory removed."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.fail("the worker tests need PostgreSQL (DATABASE_URL), as CI runs them")
    where = workdir()
    redis = RedisServer(where)
    redis.start()
    celery = Celery(
        where,
        {
            "DATABASE_URL": database_url_of_tests(),
            "REDIS_URL": redis.url,
            # The queue this test process sends to: on our own Redis, only our worker reads it.
            "CELERY_QUEUE": celery_app.conf.task_default_queue,
            "DB_CONN_MAX_AGE": "0",
            **env,
        },
    )
    try:
        yield Stack(redis, celery)
    finally:
        celery.stop_all()
        redis.kill()
        shutil.rmtree(where, ignore_errors=True)
