"""The serving layer of ``benchmarks.api``: the WSGI server it starts, nginx in front of it when
asked, and the CPU each process group spends.

Servers (``--server``):

- ``granian``: production's (the Dockerfile's ``deploy/serve.py``): granian's WSGI interface,
  ``--workers`` processes of ``--threads`` blocking threads each, connections kept alive;
- ``gthread``: gunicorn's threaded workers (``--workers`` x ``--threads``), connections kept
  alive 30 s, as production ran before;
- ``sync``: gunicorn's synchronous workers (one request at a time each, ``--workers``; they close
  every connection after its answer).

``--proxy nginx`` puts nginx in front (a configuration of its own in a temporary directory, on a
free loopback port: plain HTTP, no TLS, otherwise the proxying of
``deploy/nginx/chickenfoot.conf.template``: whole requests and answers buffered, HTTP/1.1 with
idle connections to the app server kept alive for reuse, the forwarding headers set, every
request looked at by ``deploy/nginx/refusals.js``, as production's is); the
clients then talk to nginx, with keep-alive.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SERVERS = ("granian", "gthread", "sync")
PROXIES = ("none", "nginx")
TICK = os.sysconf("SC_CLK_TCK")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
#: Production's server command (the Dockerfile's CMD).
SERVE = Path(__file__).resolve().parents[1] / "deploy" / "serve.py"


def server_command(python: str, kind: str, port: int, workers: int, threads: int) -> list[str]:
    """The command that serves ``chickenfoot.wsgi:application`` on ``127.0.0.1:port``."""
    if kind == "granian":
        return [
            *(python, str(SERVE), "--host", "127.0.0.1", "--port", str(port)),
            *("--workers", str(workers), "--blocking-threads", str(threads)),
            *("--log-level", "warning"),
        ]
    command = [
        *(python, "-m", "gunicorn", "chickenfoot.wsgi:application"),
        *("--bind", f"127.0.0.1:{port}"),
        *("--workers", str(workers), "--log-level", "warning", "--timeout", "30"),
    ]
    if kind == "gthread":
        command += ["--worker-class", "gthread", "--threads", str(threads), "--keep-alive", "30"]
    else:
        command += ["--worker-class", "sync"]
    return command


def describe(kind: str, workers: int, threads: int) -> str:
    if kind == "sync":
        return f"gunicorn sync, {workers} workers"
    name = "gunicorn gthread" if kind == "gthread" else "granian wsgi"
    return f"{name}, {workers} workers x {threads} threads"


#: nginx's njs module (Debian's libnginx-mod-http-js), for production's refusals.
NJS_MODULE = "/usr/lib/nginx/modules/ngx_http_js_module.so"
REFUSALS = Path(__file__).resolve().parents[1] / "deploy" / "nginx" / "refusals.js"

NGINX_CONF = """\
load_module {njs};
worker_processes auto;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/client-body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    js_import chickenfoot_refusals from {refusals};
    js_set $chickenfoot_refusal chickenfoot_refusals.refusal;
    upstream chickenfoot_web {{
        server 127.0.0.1:{upstream};
        keepalive 16;
        keepalive_timeout 20s;
    }}
    server {{
        listen 127.0.0.1:{port};
        server_tokens off;
        client_header_timeout 10s;
        client_body_timeout 10s;
        send_timeout 10s;
        keepalive_timeout 30s;
        keepalive_requests 100000;
        client_body_buffer_size 64k;
        client_max_body_size 2m;
        client_header_buffer_size 1k;
        large_client_header_buffers 4 4k;
        proxy_http_version 1.1;
        proxy_request_buffering on;
        proxy_buffering on;
        proxy_connect_timeout 5s;
        proxy_read_timeout 60s;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header Connection "";
        if ($chickenfoot_refusal) {{
            return 400;
        }}
        location / {{
            proxy_pass http://chickenfoot_web;
        }}
    }}
}}
"""


@dataclass
class Proxy:
    """nginx, started in a temporary directory of its own."""

    process: subprocess.Popen[bytes]
    directory: tempfile.TemporaryDirectory[str] = field(repr=False)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.directory.cleanup()


def start_nginx(port: int, upstream: int) -> Proxy:
    """nginx on ``127.0.0.1:port`` passing every request to ``127.0.0.1:upstream``."""
    directory = tempfile.TemporaryDirectory(prefix="bench-nginx-")
    conf = Path(directory.name) / "nginx.conf"
    conf.write_text(
        NGINX_CONF.format(
            dir=directory.name, port=port, upstream=upstream, njs=NJS_MODULE, refusals=REFUSALS
        )
    )
    process = subprocess.Popen(  # noqa: S603 - nginx with the configuration written above
        [
            NGINX,
            "-c",
            str(conf),
            "-p",
            directory.name,
            "-e",
            f"{directory.name}/error.log",
            "-g",
            "daemon off;",
        ],
        stdin=subprocess.DEVNULL,
    )
    return Proxy(process, directory)


def _stat(pid: int | str) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def pid_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used, or ``None`` if it is not ours."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / TICK if fields else None


def process_tree_cpu(root: int) -> float:
    """CPU seconds (user + system) used so far by process ``root`` and its descendants, those
    that ended among them (each process's ``cutime`` and ``cstime``: its children that ended
    and were waited for), so that a worker replaced meanwhile takes none of it away."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(entry.name)):
            pid = int(entry.name)
            parents[pid] = int(fields[1])
            used[pid] = sum(int(field) for field in fields[11:15]) / TICK
    return sum(cpu for pid, cpu in used.items() if in_tree(pid, root, parents))


def in_tree(pid: int, root: int, parents: dict[int, int]) -> bool:
    """Whether ``pid`` is ``root`` or one of its descendants (``parents``: each process's
    parent, as /proc read them)."""
    ancestor, hops = pid, 0
    while ancestor not in (root, 0, 1) and hops < 16:
        ancestor, hops = parents.get(ancestor, 0), hops + 1
    return ancestor == root


def machine_busy() -> float:
    """CPU seconds every core of the machine has spent busy so far (``/proc/stat``)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    # user nice system idle iowait irq softirq steal (guest time is inside user already)
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICK


def redis_pid(url: str) -> int | None:
    """The Redis server's process id, when it runs on this machine (its ``/proc`` is ours)."""
    import redis

    with redis.Redis.from_url(url, socket_connect_timeout=3) as client:
        pid = int(client.info("server")["process_id"])
    return pid if pid_cpu(pid) is not None else None


@dataclass
class Meter:
    """The CPU each process group has used, between ``start`` and ``stop``."""

    probes: dict[str, Callable[[], float | None]]
    before: dict[str, float | None] = field(default_factory=dict)

    def start(self) -> None:
        self.before = {name: probe() for name, probe in self.probes.items()}

    def stop(self) -> dict[str, float | None]:
        used: dict[str, float | None] = {}
        for name, probe in self.probes.items():
            after, before = probe(), self.before.get(name)
            used[name] = after - before if after is not None and before is not None else None
        return used
