"""The OpenAPI declarations of ``games.api.rounds``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
)

from games.api.apidocs import examples
from games.api.common import (
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_MODIFIED,
    NOT_MODIFIED_TEXT,
    NOT_YOUR_MATCH,
    TOO_MANY_REQUESTS,
)


def match_rounds_responses(match_rounds_output_serializer: Any) -> Any:
    """The answers of ``MatchRoundsApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            match_rounds_output_serializer,
            description="The rounds in order; `ETag` is the match's version.",
            examples=[OpenApiExample("Round 2 under way", value=examples.ROUNDS)],
        ),
        NOT_MODIFIED_TEXT: NOT_MODIFIED,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        # a scorer code, after too many failed ones from the address (docs/tables.md)
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
    }
