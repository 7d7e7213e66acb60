"""The reverse proxy of docker-compose.yml, for real: nginx with the repository's configuration
(``deploy/nginx/chickenfoot.conf.template``, its ports moved to loopback ports of this test's
choosing) in front of a gunicorn and a Daphne this test starts, all in the production
configuration (``DJANGO_ENV=production``) on a SQLite database of their own.

It checks what the proxy is there for: slow clients trickling request bodies hold no gunicorn
worker (issue 9: twelve of them kept ``/api/health`` at 7-15 s with gunicorn published
directly), ``/ws/`` reaches Daphne with the WebSocket upgrade, static files come from nginx,
plain HTTP is redirected and the app sees HTTPS. Every process here is this test's own, stopped
by its PID (its process group).
"""

from __future__ import annotations

import contextlib
import getpass
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import string
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.foundation.doc_commands import all_commands
from tests.foundation.live_server import (
    PYTHON,
    ROOT,
    Served,
    embedded_env,
    free_port,
    migrated_database,
    serving,
)

NGINX = shutil.which("nginx") or next(
    (path for path in ("/usr/sbin/nginx",) if Path(path).is_file()), None
)
TEMPLATE = ROOT / "deploy" / "nginx" / "chickenfoot.conf.template"
#: As many slow clients as issue 9's test used.
SLOW_CLIENTS = 12

pytestmark = pytest.mark.skipif(
    NGINX is None and os.environ.get("NGINX_EXPECTED") != "1",
    reason="nginx is not installed (.ci/run installs Debian's nginx-light)",
)


def readme_certificate_command() -> str:
    """The README's command that makes a self-signed certificate for a trial run."""
    commands = [c.text for c in all_commands() if c.normalised.startswith("mkdir -p deploy/certs")]
    assert len(commands) == 1, "the README shows one command that makes deploy/certs"
    return commands[0]


@dataclass
class Stack:
    workdir: Path
    http_port: int
    https_port: int
    web: Served
    asgi: Served
    nginx: subprocess.Popen[bytes]
    certificate: Path
    static_root: Path

    def tls(self) -> ssl.SSLContext:
        """Verifies the proxy's certificate (made by the README's command) for ``localhost``."""
        return ssl.create_default_context(cafile=str(self.certificate))

    def https(self, timeout: float = 30) -> http.client.HTTPSConnection:
        return http.client.HTTPSConnection(
            "localhost", self.https_port, timeout=timeout, context=self.tls()
        )

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        timeout: float = 30,
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        conn = self.https(timeout)
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
            return response.status, response.headers, response.read()
        finally:
            conn.close()


def nginx_configuration(workdir: Path, values: dict[str, str]) -> Path:
    """The repository's server configuration with ``values`` put in (as the nginx image's
    envsubst does), inside a main configuration that keeps every file in ``workdir``."""
    server = string.Template(TEMPLATE.read_text(encoding="utf-8")).safe_substitute(values)
    leftover = re.findall(r"\$\{\w+\}", server)
    assert not leftover, f"the template uses variables this test does not set: {leftover}"
    (workdir / "chickenfoot.conf").write_text(server, encoding="utf-8")
    temp = workdir / "nginx-temp"
    temp.mkdir()
    main = workdir / "nginx.conf"
    main.write_text(
        f"""
daemon off;
# Workers run as this test's user, so that they can read its files (ignored when not root).
user {getpass.getuser()};
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log info;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {workdir}/nginx-access.log;
    client_body_temp_path {temp}/client-body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {workdir}/chickenfoot.conf;
}}
""",
        encoding="utf-8",
    )
    return main


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, f"nginx exited:\n{log.read_text(errors='replace')}"
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.1)
    raise AssertionError(f"nginx did not listen on {port}:\n{log.read_text(errors='replace')}")


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """Stop the process group this test started (nginx's master and its worker) by its id."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    assert NGINX is not None, "nginx is not installed (.ci/run installs Debian's nginx-light)"
    workdir = tmp_path_factory.mktemp("proxy")
    database = workdir / "db.sqlite3"
    migrated_database(tmp_path_factory.getbasetemp(), database)
    static_root = workdir / "static"
    env = embedded_env(
        database,
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        STATIC_ROOT=str(static_root),
        ALLOWED_HOSTS="localhost,127.0.0.1",
    )
    subprocess.run(  # noqa: S603 - our own interpreter
        [PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    subprocess.run(  # noqa: S603 - the README's command, as it shows it
        ["bash", "-c", readme_certificate_command()],  # noqa: S607
        cwd=workdir,
        check=True,
        capture_output=True,
        timeout=60,
    )
    certificate = workdir / "deploy" / "certs" / "fullchain.pem"
    web_port, asgi_port, http_port, https_port = (free_port() for _ in range(4))
    bin_dir = Path(PYTHON).parent
    with contextlib.ExitStack() as stop:
        # Two threads in all: without the proxy two slow clients would hold it.
        web = stop.enter_context(
            serving(
                [
                    *(str(bin_dir / "gunicorn"), "chickenfoot.wsgi:application"),
                    *("--bind", f"127.0.0.1:{web_port}", "--worker-class", "gthread"),
                    *("--workers", "1", "--threads", "2", "--access-logfile", "-"),
                ],
                port=web_port,
                env=env,
                log=workdir / "gunicorn.log",
            )
        )
        asgi = stop.enter_context(
            serving(
                [
                    *(str(bin_dir / "daphne"), "-b", "127.0.0.1", "-p", str(asgi_port)),
                    "chickenfoot.asgi:application",
                ],
                port=asgi_port,
                env=env,
                log=workdir / "daphne.log",
            )
        )
        main = nginx_configuration(
            workdir,
            {
                "CHICKENFOOT_WEB": f"127.0.0.1:{web_port}",
                "CHICKENFOOT_ASGI": f"127.0.0.1:{asgi_port}",
                "NGINX_HTTP_PORT": f"127.0.0.1:{http_port}",
                "NGINX_HTTPS_PORT": f"127.0.0.1:{https_port}",
                "NGINX_PUBLIC_HTTPS_PORT": str(https_port),
                "TLS_CERTIFICATE": str(certificate),
                "TLS_CERTIFICATE_KEY": str(workdir / "deploy" / "certs" / "privkey.pem"),
                "STATIC_ROOT": str(static_root),
            },
        )
        errors = workdir / "nginx-error.log"
        with (workdir / "nginx.out").open("wb") as out:
            nginx = subprocess.Popen(  # noqa: S603 - nginx with our own configuration
                [NGINX, "-c", str(main), "-p", str(workdir), "-e", str(errors)],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        stop.callback(stop_group, nginx)
        wait_for_port(https_port, nginx, errors)
        yield Stack(
            workdir, http_port, https_port, web, asgi, nginx, certificate, static_root
        )


def register(stack: Stack, username: str) -> str:
    status, _, body = stack.request(
        "POST", "/api/players", {"username": username, "password": "correct horse battery"}
    )
    assert status == 201, body
    return str(json.loads(body)["token"])


class SlowClient:
    """A client that sends a request's headers, then its body one byte at a time."""

    def __init__(self, stack: Stack, body_length: int) -> None:
        raw = socket.create_connection(("127.0.0.1", stack.https_port), timeout=30)
        self.sock = stack.tls().wrap_socket(raw, server_hostname="localhost")
        self.sock.sendall(
            b"POST /api/players HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\n"
            + f"Content-Length: {body_length}\r\n\r\n".encode()
        )
        self.sent = 0

    def trickle(self) -> None:
        self.sock.sendall(b" ")
        self.sent += 1

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def test_slow_clients_hold_no_app_worker(stack: Stack) -> None:
    # given twelve clients each trickling a request body, a byte every 0.3 s (well inside
    # nginx's 10 s between reads, so none is dropped)
    registrations_before = stack.web.log_text().count('"POST /api/players')
    clients = [SlowClient(stack, body_length=100_000) for _ in range(SLOW_CLIENTS)]
    done = threading.Event()

    def trickle() -> None:
        while not done.wait(0.3):
            for client in clients:
                client.trickle()

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        while min(client.sent for client in clients) < 5:  # every one of them is trickling
            time.sleep(0.1)

        # when health is asked through the proxy (a bounded wait: alive, not fast)
        status, _, body = stack.request("GET", "/api/health", timeout=30)
        # and the API does real work
        token = register(stack, "quick")

        # then both answer while every slow client is still sending
        assert status == 200, body
        assert json.loads(body)["status"] == "ok"
        assert token
        assert trickler.is_alive()
        assert all(client.sent < 100_000 for client in clients)
        # and gunicorn has seen the registration (its access log line comes just after the
        # answer) but not one of the slow requests: nginx holds them until they are whole
        deadline = time.monotonic() + 30
        while stack.web.log_text().count('"POST /api/players') == registrations_before:
            assert time.monotonic() < deadline, "gunicorn never logged the registration"
            time.sleep(0.1)
        log = stack.web.log_text()
        assert log.count('"POST /api/players') == registrations_before + 1, log[-3000:]
        assert '"GET /api/health' in log
        assert all(client.sent < 100_000 for client in clients)
    finally:
        done.set()
        trickler.join(5)
        for client in clients:
            client.close()


def test_an_oversized_body_is_refused_unread_with_a_problem(stack: Stack) -> None:
    raw = socket.create_connection(("127.0.0.1", stack.https_port), timeout=30)
    with stack.tls().wrap_socket(raw, server_hostname="localhost") as sock:
        sock.sendall(
            b"POST /api/players HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10000000\r\nConnection: close\r\n\r\n"
        )
        response = http.client.HTTPResponse(sock)
        response.begin()
        body = response.read()
    assert response.status == 413
    assert response.headers["Content-Type"] == "application/problem+json"
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (413, "body_too_large")


def test_websocket_upgrades_reach_daphne(stack: Stack) -> None:
    # given a player and their open match, made over HTTPS through the proxy (gunicorn)
    token = register(stack, "ada")
    status, _, body = stack.request(
        "POST",
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"rounds": 1},
            "seats": [{"kind": "creator"}, {"kind": "bot", "level": 1}],
        },
        token=token,
    )
    assert status == 201, body
    match = json.loads(body)

    # when the player opens the match's socket through the proxy
    with connect(
        f"wss://localhost:{stack.https_port}/ws/matches/{match['id']}",
        ssl=stack.tls(),
        additional_headers={"Authorization": f"Token {token}"},
        open_timeout=30,
    ) as socket_:
        hello = json.loads(socket_.recv(timeout=30))
        socket_.send(json.dumps({"type": "ping"}))
        # (a presence notice may come before the pong: this socket opened)
        types: list[str] = []
        while "pong" not in types and len(types) < 5:
            types.append(json.loads(socket_.recv(timeout=30))["type"])

    # then Daphne answered it: the socket's first frame, then a pong
    assert hello["type"] == "hello"
    assert hello["match"]["id"] == match["id"]
    assert "pong" in types, types
    assert f"/ws/matches/{match['id']}" not in stack.web.log_text()


def test_the_readme_certificate_serves_tls(stack: Stack) -> None:
    """The README's self-signed certificate verifies for both names it is made for."""
    for host in ("localhost", "127.0.0.1"):
        raw = socket.create_connection(("127.0.0.1", stack.https_port), timeout=30)
        with stack.tls().wrap_socket(raw, server_hostname=host) as sock:
            assert sock.version() in ("TLSv1.2", "TLSv1.3")
            assert sock.getpeercert()["subject"] == ((("commonName", "localhost"),),)


def test_static_files_come_from_nginx(stack: Stack) -> None:
    for path, content_type in (
        ("/static/admin/css/base.css", "text/css"),
        ("/static/games/web/api.js", "application/javascript"),
    ):
        status, headers, body = stack.request("GET", path)
        assert status == 200, path
        assert headers["Content-Type"].startswith(content_type)
        assert body == (stack.static_root / path.removeprefix("/static/")).read_bytes()
    assert "/static/" not in stack.web.log_text()


def test_the_app_sees_https_and_plain_http_is_redirected(stack: Stack) -> None:
    # through the proxy the app knows the request is secure: it sends HSTS
    status, headers, _ = stack.request("GET", "/api/health")
    assert status == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    # plain HTTP to the proxy is sent to HTTPS
    conn = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=30)
    conn.request("GET", "/api/matches?status=open")
    response = conn.getresponse()
    assert response.status == 301
    assert response.headers["Location"] == (
        f"https://127.0.0.1:{stack.https_port}/api/matches?status=open"
    )
    conn.close()
    # and gunicorn itself, reached without the proxy, redirects everything but health
    conn = http.client.HTTPConnection("127.0.0.1", stack.web.port, timeout=30)
    conn.request("GET", "/api/matches")
    response = conn.getresponse()
    assert response.status == 301
    assert response.headers["Location"].startswith("https://")
    conn.close()
