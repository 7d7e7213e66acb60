"""The OpenAPI declarations of ``games.api.pictures``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.renderers import SVG_EXAMPLE
from games.api.apidocs.table_scores import TABLE_MATCH_EXAMPLE
from games.api.common import (
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_YOUR_MATCH,
    problem,
    problem_example,
)

#: A picture's 304: typed as the picture, so that a generated client's answer is bytes either way.
NOT_MODIFIED = OpenApiResponse(
    OpenApiTypes.BINARY,
    description="Unchanged (`If-None-Match`): an empty body, typed as the picture's own.",
)

BOARD_SVG_RESPONSES = {
    (HTTPStatus.OK, "image/svg+xml"): OpenApiResponse(
        OpenApiTypes.BINARY,
        description=(
            "An SVG document. `ETag` is the match's version, and the language of its labels "
            'unless English (`"12-lo"`).'
        ),
        examples=[
            OpenApiExample(
                "A picture",
                value=SVG_EXAMPLE,
            )
        ],
    ),
    (HTTPStatus.NOT_MODIFIED, "image/svg+xml"): NOT_MODIFIED,
    HTTPStatus.BAD_REQUEST: problem(
        "A bad `round` or `seq`.",
        (
            "Bad round",
            problem_example(
                400,
                "invalid",
                "Invalid input",
                "round: Ensure this value is greater than or equal to 1.",
                errors={"round": ["Ensure this value is greater than or equal to 1."]},
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    HTTPStatus.CONFLICT: problem(
        "The match has not started, or it is played at a table (no board).",
        (
            "Not started",
            problem_example(
                409,
                "match_not_started",
                "Match not started",
                "Match 7 has not started: there is no table yet.",
            ),
        ),
        TABLE_MATCH_EXAMPLE,
    ),
}

SCORES_SVG_RESPONSES = {
    (HTTPStatus.OK, "image/svg+xml"): OpenApiResponse(
        OpenApiTypes.BINARY,
        description=(
            "An SVG line chart. `ETag` is the match's version, and the language of its labels "
            'unless English (`"12-lo"`).'
        ),
        examples=[OpenApiExample("A chart", value=SVG_EXAMPLE)],
    ),
    (HTTPStatus.NOT_MODIFIED, "image/svg+xml"): NOT_MODIFIED,
    HTTPStatus.BAD_REQUEST: problem(
        "A `width` out of range, or an unknown parameter.",
        (
            "Bad width",
            problem_example(
                400,
                "invalid",
                "Invalid input",
                "width: Ensure this value is greater than or equal to 280.",
                errors={"width": ["Ensure this value is greater than or equal to 280."]},
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
    HTTPStatus.NOT_FOUND: NOT_FOUND,
}
