"""The OpenAPI declarations of ``scoring.api.charts``'s views: the schema of a chart view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from chickenfoot.openapi import NOT_AUTHENTICATED
from chickenfoot.renderers import SVG_EXAMPLE
from scoring.api.common import BAD_FILTER

F = TypeVar("F", bound=Callable[..., Any])


def chart_schema(
    *,
    operation_id: str,
    summary: str,
    tags: list[str],
    parameters: list[Any],
    points: str,
    not_found: OpenApiResponse,
    forbidden: OpenApiResponse | None = None,
) -> Callable[[F], F]:
    """The schema of a chart view: an SVG line chart whose points carry ``points``, or a bad
    filter, no login, nothing to chart (``not_found``), or (``forbidden``) not for the
    caller."""
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        tags=tags,
        parameters=parameters,
        responses={
            (200, "image/svg+xml"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description=f"An SVG line chart; each point carries {points}.",
                examples=[OpenApiExample("A chart", value=SVG_EXAMPLE)],
            ),
            400: BAD_FILTER,
            401: NOT_AUTHENTICATED,
            404: not_found,
            **({403: forbidden} if forbidden is not None else {}),
        },
    )
