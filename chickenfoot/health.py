"""``GET /api/health``: is the service, its database and its broker usable right now?"""

from __future__ import annotations

import logging
from http import HTTPStatus

import redis
from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.apidocs import health as apidocs

logger = logging.getLogger(__name__)

#: Seconds a broker ping may take before the broker counts as down.
BROKER_TIMEOUT = 1.5
#: What the document says of a part that is down. The failure itself (its message names hosts
#: and ports) is logged, never sent.
UNAVAILABLE = {
    "database": "The database is unavailable.",
    "broker": "The broker is unavailable.",
}


def check_database() -> str:
    """``"ok"`` when the default database answers a query; raises otherwise."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_broker() -> str:
    """``"eager"`` without a broker (tasks run in-process), ``"ok"`` when Redis answers a ping."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    client = redis.Redis.from_url(
        settings.CELERY_BROKER_URL,
        socket_timeout=BROKER_TIMEOUT,
        socket_connect_timeout=BROKER_TIMEOUT,
    )
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def health_report() -> tuple[dict[str, object], int]:
    """The health document and its HTTP status (200 when every part is up, else 503)."""
    report: dict[str, object] = {"status": "ok"}
    errors: dict[str, str] = {}
    for part, check in (("database", check_database), ("broker", check_broker)):
        try:
            report[part] = check()
        except Exception as exc:  # noqa: BLE001 - any failure means the part is down
            logger.error("Health: the %s is down: %s: %s", part, type(exc).__name__, exc)
            report[part] = "error"
            errors[part] = UNAVAILABLE[part]
    if errors:
        report["status"] = "degraded"
        report["errors"] = errors
        if "database" in errors:
            connection.close()
        return report, HTTPStatus.SERVICE_UNAVAILABLE
    return report, HTTPStatus.OK


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    database = serializers.ChoiceField(choices=["ok", "error"])
    broker = serializers.ChoiceField(
        choices=["ok", "eager", "error"],
        help_text="`eager` when no broker is configured and tasks run in-process.",
    )
    errors = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="Each failing part, said to be unavailable (the cause is in the server's "
        "log); present only when degraded.",
    )


class HealthApi(APIView):
    """Liveness and readiness in one: 200 when usable, 503 when a dependency is down."""

    permission_classes = (AllowAny,)
    authentication_classes = ()

    @extend_schema(
        operation_id="health",
        summary="Service health",
        tags=["health"],
        responses=apidocs.health_responses(HealthSerializer),
    )
    def get(self, request: Request) -> Response:
        report, status = health_report()
        headers = {}
        if status == HTTPStatus.SERVICE_UNAVAILABLE:
            headers["Retry-After"] = str(settings.DATABASE_RETRY_AFTER_SECONDS)
        return Response(report, status=status, headers=headers)
