"""docker-compose.yml is what the README's "Production shape" says it is.

The suite runs where no Docker daemon is; this checks the file the README's commands use
(``docker compose up --build``, ``docker compose up --scale worker=3``), and lets Docker itself
validate it (``docker compose config``) where the compose plugin is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def test_compose_runs_what_the_readme_says() -> None:
    services = compose()["services"]
    # given the README's list: PostgreSQL 16, Redis 7, a one-shot migrate, the API, a worker
    assert {"postgres", "redis", "migrate", "web", "worker"} <= set(services)
    assert str(services["postgres"]["image"]).startswith("postgres:16")
    assert str(services["redis"]["image"]).startswith("redis:7")
    assert "migrate" in services["migrate"]["command"]
    # the API is built from the one Dockerfile and health-checked at /api/health
    assert (ROOT / "Dockerfile").is_file()
    for name in ("migrate", "web", "worker"):
        assert services[name].get("build") or services[name].get("image") == "chickenfoot:latest"
    assert "/api/health" in " ".join(map(str, services["web"]["healthcheck"]["test"]))
    # SECRET_KEY comes from the environment the command sets, with no default to fall back on
    for name in ("migrate", "web", "worker", "beat", "asgi"):
        secret = str(services[name]["environment"]["SECRET_KEY"])
        assert secret.startswith("${SECRET_KEY:?"), secret
    # and workers can be scaled: no fixed name, no host port of their own
    worker = services["worker"]
    assert "worker" in " ".join(map(str, worker["command"]))
    assert "container_name" not in worker
    assert "ports" not in worker


@pytest.mark.skipif(shutil.which("docker") is None, reason="docker is not installed")
def test_docker_validates_the_compose_file() -> None:
    plugin = subprocess.run(
        ["docker", "compose", "version"],  # noqa: S607
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    if plugin.returncode != 0:
        pytest.skip("the docker compose plugin is not installed")
    result = subprocess.run(
        ["docker", "compose", "config", "--quiet"],  # noqa: S607
        cwd=ROOT,
        env=os.environ | {"SECRET_KEY": "a long random string"},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
