"""``GET /api/health``: is the service, its database and its broker usable right now?"""

from __future__ import annotations

from http import HTTPStatus

import redis
from django.conf import settings
from django.db import connection
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

#: Seconds a broker ping may take before the broker counts as down.
BROKER_TIMEOUT = 1.5


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


def _describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def health_report() -> tuple[dict[str, object], int]:
    """The health document and its HTTP status (200 when every part is up, else 503)."""
    report: dict[str, object] = {"status": "ok"}
    errors: dict[str, str] = {}
    for part, check in (("database", check_database), ("broker", check_broker)):
        try:
            report[part] = check()
        except Exception as exc:  # noqa: BLE001 - any failure means the part is down
            report[part] = "error"
            errors[part] = _describe(exc)
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
        help_text="Why each failing part failed; present only when degraded.",
    )


class HealthApi(APIView):
    """Liveness and readiness in one: 200 when usable, 503 when a dependency is down."""

    permission_classes = (AllowAny,)
    authentication_classes = ()

    @extend_schema(
        operation_id="health",
        summary="Service health",
        tags=["health"],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                HealthSerializer,
                description="Every dependency answers.",
                examples=[
                    OpenApiExample(
                        "Embedded default",
                        value={"status": "ok", "database": "ok", "broker": "eager"},
                    ),
                    OpenApiExample(
                        "PostgreSQL and Redis",
                        value={"status": "ok", "database": "ok", "broker": "ok"},
                    ),
                ],
            ),
            HTTPStatus.SERVICE_UNAVAILABLE: OpenApiResponse(
                HealthSerializer,
                description="A configured dependency is down.",
                examples=[
                    OpenApiExample(
                        "Broker down",
                        value={
                            "status": "degraded",
                            "database": "ok",
                            "broker": "error",
                            "errors": {
                                "broker": "ConnectionError: Error 111 connecting to "
                                "redis:6379. Connection refused."
                            },
                        },
                    )
                ],
            ),
        },
    )
    def get(self, request: Request) -> Response:
        report, status = health_report()
        return Response(report, status=status)
