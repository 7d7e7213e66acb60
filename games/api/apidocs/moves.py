"""The OpenAPI declarations of ``games.api.moves``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
)

from games.api.apidocs import examples
from games.api.apidocs.table_scores import TABLE_MATCH_CONFLICT, TABLE_MATCH_EXAMPLE
from games.api.common import (
    ETAG_HEADER,
    MATCH_ID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_MODIFIED,
    NOT_MODIFIED_TEXT,
    NOT_YOUR_MATCH,
    TOO_MANY_REQUESTS,
    problem,
    problem_example,
)


def legal_moves_responses(legal_moves_output_serializer: Any) -> Any:
    """The answers of ``LegalMovesApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            legal_moves_output_serializer,
            description="Every move the engine accepts from your seat now.",
            examples=[OpenApiExample("Opening the spinner", value=examples.LEGAL_MOVES)],
        ),
        NOT_MODIFIED_TEXT: NOT_MODIFIED,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: TABLE_MATCH_CONFLICT,
    }


MOVE_SUBMIT_HEADING = {"summary": "Submit a move", "tags": ["play"]}

MOVE_SUBMIT_PARAMETERS = [
    MATCH_ID,
    ETAG_HEADER,
    OpenApiParameter(
        "Idempotent-Replayed",
        str,
        OpenApiParameter.HEADER,
        response=[201],
        enum=["true"],
        description="`true` when this is the first answer to an earlier request with "
        "the same `Idempotency-Key`, sent again; absent otherwise.",
    ),
    OpenApiParameter(
        "If-Match",
        str,
        OpenApiParameter.HEADER,
        required=False,
        description='The version you answer, as an ETag (`"12"`); or the field `version`.',
    ),
    OpenApiParameter(
        "Idempotency-Key",
        str,
        OpenApiParameter.HEADER,
        required=False,
        description="Any unique string; a retry with it returns the first answer.",
    ),
]

MOVE_SUBMIT_EXAMPLES = [
    OpenApiExample(
        "Play",
        value={"kind": "play", "tile": [8, 9], "target": "arm:0", "version": 2},
        request_only=True,
    ),
    OpenApiExample("Draw", value={"kind": "draw", "version": 5}, request_only=True),
    OpenApiExample("Pass", value={"kind": "pass", "version": 6}, request_only=True),
]


def move_submit_responses(move_submit_output_serializer: Any) -> Any:
    """The answers of ``MoveSubmitApi``, given the view's own serializer."""
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            move_submit_output_serializer,
            description="Applied. `ETag` is the new version.",
            examples=[OpenApiExample("Played", value=examples.MOVE_SUBMITTED)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "Not a move: a field of the wrong type or unknown, a bad tile, an unknown kind "
            "or target (`errors` names the field); or an `If-Match` or `Idempotency-Key` "
            "header that is not one the API takes (`invalid_header`).",
            (
                "Bad If-Match",
                problem_example(
                    400,
                    "invalid_header",
                    "Invalid header",
                    'If-Match: Send the match\'s ETag, like "12".',
                    errors={"If-Match": ['Send the match\'s ETag, like "12".']},
                ),
            ),
            (
                "Malformed tile",
                problem_example(
                    400,
                    "malformed_move",
                    "Malformed move",
                    "tile: Ensure this field has at least 2 elements.",
                    errors={"tile": ["Ensure this field has at least 2 elements."]},
                ),
            ),
            (
                "Version as a string",
                problem_example(
                    400,
                    "malformed_move",
                    "Malformed move",
                    "version: A valid integer is required.",
                    errors={"version": ["A valid integer is required."]},
                ),
            ),
            (
                "Unknown target",
                problem_example(
                    400,
                    "malformed_move",
                    "Malformed move",
                    "Unknown target 'arm:7': this table has arm:0 … arm:3.",
                    errors={"target": ["Unknown target 'arm:7': this table has arm:0 … arm:3."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "Stale version, a version ahead of the match, not your turn, or the match is not "
            "in play.",
            (
                "Stale version",
                problem_example(
                    409,
                    "stale_version",
                    "Stale version",
                    "The match is at version 5, not 4: fetch it again and resend.",
                    current_version=5,
                ),
            ),
            (
                "Version ahead",
                problem_example(
                    409,
                    "version_ahead",
                    "Version ahead",
                    "The match is at version 5; it has not reached 9. Send the version of "
                    "the state you are answering.",
                    current_version=5,
                ),
            ),
            (
                "Not your turn",
                problem_example(
                    409,
                    "not_your_turn",
                    "Not your turn",
                    "It is seat 1's turn, not seat 0's.",
                    rule="C-SEATS",
                ),
            ),
            TABLE_MATCH_EXAMPLE,
        ),
        HTTPStatus.UNPROCESSABLE_ENTITY: problem(
            "A broken rule (named by `rule`), or an Idempotency-Key reused for another move.",
            (
                "Tile not in hand",
                problem_example(
                    422,
                    "rule_violation",
                    "Rule violation",
                    "You do not hold 4|6: a play is a tile from your hand.",
                    rule="CF-ONE",
                ),
            ),
            (
                "Key reused",
                problem_example(
                    422,
                    "idempotency_key_reused",
                    "Idempotency key reused",
                    "This Idempotency-Key was used for a different request; use a new key.",
                ),
            ),
        ),
        HTTPStatus.PRECONDITION_REQUIRED: problem(
            "No version sent.",
            (
                "No version",
                problem_example(
                    428,
                    "version_required",
                    "Version required",
                    "Send the version you are answering: the body's `version` or `If-Match`.",
                    current_version=5,
                ),
            ),
        ),
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
    }


def move_log_responses(move_log_output_serializer: Any) -> Any:
    """The answers of ``MoveLogApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            move_log_output_serializer,
            description="Up to `limit` moves after `after`.",
            examples=[OpenApiExample("First move", value=examples.MOVE_LOG)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "Bad paging.",
            (
                "Bad limit",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "limit: Ensure this value is less than or equal to 200.",
                    errors={"limit": ["Ensure this value is less than or equal to 200."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }
