"""``benchmarks.api``'s JSON line and serving layer, without PostgreSQL: every key it prints is
described in docs/api.md (CI's brief runs check each is printed, ``benchmarks.keys``), its
targets are judged as the docs say, its default server is the Dockerfile's, and its nginx
proxies as production's does, keeping connections to the app server alive."""

from __future__ import annotations

import io
import json
import re
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from benchmarks import api, keys, login_flood, serving
from benchmarks.http_client import Client
from tests.foundation.live_server import serve_module

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx" / "chickenfoot.conf.template"


def test_every_key_is_described_in_the_docs() -> None:
    docs = (ROOT / "docs" / "api.md").read_text()
    section = docs[docs.index("## Benchmark") : docs.index("### Bot strength")]
    for key in api.KEYS:
        assert f"`{key.rsplit('.', 1)[-1]}`" in section, f"docs/api.md does not describe {key}"


def test_every_key_the_flood_adds_is_described_in_the_docs() -> None:
    docs = (ROOT / "docs" / "reliability.md").read_text()
    section = docs[docs.index("### The flood benchmark") : docs.index("### Known addresses")]
    for key in login_flood.KEYS:
        assert f"`{key.rsplit('.', 1)[-1]}`" in section, f"docs/reliability.md lacks {key}"


def test_the_flood_targets_are_judged_as_the_docs_say() -> None:
    judged = login_flood.targets(
        {"flood_to_idle": 1.4, "known_device_login_success": 0.9, "known_device_login_p95_ms": 900}
    )

    assert judged["flood_to_idle"] == {"value": 1.4, "at_most": 2, "met": True}
    assert judged["known_device_login_success"] == {"value": 0.9, "at_least": 0.95, "met": False}
    assert judged["known_device_login_p95_ms"]["met"] is True
    assert login_flood.targets({})["flood_to_idle"]["met"] is None


def test_the_key_check_reads_the_keys_of_every_module_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    line = {key.split(".")[0]: {"flood_to_idle": 1} for key in api.KEYS + login_flood.KEYS}
    monkeypatch.setattr("sys.stdin", io.StringIO("noise\n" + json.dumps(line) + "\n"))
    assert keys.main(["benchmarks.api", "benchmarks.login_flood"]) == 1  # nested ones lack

    complete = dict(line)
    complete["targets"] = {
        key.split(".")[1]: {} for key in api.KEYS + login_flood.KEYS if "." in key
    }
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(complete) + "\n"))
    assert keys.main(["benchmarks.api", "benchmarks.login_flood"]) == 0
    del complete["known_device_login_success"]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(complete) + "\n"))
    assert keys.main(["benchmarks.api", "benchmarks.login_flood"]) == 1
    assert "known_device_login_success" in capsys.readouterr().err


def test_the_key_check_names_what_is_missing() -> None:
    summary = {"moves_per_s": 1, "targets": {"moves_per_s": {}}}
    assert keys.missing(summary, ("moves_per_s", "targets.moves_per_s")) == []
    assert keys.missing(summary, ("loaded", "targets.move_to_get", "moves_per_s.x")) == [
        "loaded",
        "targets.move_to_get",
        "moves_per_s.x",
    ]


def test_targets_are_met_or_not_or_unknown() -> None:
    judged = api.targets(
        {"server_to_db_cpu": 3.0, "match_view_to_legal_moves": 2.5, "moves_per_s": 200.0}
    )
    assert judged["server_to_db_cpu"] == {"value": 3.0, "at_most": 3, "met": True}
    assert judged["match_view_to_legal_moves"]["met"] is False
    assert judged["moves_per_s"] == {"value": 200.0, "at_least": 200, "met": True}
    assert judged["move_to_get"] == {"value": None, "at_most": 3, "met": None}


def dockerfile_command() -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("CMD "))
    return [word.strip('",[]') for word in shlex.split(line.removeprefix("CMD "))]


def test_the_default_server_is_the_dockerfiles() -> None:
    parsed = api.build_parser().parse_args([])
    command = serving.server_command("python", parsed.server, 8000, parsed.workers, parsed.threads)[
        1:
    ]
    production = [word for word in dockerfile_command() if word]

    def options(words: list[str]) -> dict[str, str]:
        return {w: words[i + 1] for i, w in enumerate(words) if w.startswith("--")}

    # the Dockerfile's deploy/serve.py, with its own workers and threads
    assert production[:2] == ["python", "deploy/serve.py"]
    assert command[0] == str(serving.SERVE) == str(ROOT / production[1])
    serve_options = options(list(serve_module().OPTIONS))
    assert options(command)["--workers"] == serve_options["--workers"]
    assert options(command)["--blocking-threads"] == serve_options["--blocking-threads"]


def directives(text: str, names: tuple[str, ...]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for match in re.finditer(r"^\s*(\w+)\s+([^;{]*);", text, re.MULTILINE):
        if match.group(1) in names:
            found.setdefault(match.group(1), set()).add(match.group(2).strip())
    return found


def test_the_benchmark_nginx_proxies_as_production_does() -> None:
    names = (
        *("keepalive", "keepalive_timeout", "proxy_http_version", "proxy_request_buffering"),
        *("proxy_buffering", "client_body_buffer_size", "client_max_body_size"),
        *("client_header_buffer_size", "large_client_header_buffers", "proxy_read_timeout"),
    )
    ours = serving.NGINX_CONF.format(dir="/d", port=1, upstream=2, njs="/m", refusals="/r")
    # the sockets' location (not proxied by the benchmark) sets its own buffering and timeouts
    template = re.sub(r"location /ws/ \{[^}]*\}", "", TEMPLATE.read_text())
    assert directives(ours, names) == directives(template, names)
    headers = 'proxy_set_header Connection "";'
    assert headers in ours
    refusal = "js_set $chickenfoot_refusal chickenfoot_refusals.refusal;"
    assert refusal in ours
    assert refusal in TEMPLATE.read_text()
    assert headers in TEMPLATE.read_text()


class Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    connections: set[tuple[str, int]] = set()

    def do_GET(self) -> None:
        Upstream.connections.add(self.client_address)
        body = b'{"status": "ok"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def upstream() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.skipif(
    not (shutil.which("nginx") or Path(serving.NGINX).is_file()),
    reason="nginx is not installed (.ci/run installs Debian's nginx-light)",
)
def test_the_benchmark_nginx_keeps_both_connections_alive(upstream: int) -> None:
    port = api.free_port()
    proxy = serving.start_nginx(port, upstream)
    try:
        api.wait_for_server(port, proxy.process)
        Upstream.connections.clear()
        client = Client(port)
        for _ in range(5):
            status, body, _ = client.call("GET", "/api/health")
            assert (status, body) == (200, {"status": "ok"})
        client.close()
        # one nginx worker served the one client connection, over one kept-alive upstream one
        assert len(Upstream.connections) == 1
        assert serving.process_tree_cpu(proxy.process.pid) >= 0
    finally:
        proxy.stop()
    assert proxy.process.poll() is not None


def test_a_process_trees_cpu_keeps_what_its_ended_children_used() -> None:
    # given: a process whose child burns a little CPU and ends (waited for by its parent)
    code = (
        "import subprocess, sys, time; "
        "subprocess.run([sys.executable, '-c', "
        "'import time\\nend = time.process_time() + 0.3\\nwhile time.process_time() < end: pass'"
        "], check=True); "
        "print('done', flush=True); time.sleep(30)"
    )
    parent = subprocess.Popen(  # noqa: S603 - our interpreter, a fixed command
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip() == "done"
        # then: the tree's CPU still counts the child's 0.3 s, though the child is gone
        assert serving.process_tree_cpu(parent.pid) >= 0.25
    finally:
        parent.kill()
        parent.wait()
