"""The OpenAPI declarations of ``chickenfoot.health``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse


def health_responses(health_serializer: Any) -> Any:
    """The answers of ``HealthApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            health_serializer,
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
            health_serializer,
            description="A configured dependency is down; `Retry-After` says when to ask again.",
            examples=[
                OpenApiExample(
                    "Broker down",
                    value={
                        "status": "degraded",
                        "database": "ok",
                        "broker": "error",
                        "errors": {"broker": "The broker is unavailable."},
                    },
                )
            ],
        ),
    }


def live_responses(live_serializer: Any) -> Any:
    """The answer of ``HealthLiveApi``."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            live_serializer,
            description="The process answers (no dependency is asked).",
            examples=[OpenApiExample("Alive", value={"status": "ok"})],
        ),
    }


def ready_responses(ready_serializer: Any) -> Any:
    """The answers of ``HealthReadyApi``."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            ready_serializer,
            description="The database and Redis answer, and every migration is applied.",
            examples=[
                OpenApiExample(
                    "Embedded default",
                    value={
                        "status": "ok",
                        "database": "ok",
                        "redis": "not_configured",
                        "migrations": "ok",
                    },
                ),
                OpenApiExample(
                    "PostgreSQL and Redis",
                    value={"status": "ok", "database": "ok", "redis": "ok", "migrations": "ok"},
                ),
            ],
        ),
        HTTPStatus.SERVICE_UNAVAILABLE: OpenApiResponse(
            ready_serializer,
            description="Not ready: a part named in `errors` is down or migrations are pending; "
            "`Retry-After` says when to ask again.",
            examples=[
                OpenApiExample(
                    "Migrations pending",
                    value={
                        "status": "unavailable",
                        "database": "ok",
                        "redis": "ok",
                        "migrations": "pending",
                        "errors": {"migrations": "Migrations are not applied."},
                    },
                ),
                OpenApiExample(
                    "Redis down",
                    value={
                        "status": "unavailable",
                        "database": "ok",
                        "redis": "error",
                        "migrations": "ok",
                        "errors": {"redis": "Redis is unavailable."},
                    },
                ),
            ],
        ),
    }
