"""Settings come from the environment: the embedded default, or PostgreSQL and Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST", ""),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER, "broker": settings.CELERY_BROKER_URL,
    "backend": settings.CELERY_RESULT_BACKEND, "cache": settings.CACHES["default"]["BACKEND"],
    "debug": settings.DEBUG, "hosts": settings.ALLOWED_HOSTS, "secret": settings.SECRET_KEY,
    "health_checks": db["CONN_HEALTH_CHECKS"], "options": db.get("OPTIONS", {}),
    "no_server_side_cursors": db.get("DISABLE_SERVER_SIDE_CURSORS", False),
}))
"""
VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DB_CONN_HEALTH_CHECKS",
    "DB_PREPARE_THRESHOLD",
    "DB_SERVER_SIDE_CURSORS",
)


def load_settings(**env: str) -> dict[str, object]:
    """Import the settings in a fresh interpreter with exactly ``env`` set."""
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    clean |= {"DJANGO_SETTINGS_MODULE": "chickenfoot.settings", **env}
    out = subprocess.run(  # noqa: S603 - our own interpreter and a fixed script
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout)


def test_embedded_default_without_environment() -> None:
    # when
    loaded = load_settings()

    # then
    assert loaded["engine"] == "django.db.backends.sqlite3"
    assert loaded["name"] == str(ROOT / "db.sqlite3")
    assert loaded["eager"] is True
    assert loaded["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert loaded["debug"] is False


def test_postgres_and_redis_from_environment() -> None:
    # when
    loaded = load_settings(
        DATABASE_URL="postgres://game:pw@db.example:5432/chickenfoot",
        REDIS_URL="redis://cache.example:6379/2",
        SECRET_KEY="s3cret",
        DEBUG="true",
        ALLOWED_HOSTS="api.example, www.example",
    )

    # then
    assert loaded["engine"] == "django.db.backends.postgresql"
    assert (loaded["name"], loaded["host"]) == ("chickenfoot", "db.example")
    assert loaded["eager"] is False
    assert loaded["broker"] == loaded["backend"] == "redis://cache.example:6379/2"
    assert loaded["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert loaded["debug"] is True
    assert loaded["hosts"] == ["api.example", "www.example"]
    assert loaded["secret"] == "s3cret"
    # Persistent connections without a SELECT 1 per request; queries become prepared statements.
    assert loaded["health_checks"] is False
    assert loaded["options"]["server_side_binding"] is True
    assert loaded["options"]["prepare_threshold"] == 2
    assert loaded["no_server_side_cursors"] is False


def test_connection_checks_and_prepared_statements_can_be_configured() -> None:
    # when
    loaded = load_settings(
        DATABASE_URL="postgres://game:pw@db.example:5432/chickenfoot",
        DB_CONN_HEALTH_CHECKS="true",
        DB_PREPARE_THRESHOLD="0",
        DB_SERVER_SIDE_CURSORS="false",
    )

    # then: what a transaction-pooling proxy needs (docs/operations.md, "More than one node")
    assert loaded["health_checks"] is True
    assert loaded["options"]["prepare_threshold"] is None
    assert loaded["no_server_side_cursors"] is True


def test_a_bad_boolean_is_refused() -> None:
    with pytest.raises(subprocess.CalledProcessError) as failure:
        load_settings(DEBUG="maybe")

    assert "is not a boolean" in failure.value.stderr


def test_celery_is_configured_for_safe_delivery() -> None:
    from chickenfoot.celery import app

    conf = app.conf
    assert conf.accept_content == ["json"]
    assert conf.task_serializer == conf.result_serializer == "json"
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert 0 < conf.task_soft_time_limit < conf.task_time_limit
