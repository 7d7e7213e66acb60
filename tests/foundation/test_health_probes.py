"""GET /api/health/live and /api/health/ready (chickenfoot/health_probes.py)."""

from __future__ import annotations

import os
from http import HTTPStatus

import pytest
from django.core.management import call_command
from pytest_django import Settings
from rest_framework.test import APIClient

from tests.processes import refusing_port

pytestmark = pytest.mark.django_db


def test_live_answers_ok_without_asking_anything(api_client: APIClient, settings: Settings) -> None:
    # given: Redis configured but not answering: live does not care
    with refusing_port() as port:
        settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
        response = api_client.get("/api/health/live")

    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok"}


def test_ready_on_the_embedded_default(api_client: APIClient, settings: Settings) -> None:
    settings.REDIS_URL = None

    response = api_client.get("/api/health/ready")

    assert response.status_code == HTTPStatus.OK
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "redis": "not_configured",
        "migrations": "ok",
    }


def test_ready_is_503_while_redis_refuses(api_client: APIClient, settings: Settings) -> None:
    # given: REDIS_URL at a loopback port that refuses connections
    with refusing_port() as port:
        settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"

        # when
        response = api_client.get("/api/health/ready")

    # then: not ready, saying what; the cause (host, port) is only logged
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json() == {
        "status": "unavailable",
        "database": "ok",
        "redis": "error",
        "migrations": "ok",
        "errors": {"redis": "Redis is unavailable."},
    }
    assert response["Retry-After"] == str(settings.DATABASE_RETRY_AFTER_SECONDS)
    assert str(port) not in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_ready_is_503_while_a_migration_is_unapplied(
    api_client: APIClient, settings: Settings
) -> None:
    # given: one app migrated back to nothing (the sessions' table: no test here uses it)
    settings.REDIS_URL = None
    call_command("migrate", "sessions", "zero", verbosity=0)
    try:
        # when
        response = api_client.get("/api/health/ready")
    finally:
        call_command("migrate", "sessions", verbosity=0)

    # then
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json() == {
        "status": "unavailable",
        "database": "ok",
        "redis": "not_configured",
        "migrations": "pending",
        "errors": {"migrations": "Migrations are not applied."},
    }
    # and: ready again once migrated
    assert api_client.get("/api/health/ready").status_code == HTTPStatus.OK


def test_ready_with_a_redis_that_answers(api_client: APIClient, settings: Settings) -> None:
    """Against the Redis of the run (CI), when there is one."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("no REDIS_URL: the embedded default has no Redis to ask")
    settings.REDIS_URL = url

    response = api_client.get("/api/health/ready")

    assert response.status_code == HTTPStatus.OK
    assert response.json()["redis"] == "ok"


@pytest.mark.parametrize("path", ["/api/health", "/api/health/live", "/api/health/ready"])
def test_the_probes_answer_plain_http_where_the_rest_is_redirected(
    api_client: APIClient, settings: Settings, path: str
) -> None:
    # given: production's redirect to HTTPS (container probes call the app over plain HTTP)
    settings.SECURE_SSL_REDIRECT = True
    settings.REDIS_URL = None
    settings.CELERY_TASK_ALWAYS_EAGER = True

    # then: the probes answer; any other path is redirected
    assert api_client.get(path).status_code == HTTPStatus.OK
    assert api_client.get("/api/matches").status_code == HTTPStatus.MOVED_PERMANENTLY
