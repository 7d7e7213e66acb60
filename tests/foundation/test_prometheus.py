"""A real Prometheus (Debian's ``prometheus``) scrapes a real granian (deploy/serve.py): the
scrape job of docs/operations.md, "Metrics", with its bearer token, against two granian workers in
multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``), and Prometheus' query API then shows the moves
played. Every process here is this test's own, on loopback, stopped by its process group."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import shutil
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.foundation.live_server import (
    ROOT,
    Served,
    embedded_env,
    free_port,
    migrated_database,
    production_server,
    request,
    serving,
    stop,
)

PROMETHEUS = shutil.which("prometheus") or next(
    (path for path in ("/usr/bin/prometheus",) if Path(path).is_file()), None
)

pytestmark = pytest.mark.skipif(
    PROMETHEUS is None and os.environ.get("PROMETHEUS_EXPECTED") != "1",
    reason="prometheus is not installed (.ci/run installs Debian's prometheus)",
)


def scrape_config(token_file: Path, target: str) -> str:
    """docs/operations.md's scrape job, its target and token file put in, scraping each second."""
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    config = next(block for block in blocks if "job_name: chickenfoot" in block)
    return (
        config.replace("/run/secrets/metrics_token", str(token_file))
        .replace("web:8000", target)
        .replace("scrape_interval: 15s", "scrape_interval: 1s")
    )


def endpoint_moves(port: int, token: str) -> float:
    """``chickenfoot_moves_total`` as the endpoint answers it, summed over the games."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/metrics", headers={"Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        body = response.read().decode()
    finally:
        conn.close()
    assert response.status == 200, body[:500]
    return sum(
        sample.value
        for family in text_string_to_metric_families(body)
        for sample in family.samples
        if sample.name == "chickenfoot_moves_total"
    )


def prometheus_query(port: int, query: str) -> list[dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/api/v1/query?" + urllib.parse.urlencode({"query": query}))
        body = json.loads(conn.getresponse().read())
    finally:
        conn.close()
    assert body["status"] == "success", body
    return list(body["data"]["result"])


@contextlib.contextmanager
def prometheus(config: Path, workdir: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    assert PROMETHEUS is not None, "prometheus is not installed (.ci/run installs it)"
    log = workdir / "prometheus.log"
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 - Debian's prometheus, our configuration
            [
                PROMETHEUS,
                f"--config.file={config}",
                f"--storage.tsdb.path={workdir / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{port}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        stop(process)


def wait_until(predicate: Any, what: str, process: subprocess.Popen[bytes], log: Path) -> Any:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, f"prometheus exited:\n{log.read_text(errors='replace')}"
        with contextlib.suppress(OSError, http.client.HTTPException, ValueError):
            found = predicate()
            if found:
                return found
        time.sleep(0.5)
    raise AssertionError(f"{what} within 60 s:\n{log.read_text(errors='replace')[-3000:]}")


@pytest.fixture
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str, Path]]:
    workdir = tmp_path_factory.mktemp("prometheus-web")
    database = workdir / "db.sqlite3"
    migrated_database(tmp_path_factory.getbasetemp(), database)
    multiproc = workdir / "multiproc"
    multiproc.mkdir()
    # a former run's file: deploy/serve.py removes it before any worker writes there
    (multiproc / "counter_1.db").write_bytes(b"not a metrics file of this run")
    token = secrets.token_urlsafe(32)
    port = free_port()
    env = embedded_env(database, METRICS_TOKEN=token, PROMETHEUS_MULTIPROC_DIR=str(multiproc))
    command = production_server(port, workers=2, threads=2)
    with serving(command, port=port, env=env, log=workdir / "granian.log") as served:
        yield served, token, multiproc


def play_against_a_bot(port: int) -> int:
    """Register, play a match against a bot for a few moves; how many the player made."""
    status, _, body = request(
        port, "POST", "/api/players", {"username": "ada", "password": "correct horse battery"}
    )
    assert status == 201, body
    token = body["token"]
    status, _, match = request(
        port,
        "POST",
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"rounds": 1},
            "seats": [{"kind": "creator"}, {"kind": "bot", "level": 1}],
        },
        token=token,
    )
    assert status == 201, match
    status, _, started = request(port, "POST", f"/api/matches/{match['id']}/start", token=token)
    assert status == 200, started
    played = 0
    for _ in range(3):
        status, _, legal = request(
            port, "GET", f"/api/matches/{match['id']}/legal-moves", token=token
        )
        if status != 200 or not legal.get("moves"):
            break
        move = {**legal["moves"][0], "version": legal["version"]}
        status, _, moved = request(port, "POST", f"/api/matches/{match['id']}/moves", move, token)
        assert status == 201, moved
        played += 1
    return played


def test_prometheus_scrapes_the_moves(web: tuple[Served, str, Path], tmp_path: Path) -> None:
    served, token, multiproc = web
    token_file = tmp_path / "metrics_token"
    token_file.write_text(token, encoding="utf-8")
    config = tmp_path / "prometheus.yml"
    config.write_text(scrape_config(token_file, f"127.0.0.1:{served.port}"), encoding="utf-8")
    port = free_port()

    # given moves played on two granian workers
    played = play_against_a_bot(served.port)
    expected = endpoint_moves(served.port, token)
    assert played >= 1
    assert expected >= played  # the player's, and the bot's replies
    # kept in the workers' files (multiprocess mode), whichever worker answers
    assert list(multiproc.glob("counter_*.db"))
    assert not (multiproc / "counter_1.db").exists()
    assert {endpoint_moves(served.port, token) for _ in range(6)} == {expected}

    with prometheus(config, tmp_path, port) as process:
        log = tmp_path / "prometheus.log"
        # then Prometheus, scraping with the token, shows every one of them
        result = wait_until(
            lambda: [
                row
                for row in prometheus_query(port, "sum(chickenfoot_moves_total)")
                if float(row["value"][1]) == expected
            ],
            f"Prometheus did not show {expected} moves",
            process,
            log,
        )
        assert result
        # and the target is up: the scrape was authorised
        up = prometheus_query(port, 'up{job="chickenfoot"}')
        assert [row["value"][1] for row in up] == ["1"], up
        routes = prometheus_query(port, "chickenfoot_http_requests_total")
        assert any(
            row["metric"].get("route") == "/api/matches/<int:match_id>/moves" for row in routes
        ), routes
