"""The reverse proxy of docker-compose.yml, for real: nginx with the repository's configuration
(``deploy/nginx/chickenfoot.conf.template``, its ports moved to loopback ports of this test's
choosing) in front of a granian (deploy/serve.py) and a uvicorn (deploy/serve_sockets.py) this
test starts, all in the production configuration (``DJANGO_ENV=production``) on a SQLite
database of their own.

It checks what the proxy is there for: slow clients trickling request bodies hold no granian
worker (issue 9: twelve of them kept ``/api/health`` at 7-15 s with gunicorn published
directly), ``/ws/`` reaches uvicorn with the WebSocket upgrade, static files come from nginx,
plain HTTP is redirected and the app sees HTTPS; and that what nginx refuses itself (request
lines and headers too long, malformed requests, ``/admin/`` from outside
``ADMIN_ALLOW_NETWORKS``, and what granian would refuse with an empty answer) is answered as a
problem document. Every process here is this test's own, stopped by its PID (its process group).
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

from chickenfoot.i18n import proxy_problems
from tests.foundation.doc_commands import all_commands
from tests.foundation.errors_doc import PROXY_CODES, documented
from tests.foundation.live_server import (
    PYTHON,
    ROOT,
    Served,
    embedded_env,
    free_port,
    migrated_database,
    production_server,
    serving,
)

NGINX = shutil.which("nginx") or next(
    (path for path in ("/usr/sbin/nginx",) if Path(path).is_file()), None
)
TEMPLATE = ROOT / "deploy" / "nginx" / "chickenfoot.conf.template"
REFUSALS = ROOT / "deploy" / "nginx" / "refusals.js"
#: Where Debian's libnginx-mod-http-js (njs) puts its module; the nginx image's is modules/.
NJS_MODULE = Path("/usr/lib/nginx/modules/ngx_http_js_module.so")
ADMIN_NETWORKS_SCRIPT = ROOT / "deploy" / "nginx" / "admin-networks.sh"
#: The one address (on loopback, where this test connects from) that may reach /admin/.
ADMIN_ADDRESS = "127.0.0.2"
#: The web server's request watchdog in this test (deploy/serve.py's default is 30 s).
STUCK_LIMIT = 6
#: As many slow clients as issue 9's test used.
SLOW_CLIENTS = 12

pytestmark = pytest.mark.skipif(
    NGINX is None and os.environ.get("NGINX_EXPECTED") != "1",
    reason="nginx is not installed (.ci/run installs Debian's nginx-light)",
)


def admin_networks(
    networks: str, out: Path, *, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run the repository's ``admin-networks.sh`` as the nginx image does: the rules for
    ``networks`` (``ADMIN_ALLOW_NETWORKS``) written to ``out``; its output captured."""
    return subprocess.run(  # noqa: S603 - the repository's script
        ["sh", str(ADMIN_NETWORKS_SCRIPT)],  # noqa: S607
        env={
            "PATH": os.environ["PATH"],
            "ADMIN_ALLOW_NETWORKS": networks,
            "NGINX_ADMIN_ALLOW": str(out),
        },
        capture_output=True,
        text=True,
        timeout=30,
        check=check,
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
load_module {NJS_MODULE};
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
    with contextlib.ExitStack() as stop:
        # Two threads in all: without the proxy two slow clients would hold it.
        web = stop.enter_context(
            serving(
                production_server(web_port, workers=1, threads=2),
                port=web_port,
                # a URL that never answers in time (/test/stuck), and a short watchdog for it
                env=env
                | {
                    "DJANGO_SETTINGS_MODULE": "tests.foundation.stuck_settings",
                    "REQUEST_TIMEOUT_SECONDS": str(STUCK_LIMIT),
                },
                log=workdir / "granian.log",
            )
        )
        asgi = stop.enter_context(
            serving(
                # production's (deploy/serve_sockets.py), one worker, on loopback
                [
                    *(PYTHON, str(ROOT / "deploy" / "serve_sockets.py")),
                    *("--host", "127.0.0.1", "--port", str(asgi_port), "--workers", "1"),
                ],
                port=asgi_port,
                env=env,
                log=workdir / "sockets.log",
            )
        )
        admin_allow = workdir / "admin-allow.conf"
        admin_networks(f"{ADMIN_ADDRESS}, ::1", admin_allow)
        main = nginx_configuration(
            workdir,
            {
                "NGINX_ADMIN_ALLOW": str(admin_allow),
                "CHICKENFOOT_WEB": f"127.0.0.1:{web_port}",
                "CHICKENFOOT_ASGI": f"127.0.0.1:{asgi_port}",
                "NGINX_HTTP_PORT": f"127.0.0.1:{http_port}",
                "NGINX_HTTPS_PORT": f"127.0.0.1:{https_port}",
                "NGINX_PUBLIC_HTTPS_PORT": str(https_port),
                "TLS_CERTIFICATE": str(certificate),
                "TLS_CERTIFICATE_KEY": str(workdir / "deploy" / "certs" / "privkey.pem"),
                "STATIC_ROOT": str(static_root),
                "CHICKENFOOT_REFUSALS": str(REFUSALS),
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
        yield Stack(workdir, http_port, https_port, web, asgi, nginx, certificate, static_root)


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
        # and granian has seen the registration (its access log line comes just after the
        # answer) but not one of the slow requests: nginx holds them until they are whole
        deadline = time.monotonic() + 30
        while stack.web.log_text().count('"POST /api/players') == registrations_before:
            assert time.monotonic() < deadline, "granian never logged the registration"
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


def test_websocket_upgrades_reach_the_sockets_server(stack: Stack) -> None:
    # given a player and their open match, made over HTTPS through the proxy (granian)
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

    # then uvicorn answered it: the socket's first frame, then a pong
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
    # and granian itself, reached without the proxy, redirects everything but health
    conn = http.client.HTTPConnection("127.0.0.1", stack.web.port, timeout=30)
    conn.request("GET", "/api/matches")
    response = conn.getresponse()
    assert response.status == 301
    assert response.headers["Location"].startswith("https://")
    conn.close()


# --- What nginx refuses itself: as problem documents, never granian's empty answers ---------


def raw_request(
    stack: Stack, request: bytes, *, source: str = "127.0.0.1", tls: bool = True
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """Send ``request`` as it is, from ``source`` (a loopback address); the answer."""
    port = stack.https_port if tls else stack.http_port
    raw = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    sock = stack.tls().wrap_socket(raw, server_hostname="localhost") if tls else raw
    with sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, response.headers, response.read()


def get(target: bytes, *headers: bytes) -> bytes:
    lines = [b"GET " + target + b" HTTP/1.1", b"Host: localhost", *headers, b"Connection: close"]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def problem_of(answer: tuple[int, http.client.HTTPMessage, bytes], status: int, code: str) -> dict:
    got, headers, body = answer
    assert got == status, body[:500]
    assert headers["Content-Type"] == "application/problem+json", body[:500]
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (status, code)
    assert problem["type"] == "https://chickenfoot.dev/problems/" + code.replace("_", "-")
    assert problem["title"]
    assert problem["detail"]
    return problem


LONG = b"a" * 5000  # past nginx's 4 KiB, within granian's limits: nginx must answer


@pytest.mark.parametrize("tls", [True, False], ids=["https", "http"])
def test_a_request_line_too_long_is_414_problem_json(stack: Stack, tls: bool) -> None:
    answer = raw_request(stack, get(b"/api/health?x=" + LONG), tls=tls)

    problem_of(answer, 414, "uri_too_long")


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param([b"X-Long: " + LONG], id="one-header-too-long"),
        pytest.param([b"Cookie: " + b"c" * 9000], id="a-cookie-too-long"),
        pytest.param([b"X-Part-%d: " % n + b"b" * 3900 for n in range(6)], id="all-too-long"),
    ],
)
def test_headers_too_large_are_431_problem_json(stack: Stack, headers: list[bytes]) -> None:
    answer = raw_request(stack, get(b"/api/health", *headers))

    problem_of(answer, 431, "header_too_large")


@pytest.mark.parametrize(
    "request_",
    [
        pytest.param(get(b"/api/health\x01"), id="control-character-in-the-target"),
        pytest.param(get(b"/api/health", b"X-A\x01: b"), id="control-character-in-a-name"),
        pytest.param(get(b"/api/health", b"X-A: a\x00b"), id="nul-in-a-value"),
        pytest.param(get(b"/api/health", b"X-A: a\x01b"), id="control-character-in-a-value"),
        pytest.param(get(b"/api/health", b"X-A: a\x7fb"), id="delete-in-a-value"),
        pytest.param(
            b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nno colon\r\n\r\n", id="no-colon"
        ),
    ],
)
def test_a_malformed_request_is_400_problem_json(stack: Stack, request_: bytes) -> None:
    answer = raw_request(stack, request_)

    problem_of(answer, 400, "bad_request")


@pytest.mark.parametrize(
    "request_",
    [
        pytest.param(get(b"/api/health", b"X-A: a\x1bb"), id="escape-in-a-value"),
        pytest.param(get(b"/api/health", b"User-Agent: a\x01b"), id="control-in-a-known-header"),
        pytest.param(get(b"/api/health\x80"), id="a-byte-past-ascii-in-the-target"),
        pytest.param(get(b"/api/health?q=\xc3\xa9"), id="utf-8-in-the-query"),
        pytest.param(
            b"POST /api/players HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Type: application/json\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
            id="a-malformed-chunk",
        ),
    ],
)
def test_what_granian_would_refuse_bare_is_refused_by_nginx_as_problem_json(
    stack: Stack, request_: bytes
) -> None:
    """granian answers these with an empty 400 (no body, no type) before the app sees them;
    nginx refuses them first (deploy/nginx/refusals.js, or its own parser)."""
    logged = len(stack.web.log_text().splitlines())

    problem_of(raw_request(stack, request_), 400, "bad_request")

    assert "/api/" not in "".join(stack.web.log_text().splitlines()[logged:])


@pytest.mark.parametrize("fields", [65, 101, 200])
def test_more_header_fields_than_granian_takes_are_431_problem_json(
    stack: Stack, fields: int
) -> None:
    # granian refuses more than 100 fields with an empty 431; nginx refuses past 64 first
    headers = [b"X-F%d: v" % n for n in range(fields - 2)]  # with Host and Connection

    problem_of(raw_request(stack, get(b"/api/health", *headers)), 431, "header_too_large")


def test_what_granian_takes_reaches_the_app(stack: Stack) -> None:
    # 64 fields, a tab and text past ASCII in values: the app answers
    headers = [b"X-F%d: v\tw \xc3\xa9" % n for n in range(62)]

    status, _, body = raw_request(stack, get(b"/api/health", *headers))

    assert status == 200, body[:500]
    assert json.loads(body)["status"] == "ok"


@pytest.fixture(scope="module")
def stuck(stack: Stack) -> tuple[tuple[int, http.client.HTTPMessage, bytes], float]:
    """``/test/stuck`` asked through nginx (once per module): the answer and how long it took;
    returned once the replacement worker answers /api/health."""
    started = time.monotonic()
    answer = raw_request(stack, get(b"/test/stuck"))
    took = time.monotonic() - started
    deadline = time.monotonic() + 60
    while raw_request(stack, get(b"/api/health"))[0] != 200:
        assert time.monotonic() < deadline, stack.web.log_text()[-3000:]
        time.sleep(0.5)
    return answer, took


def test_a_request_stuck_past_the_limit_does_not_take_the_service_down(
    stack: Stack, stuck: tuple[tuple[int, http.client.HTTPMessage, bytes], float]
) -> None:
    """One worker of two threads: a request stuck past REQUEST_TIMEOUT_SECONDS ends the worker
    (chickenfoot/request_watchdog.py), its client gets 502 bad_gateway from nginx as a problem
    document, and granian starts a fresh worker, which answers (the fixture waited for it)."""
    answer, took = stuck

    problem_of(answer, 502, "bad_gateway")
    assert STUCK_LIMIT <= took < STUCK_LIMIT + 10
    log = stack.web.log_text()
    assert "exits to be replaced: GET /test/stuck" in log
    assert "Respawning worker-1" in log
    assert raw_request(stack, get(b"/api/health"))[0] == 200


def test_an_http_version_nginx_does_not_speak_is_505_problem_json(stack: Stack) -> None:
    answer = raw_request(stack, b"GET /api/health HTTP/9.9\r\nHost: localhost\r\n\r\n")

    problem_of(answer, 505, "http_version_not_supported")


def test_each_problem_the_proxy_answers_is_as_documented(
    stack: Stack, stuck: tuple[tuple[int, http.client.HTTPMessage, bytes], float]
) -> None:
    """docs/errors.md's rows for the codes only nginx sends, sent for real."""
    sent = {
        "bad_gateway": stuck[0],
        "uri_too_long": raw_request(stack, get(b"/api/health?x=" + LONG)),
        "header_too_large": raw_request(stack, get(b"/api/health", b"X-Long: " + LONG)),
        "http_version_not_supported": raw_request(
            stack, b"GET / HTTP/9.9\r\nHost: localhost\r\n\r\n"
        ),
        "network_not_allowed": raw_request(stack, get(b"/admin/")),
    }
    assert set(sent) == set(PROXY_CODES)
    for row in documented():
        if row.code in sent:
            problem = problem_of(sent[row.code], row.status, row.code)
            assert problem["title"] == row.title


def test_requests_within_the_limits_reach_the_app(stack: Stack) -> None:
    status, _, body = raw_request(
        stack, get(b"/api/health?x=" + b"a" * 3500, b"X-Long: " + b"b" * 3500)
    )

    assert status == 200, body[:500]
    assert json.loads(body)["status"] == "ok"


def test_the_admin_is_refused_outside_its_networks(stack: Stack) -> None:
    # from an address outside ADMIN_ALLOW_NETWORKS: refused by nginx, never reaching the app
    logged = stack.web.log_text().count("/admin/")
    problem_of(raw_request(stack, get(b"/admin/login/")), 403, "network_not_allowed")
    problem_of(raw_request(stack, get(b"/admin/%6Cogin/")), 403, "network_not_allowed")
    assert stack.web.log_text().count("/admin/") == logged
    # from the network allowed: Django's log-in page
    status, headers, body = raw_request(stack, get(b"/admin/login/"), source=ADMIN_ADDRESS)
    assert status == 200, body[:500]
    assert headers["Content-Type"].startswith("text/html")
    assert b"csrfmiddlewaretoken" in body
    # and the rest of the site is open to everyone, as before
    assert raw_request(stack, get(b"/api/health"))[0] == 200


def test_the_metrics_are_never_published(stack: Stack) -> None:
    logged = stack.web.log_text().count("etrics")
    for target in (b"/metrics", b"/%6Detrics", b"//metrics", b"/metrics?x=1"):
        for headers in ((), (b"Authorization: Bearer anything",)):
            problem = problem_of(raw_request(stack, get(target, *headers)), 404, "not_found")
            assert problem["detail"] == "Nothing is served at /metrics."
    # nginx answered every one itself: granian saw none of them
    assert stack.web.log_text().count("etrics") == logged


@pytest.mark.parametrize(
    ("networks", "rules"),
    [
        ("", ["allow all;"]),
        (
            "10.0.0.0/8, 192.168.1.7 2001:db8::/32",
            ["allow 10.0.0.0/8;", "allow 192.168.1.7;", "allow 2001:db8::/32;", "deny all;"],
        ),
    ],
)
def test_the_admin_networks_script_writes_the_rules(
    tmp_path: Path, networks: str, rules: list[str]
) -> None:
    out = tmp_path / "admin-allow.conf"
    admin_networks(networks, out)
    lines = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert lines == rules


@pytest.mark.parametrize("networks", ["all", "10.0.0.0/8; allow all", "10.0.0.0/8\nallow all"])
def test_the_admin_networks_script_refuses_anything_else(tmp_path: Path, networks: str) -> None:
    out = tmp_path / "admin-allow.conf"
    done = admin_networks(networks, out, check=False)
    assert done.returncode != 0
    assert "not an address or network" in done.stderr
    assert not out.exists()


# --- nginx's own problems, in the client's language -----------------------------------------


#: What nginx refuses from the request line alone, before it reads Accept-Language.
REFUSED_BEFORE_THE_HEADERS = ("uri-too-long", "http-version-not-supported")


def proxy_documents(language: str) -> dict[str, dict]:
    """Each document of ``deploy/nginx/problem_texts.js`` in ``language``, by name (the file is
    what ``proxy_problems.table`` holds: tests/foundation/test_proxy_problems.py)."""
    written = proxy_problems.table()
    return {
        name: json.loads(entry["bodies"][language]) for name, entry in written["problems"].items()
    }


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        pytest.param(None, "en", id="none"),
        pytest.param(b"lo", "lo", id="lo"),
        pytest.param(b"lo-LA", "lo", id="a-region-dropped"),
        pytest.param(b"th-TH,th;q=0.9,en;q=0.8", "th", id="th-first"),
        pytest.param(b"en;q=0.5, HY", "hy", id="by-quality-any-case"),
        pytest.param(b"fr, de;q=0.9, ceb;q=0.3", "ceb", id="the-first-spoken"),
        pytest.param(b"fr", "en", id="none-spoken"),
        pytest.param(b"*, lo;q=0.5", "en", id="any"),
        pytest.param(b"lo;q=0, th;q=0.1", "th", id="q0-is-not-acceptable"),
    ],
)
def test_the_proxy_s_problems_are_in_the_language_the_client_asks_for(
    stack: Stack, accept: bytes | None, language: str
) -> None:
    """What nginx answers itself is translated as the app's problems are: the document of
    ``problem_texts.js`` in the language of ``Accept-Language`` (``code``, ``type`` and
    ``status`` the same in every one), with ``Content-Language`` and ``Vary``. A request line
    too long, or of an HTTP version nginx does not speak, is refused before any header is read:
    in English."""
    asks = (b"Accept-Language: " + accept,) if accept else ()
    too_large = (
        b"POST /api/players HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + b"".join(line + b"\r\n" for line in asks)
        + b"Content-Length: 10000000\r\nConnection: close\r\n\r\n"
    )
    sent = {
        "uri-too-long": raw_request(stack, get(b"/api/health?x=" + LONG, *asks)),
        "header-too-large": raw_request(stack, get(b"/api/health", *asks, b"X-Long: " + LONG)),
        "bad-request": raw_request(stack, get(b"/api/health", *asks, b"X-A: a\x01b")),
        "http-version-not-supported": raw_request(
            stack,
            b"GET / HTTP/9.9\r\nHost: localhost\r\n"
            + b"".join(line + b"\r\n" for line in asks)
            + b"\r\n",
        ),
        "network-not-allowed": raw_request(stack, get(b"/admin/", *asks)),
        "metrics": raw_request(stack, get(b"/metrics", *asks)),
        "not-found": raw_request(stack, get(b"/_problems/bad-request", *asks)),
        "body-too-large": raw_request(stack, too_large),
    }
    documents = proxy_documents(language)
    for name, answer in sent.items():
        spoken = "en" if name in REFUSED_BEFORE_THE_HEADERS else language
        document = proxy_documents(spoken)[name]
        got = problem_of(answer, document["status"], document["code"])
        assert got == document, name
        _, headers, _ = answer
        assert headers["Content-Language"] == spoken, name
        assert headers["Vary"] == "Accept-Language", name
    # the documents differ from English's in their words only
    english = proxy_documents("en")
    for name, document in documents.items():
        assert {k: v for k, v in document.items() if k not in ("title", "detail")} == {
            k: v for k, v in english[name].items() if k not in ("title", "detail")
        }
