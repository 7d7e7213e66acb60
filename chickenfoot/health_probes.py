"""``GET /api/health/live`` and ``GET /api/health/ready``: the probes of an orchestrator.

Live says the process answers (nothing else is asked: a database outage must not get a healthy
process restarted). Ready says it can serve: the database answers, Redis answers when
``REDIS_URL`` is set, and no migration is left unapplied (a new release whose migrations have
not run yet is not sent traffic). ``/api/health`` (chickenfoot/health.py) stays the one-stop
document of the database and the broker.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus

import redis
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.apidocs import health as apidocs
from chickenfoot.health import BROKER_TIMEOUT, check_database

logger = logging.getLogger(__name__)

#: What the document says of a part that is not ready; the cause is logged, never sent.
NOT_READY = {
    "database": "The database is unavailable.",
    "redis": "Redis is unavailable.",
    "migrations": "Migrations are not applied.",
}


def check_redis() -> str:
    """``"not_configured"`` without ``REDIS_URL``, ``"ok"`` when Redis answers a ping."""
    if not settings.REDIS_URL:
        return "not_configured"
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=BROKER_TIMEOUT, socket_connect_timeout=BROKER_TIMEOUT
    )
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def unapplied_migrations() -> list[str]:
    """The migrations of the default database not applied yet, as ``app.name``, in order."""
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def check_migrations() -> str:
    """``"ok"`` when every migration is applied, ``"pending"`` otherwise."""
    pending = unapplied_migrations()
    if pending:
        logger.error("Ready: %d migration(s) not applied: %s", len(pending), ", ".join(pending))
        return "pending"
    return "ok"


CHECKS: tuple[tuple[str, Callable[[], str]], ...] = (
    ("database", check_database),
    ("redis", check_redis),
    ("migrations", check_migrations),
)


def readiness_report() -> tuple[dict[str, object], int]:
    """The readiness document and its HTTP status (200 when ready, else 503)."""
    report: dict[str, object] = {"status": "ok"}
    errors: dict[str, str] = {}
    for part, check in CHECKS:
        if part == "migrations" and "database" in errors:
            report[part] = "error"  # not asked: the database did not answer
            continue
        try:
            report[part] = check()
        except Exception as exc:  # noqa: BLE001 - any failure means the part is not ready
            logger.error("Ready: the %s is down: %s: %s", part, type(exc).__name__, exc)
            report[part] = "error"
        if report[part] in ("error", "pending"):
            errors[part] = NOT_READY[part]
    if errors:
        report["status"] = "unavailable"
        report["errors"] = errors
        if "database" in errors:
            connection.close()
        return report, HTTPStatus.SERVICE_UNAVAILABLE
    return report, HTTPStatus.OK


class LiveSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok"])


class ReadySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "unavailable"])
    database = serializers.ChoiceField(choices=["ok", "error"])
    redis = serializers.ChoiceField(
        choices=["ok", "not_configured", "error"],
        help_text="`not_configured` without `REDIS_URL` (the embedded default).",
    )
    migrations = serializers.ChoiceField(
        choices=["ok", "pending", "error"],
        help_text="`pending` while a migration is not applied; `error` when the database "
        "could not be asked.",
    )
    errors = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="Each part that is not ready, said to be unavailable (the cause is in the "
        "server's log); present only with a 503.",
    )


class HealthLiveApi(APIView):
    """Liveness: the process answers. Asks no dependency."""

    permission_classes = (AllowAny,)
    authentication_classes = ()

    @extend_schema(
        operation_id="health_live",
        summary="Liveness: the process answers",
        tags=["health"],
        responses=apidocs.live_responses(LiveSerializer),
    )
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})


class HealthReadyApi(APIView):
    """Readiness: the database, Redis (when configured) and the migrations."""

    permission_classes = (AllowAny,)
    authentication_classes = ()

    @extend_schema(
        operation_id="health_ready",
        summary="Readiness: database, Redis and migrations",
        tags=["health"],
        responses=apidocs.ready_responses(ReadySerializer),
    )
    def get(self, request: Request) -> Response:
        report, status = readiness_report()
        headers = {}
        if status == HTTPStatus.SERVICE_UNAVAILABLE:
            headers["Retry-After"] = str(settings.DATABASE_RETRY_AFTER_SECONDS)
        return Response(report, status=status, headers=headers)
