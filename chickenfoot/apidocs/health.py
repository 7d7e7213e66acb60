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
