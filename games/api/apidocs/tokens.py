"""The OpenAPI declarations of ``games.api.tokens``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
)

from games.api.common import NOT_AUTHENTICATED, problem, problem_example

UNKNOWN_PARAMETER = "Unknown query parameter. Known ones: page, page_size."

TOKEN_ROW_EXAMPLE = {
    "id": 12,
    "device": "Ada's phone",
    "created": "2026-12-01T12:00:00Z",
    "expiry": "2026-12-31T12:00:00Z",
    "last_used": "2026-12-02T08:15:00Z",
    "current": True,
}

LOGOUT_RESPONSES = {
    HTTPStatus.NO_CONTENT: OpenApiResponse(description="The token no longer works."),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
}


def logout_all_responses(logout_all_output_serializer: Any) -> Any:
    """The answers of ``LogoutAllApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            logout_all_output_serializer,
            description="Every token of the caller no longer works.",
            examples=[OpenApiExample("Three devices", value={"revoked": 3})],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


def token_list_responses(token_output_serializer: Any) -> Any:
    """The answers of ``TokenListApi``, given the view's own serializer."""
    return {
        HTTPStatus.BAD_REQUEST: problem(
            "An unknown query parameter, or one given empty or twice.",
            (
                "Unknown parameter",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    f"device: {UNKNOWN_PARAMETER}",
                    errors={"device": [UNKNOWN_PARAMETER]},
                ),
            ),
        ),
        HTTPStatus.OK: OpenApiResponse(
            token_output_serializer(many=True),
            description="A page of the caller's tokens.",
            examples=[OpenApiExample("One phone", value=TOKEN_ROW_EXAMPLE)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: problem(
            "A page past the last one.",
            ("No such page", problem_example(404, "not_found", "Not found", "Invalid page.")),
        ),
    }


TOKEN_REVOKE_RESPONSES = {
    HTTPStatus.NO_CONTENT: OpenApiResponse(description="That token no longer works."),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.NOT_FOUND: problem(
        "Not one of the caller's tokens (or already revoked or expired).",
        (
            "No such token",
            problem_example(404, "token_not_found", "No such token", "You have no token 13."),
        ),
    ),
}
