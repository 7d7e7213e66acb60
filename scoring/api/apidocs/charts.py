"""The OpenAPI declarations of ``scoring.api.charts``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED
from chickenfoot.renderers import SVG_EXAMPLE
from scoring.api.common import BAD_FILTER


def chart_schema_responses(not_found: Any, points: Any) -> Any:
    """The ``responses`` of the operation, given the serializers of its view."""
    return {
        (200, "image/svg+xml"): OpenApiResponse(
            OpenApiTypes.STR,
            description=f"An SVG line chart; each point carries {points}.",
            examples=[OpenApiExample("A chart", value=SVG_EXAMPLE)],
        ),
        400: BAD_FILTER,
        401: NOT_AUTHENTICATED,
        404: not_found,
    }
