"""The OpenAPI declarations of ``scoring.api.seating_rules``'s views: who is kept apart."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.competition_base import COMPETITION_ID, NOT_FOUND, NOT_ORGANISER

PARAMETERS = [COMPETITION_ID]
KEEP_APART_EXAMPLE: dict[str, Any] = {"clubs": True, "pairs": [[12, 31], [15, 40]]}
KEEP_APART_REQUEST_EXAMPLES = [
    OpenApiExample("Clubs, and two couples", value=KEEP_APART_EXAMPLE, request_only=True),
    OpenApiExample("Nobody", value={"clubs": False, "pairs": []}, request_only=True),
]


def _ok(serializer: Any, description: str) -> OpenApiResponse:
    return OpenApiResponse(
        serializer,
        description=description,
        examples=[OpenApiExample("Kept apart", value=KEEP_APART_EXAMPLE)],
    )


def keep_apart_get_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: _ok(serializer, "Who is kept apart."),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }


def keep_apart_put_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: _ok(serializer, "Who is kept apart now: from the next seating on."),
        HTTPStatus.BAD_REQUEST: problem(
            "A pair that is not two different entrants: every bad pair at once.",
            (
                "Not an entrant",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "pairs.1: Player 99 is not an entrant of competition 3.",
                    errors={"pairs.1": ["Player 99 is not an entrant of competition 3."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "The competition has finished.",
            (
                "Finished",
                problem_example(
                    409,
                    "competition_status",
                    "Not now",
                    "Competition 3 has finished: its rules stay as they were.",
                ),
            ),
        ),
    }


#: Setting who is kept apart: the operation's name, summary, parameters and examples.
KEEP_APART_SET: dict[str, Any] = {
    "operation_id": "competition_keep_apart_set",
    "summary": "Set who is kept apart (organiser)",
    "tags": ["competitions"],
    "parameters": PARAMETERS,
    "examples": KEEP_APART_REQUEST_EXAMPLES,
}
