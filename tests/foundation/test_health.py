"""GET /api/health: 200 when the database and broker answer, 503 naming what failed."""

from __future__ import annotations

import os
from http import HTTPStatus

import pytest
from django.db import OperationalError
from pytest_django import Settings
from rest_framework.test import APIClient

from chickenfoot import health

pytestmark = pytest.mark.django_db

CLOSED_PORT_REDIS = "redis://127.0.0.1:1/0"


def test_embedded_default_is_healthy(api_client: APIClient, settings: Settings) -> None:
    # given
    settings.CELERY_TASK_ALWAYS_EAGER = True

    # when
    response = api_client.get("/api/health")

    # then
    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": "ok", "broker": "eager"}


def test_health_needs_no_credentials_and_ignores_bad_ones(
    api_client: APIClient, settings: Settings
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = api_client.get("/api/health")

    assert response.status_code == HTTPStatus.OK


def test_unreachable_broker_is_503(api_client: APIClient, settings: Settings) -> None:
    # given
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = CLOSED_PORT_REDIS

    # when
    response = api_client.get("/api/health")

    # then
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"] == "ok"
    assert body["broker"] == "error"
    # the cause (host and port) is logged, never sent
    assert body["errors"] == {"broker": "The broker is unavailable."}
    assert response["Retry-After"] == "5"


def test_database_failure_is_503(
    api_client: APIClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given
    settings.CELERY_TASK_ALWAYS_EAGER = True

    def database_down() -> str:
        raise OperationalError("connection refused")

    monkeypatch.setattr(health, "check_database", database_down)

    # when
    response = api_client.get("/api/health")

    # then
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json() == {
        "status": "degraded",
        "database": "error",
        "broker": "eager",
        "errors": {"database": "The database is unavailable."},
    }
    assert response["Retry-After"] == "5"


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
def test_configured_broker_answers(api_client: APIClient) -> None:
    """With REDIS_URL set (CI, docker compose), the broker must be up: this fails otherwise."""
    response = api_client.get("/api/health")

    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}
    assert response.status_code == HTTPStatus.OK
