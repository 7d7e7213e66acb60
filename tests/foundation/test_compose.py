"""docker-compose.yml is what the README's "Production shape" says it is.

The suite runs where no Docker daemon is; this checks the file the README's commands use
(``docker compose up --build``, ``docker compose up --scale worker=3``), and lets Docker itself
validate it (``docker compose config``) where the compose plugin is installed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings

from tests.foundation.live_server import load_script, serve_module

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
    # web and asgi: ready (database, Redis, migrations) at /api/health/ready
    for name, port in (("web", 8000), ("asgi", 8001)):
        probe = " ".join(map(str, services[name]["healthcheck"]["test"]))
        assert f"http://localhost:{port}/api/health/ready" in probe
    # SECRET_KEY comes from the environment the command sets, with no default to fall back on
    for name in ("migrate", "web", "worker", "beat", "asgi"):
        secret = str(services[name]["environment"]["SECRET_KEY"])
        assert secret.startswith("${SECRET_KEY:?"), secret
    # and workers can be scaled: no fixed name, no host port of their own
    worker = services["worker"]
    assert "worker" in " ".join(map(str, worker["command"]))
    assert "container_name" not in worker
    assert "ports" not in worker


def test_the_matches_of_bots_only_have_a_worker_of_their_own_at_a_lower_priority() -> None:
    """docs/reliability.md, "Bots under load": the main worker never takes a bots' turn of a
    match of bots only, and the worker that does runs one process at nice 10."""
    services = compose()["services"]
    main = [str(arg) for arg in services["worker"]["command"]]
    bots = [str(arg) for arg in services["bots-worker"]["command"]]
    # compose sets no CELERY_QUEUE: the default queue is "celery", the bots' "celery.bots"
    assert "CELERY_QUEUE" not in services["worker"]["environment"]
    assert f"{settings.CELERY_TASK_DEFAULT_QUEUE}.bots" == settings.BOTS_QUEUE
    assert main[main.index("-Q") + 1] == "celery"
    assert "--concurrency=2" in main
    assert bots[:3] == ["nice", "-n", "10"]
    assert bots[bots.index("-Q") + 1] == "celery.bots"
    assert "--concurrency=1" in bots
    # CI runs the same two workers, on its own queue
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '-Q "$QUEUE"' in ci
    bots_worker = '.venv/bin/celery -A chickenfoot worker -n "$BOTS_WORKER_NAME" -Q "$BOTS_QUEUE"'
    assert f"nice -n 10 {bots_worker}" in ci
    assert 'BOTS_QUEUE="${QUEUE}.bots"' in ci


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


def test_nginx_is_the_one_published_service() -> None:
    services = compose()["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"nginx"}, "the app servers must be reachable through nginx only"
    assert str(services["nginx"]["image"]).startswith("nginx:")
    ports = [str(port) for port in services["nginx"]["ports"]]
    assert any(port.endswith(":443") for port in ports)
    assert any(port.endswith(":80") for port in ports)


def test_the_app_runs_in_production_behind_one_proxy() -> None:
    environment = compose()["x-app"]["environment"]
    assert environment["DJANGO_ENV"] == "production"
    assert environment["DEBUG"] == "false"
    # the client's address is what nginx appends to X-Forwarded-For
    assert environment["NUM_PROXIES"] == "1"
    # JSON log lines by default (a log collector reads them)
    assert environment["LOG_FORMAT"] == "${LOG_FORMAT:-json}"
    # the health checks call the app as localhost
    assert str(environment["ALLOWED_HOSTS"]).startswith("localhost,")


def test_web_adds_up_its_workers_metrics_and_takes_the_metrics_settings() -> None:
    services = compose()["services"]
    web = services["web"]
    directory = web["environment"]["PROMETHEUS_MULTIPROC_DIR"]
    # a directory of web's own, in memory, emptied by deploy/serve.py as it starts
    assert directory in web["tmpfs"]
    # and everything else the app gets, the metrics' settings from the shell or .env among them
    for name, value in compose()["x-app"]["environment"].items():
        assert web["environment"][name] == value
    assert web["environment"]["METRICS_TOKEN"] == "${METRICS_TOKEN:-}"
    assert web["environment"]["METRICS_ALLOW_NETWORKS"] == "${METRICS_ALLOW_NETWORKS:-}"
    # the sockets' workers add theirs up the same way, in a directory of their own; no other
    # service keeps one
    asgi = services["asgi"]
    assert asgi["environment"]["PROMETHEUS_MULTIPROC_DIR"] in asgi["tmpfs"]
    assert [
        n for n, s in services.items() if "PROMETHEUS_MULTIPROC_DIR" in (s.get("environment") or {})
    ] == ["web", "asgi"]


def test_nginx_renders_its_whole_template_and_reaches_the_app_servers() -> None:
    services = compose()["services"]
    nginx = services["nginx"]
    mounts = {str(volume).split(":")[1]: str(volume).split(":")[0] for volume in nginx["volumes"]}
    # the repository's template, rendered by the nginx image's envsubst into conf.d
    source = mounts["/etc/nginx/templates/default.conf.template"]
    template = (ROOT / source).read_text(encoding="utf-8")
    used = set(re.findall(r"\$\{(\w+)\}", template))
    assert used <= set(nginx["environment"]), used - set(nginx["environment"])
    # the upstreams are the web and asgi services on the ports their commands listen on
    web_host, web_port = str(nginx["environment"]["CHICKENFOOT_WEB"]).split(":")
    asgi_host, asgi_port = str(nginx["environment"]["CHICKENFOOT_ASGI"]).split(":")
    assert (web_host, asgi_host) == ("web", "asgi")
    options = list(serve_module().OPTIONS)
    assert options[options.index("--host") + 1] == "0.0.0.0"  # noqa: S104 - inside the stack
    assert options[options.index("--port") + 1] == web_port
    assert services["asgi"]["command"] == ["python", "deploy/serve_sockets.py"]
    sockets = list(load_script("deploy/serve_sockets.py").OPTIONS)
    assert sockets[sockets.index("--host") + 1] == "0.0.0.0"  # noqa: S104 - inside the stack
    assert sockets[sockets.index("--port") + 1] == asgi_port
    assert sockets[sockets.index("--backlog") + 1] == "4096"
    # /ws/ goes to uvicorn with the WebSocket upgrade; the rest to granian, buffered
    ws = re.search(r"location /ws/ \{(.*?)\n    \}", template, re.DOTALL)
    assert ws is not None
    assert "proxy_pass http://chickenfoot_asgi;" in ws.group(1)
    assert "proxy_set_header Upgrade $http_upgrade;" in ws.group(1)
    assert "proxy_set_header Connection $chickenfoot_connection_upgrade;" in ws.group(1)
    assert "proxy_request_buffering on;" in template
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in template


def test_static_files_are_collected_into_the_volume_nginx_serves() -> None:
    services = compose()["services"]
    collect = services["collectstatic"]
    assert collect["command"][-2:] == ["collectstatic", "--noinput"]
    assert collect["volumes"] == ["static:/app/staticfiles"]  # the settings' STATIC_ROOT
    nginx = services["nginx"]
    assert f"static:{nginx['environment']['STATIC_ROOT']}:ro" in nginx["volumes"]
    assert "static" in compose()["volumes"]
    # nginx starts once the files are there and the API answers
    assert nginx["depends_on"]["collectstatic"]["condition"] == "service_completed_successfully"
    assert nginx["depends_on"]["web"]["condition"] == "service_healthy"
    # the image's collected files belong to the user that runs collectstatic again
    assert "chown -R chickenfoot /app/staticfiles" in (ROOT / "Dockerfile").read_text()


def test_nginx_refuses_long_request_lines_and_headers_before_granian_would() -> None:
    """nginx's limits are below granian's (its HTTP/1 buffer, 408 KiB unless deploy/serve.py
    sets another; 100 header fields), so granian never answers them itself with its empty
    refusals; nginx answers them as problems."""
    template = (ROOT / "deploy" / "nginx" / "chickenfoot.conf.template").read_text()
    options = list(serve_module().OPTIONS)
    buffer = 417792
    if "--http1-buffer-size" in options:
        buffer = int(options[options.index("--http1-buffer-size") + 1])
    units = {"": 1, "k": 1024}
    for server in template.split("\nserver {")[1:]:
        first = re.search(r"client_header_buffer_size (\d+)([k]?);", server)
        large = re.search(r"large_client_header_buffers (\d+) (\d+)([k]?);", server)
        assert first, "each server sets client_header_buffer_size"
        assert large, "each server sets large_client_header_buffers"
        line = int(large[2]) * units[large[3]]  # the longest request line, or header line
        total = int(first[1]) * units[first[2]] + int(large[1]) * line
        assert total < buffer
        for status in ("400", "414", "494", "505"):
            assert re.search(rf"error_page {status} (=\d+ )?/_problems/", server), status
    # at most 64 fields from the client, and the four nginx sets itself: within granian's 100
    refusals = (ROOT / "deploy" / "nginx" / "refusals.js").read_text(encoding="utf-8")
    fields = re.search(r"var MAX_FIELDS = (\d+);", refusals)
    assert fields
    assert int(fields[1]) + 4 <= 100
    set_by_nginx = re.findall(r"^    proxy_set_header (\S+) \$", template, re.MULTILINE)
    assert len(set_by_nginx) == 4, set_by_nginx


def test_nginx_loads_njs_and_refuses_what_granian_would_answer_bare() -> None:
    nginx = compose()["services"]["nginx"]
    mounts = {str(v).split(":")[1]: str(v).split(":")[0] for v in nginx["volumes"]}
    # the main configuration loads the image's njs module, and includes the rendered template
    main = (ROOT / mounts["/etc/nginx/nginx.conf"]).read_text(encoding="utf-8")
    assert main.startswith("#")
    assert "load_module modules/ngx_http_js_module.so;" in main
    assert "include /etc/nginx/conf.d/*.conf;" in main
    # the script the template imports is the repository's
    script = nginx["environment"]["CHICKENFOOT_REFUSALS"]
    assert mounts[script] == "./deploy/nginx/refusals.js"
    # and the documents it answers with, beside it (its import is relative to its directory)
    texts = str(Path(script).with_name("problem_texts.js"))
    assert mounts[texts] == "./deploy/nginx/problem_texts.js"
    assert "import texts from 'problem_texts.js';" in (ROOT / mounts[script]).read_text()
    template = (ROOT / "deploy" / "nginx" / "chickenfoot.conf.template").read_text()
    https = template.split("\nserver {")[2]
    assert "rewrite ^ /_problems/bad-request last;" in https
    assert "rewrite ^ /_problems/header-too-large last;" in https
    assert "error_page 502 504 =502 /_problems/bad-gateway;" in https


def test_the_web_service_runs_granian_with_a_watchdog_and_no_gunicorn() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert 'CMD ["python", "deploy/serve.py", "--access-log"]' in dockerfile
    assert "gunicorn" not in dockerfile
    assert "gunicorn" not in (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    serve = serve_module()
    command = serve.granian_command("python")
    assert command[:3] == ["python", "-m", "granian"]
    assert command[-1] == "chickenfoot.wsgi:application"
    for option in ("--respawn-failed-workers", "--no-ws", "--http1-keep-alive"):
        assert option in command
    assert command[command.index("--interface") + 1] == "wsgi"
    # a stuck request ends its worker after 30 s, well past granian's 5.5 s crash-loop window
    assert float(serve.DEFAULT_REQUEST_TIMEOUT) == 30


def test_the_admin_networks_reach_nginx() -> None:
    nginx = compose()["services"]["nginx"]
    environment = nginx["environment"]
    assert environment["ADMIN_ALLOW_NETWORKS"] == "${ADMIN_ALLOW_NETWORKS:-}"
    # the image's entrypoint runs the script (before 20-envsubst-on-templates.sh renders the
    # template that includes what it writes)
    mounts = {str(v).split(":")[1]: str(v).split(":")[0] for v in nginx["volumes"]}
    scripts = [target for target in mounts if target.startswith("/docker-entrypoint.d/")]
    assert scripts == ["/docker-entrypoint.d/15-chickenfoot-admin-networks.sh"]
    assert scripts[0].rsplit("/", 1)[1] < "20-envsubst-on-templates.sh"
    script = ROOT / mounts[scripts[0]]
    assert os.access(script, os.X_OK), "the entrypoint runs only executable scripts"
    assert environment["NGINX_ADMIN_ALLOW"].startswith("/etc/nginx/")
    assert not environment["NGINX_ADMIN_ALLOW"].startswith("/etc/nginx/conf.d/")  # http-wide


def test_the_socket_serving_services_may_hold_tens_of_thousands_of_connections() -> None:
    services = compose()["services"]
    # a socket is an open file: Daphne holds one per socket, nginx two (the phone's, Daphne's)
    for name in ("asgi", "nginx"):
        assert services[name]["ulimits"]["nofile"] == {"soft": 65536, "hard": 65536}, name
    main = (ROOT / "deploy" / "nginx" / "nginx.conf").read_text(encoding="utf-8")
    assert "worker_rlimit_nofile 65536;" in main
    assert "worker_connections 16384;" in main
