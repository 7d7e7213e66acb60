"""The OpenAPI declarations of ``scoring.api.table_events``'s views: check-in, drop-outs and
the organiser's stage dashboard."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.competition_base import COMPETITION_ID, NOT_FOUND, NOT_ORGANISER

STAGE_NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="The stage's number (1-based)."
)
PARAMETERS = [COMPETITION_ID]
CHECK_IN_POST_HEADING: dict[str, Any] = {
    "operation_id": "competition_check_in",
    "summary": "Check in for the next stage",
    "tags": ["competitions"],
}
DROP_HEADING: dict[str, Any] = {
    "operation_id": "competition_drop",
    "summary": "Drop a player out",
    "tags": ["competitions"],
}
DASHBOARD_PARAMETERS = [COMPETITION_ID, STAGE_NUMBER]

CHECK_INS_EXAMPLE: dict[str, Any] = {
    "stage": 1,
    "open": True,
    "check_ins": [
        {
            "player_id": 2,
            "name": "Grace",
            "checked_in_at": "2025-03-08T09:40:00Z",
            "by_organiser": False,
        },
        {
            "player_id": 5,
            "name": "Alan",
            "checked_in_at": "2025-03-08T09:45:00Z",
            "by_organiser": True,
        },
    ],
}
DROP_EXAMPLE: dict[str, Any] = {"player_id": 5, "dropped_at": "2025-03-08T11:02:00Z"}
DASHBOARD_EXAMPLE: dict[str, Any] = {
    "stage": 1,
    "status": "playing",
    "version": 2,
    "seating_reopened_at": None,
    "pairing_stale": None,
    "finished": 1,
    "tables": [
        {
            "table": 1,
            "match_id": 41,
            "locked": False,
            "seats": [
                {"position": 0, "player_id": 2, "name": "Grace"},
                {"position": 1, "player_id": 5, "name": "Alan"},
            ],
            "rounds_entered": 2,
            "rounds": 2,
            "finished": True,
            "confirmed": 0,
            "disputed": 0,
        },
        {
            "table": 2,
            "match_id": 42,
            "locked": True,
            "seats": [
                {"position": 0, "player_id": 7, "name": "Edsger"},
                {"position": 1, "player_id": 9, "name": "Barbara"},
            ],
            "rounds_entered": 1,
            "rounds": 2,
            "finished": False,
            "confirmed": 0,
            "disputed": 0,
        },
    ],
}

CHECK_IN_REQUEST_EXAMPLES = [
    OpenApiExample("Yourself", value={}, request_only=True),
    OpenApiExample("The organiser checks a player in", value={"player_id": 5}, request_only=True),
]
DROP_REQUEST_EXAMPLES = [
    OpenApiExample("The organiser drops a player", value={"player_id": 5}, request_only=True)
]

BAD_PLAYER_ID = problem(
    "The body is not what the operation takes.",
    (
        "A player id that is not a number",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "player_id: A valid integer is required.",
            errors={"player_id": ["A valid integer is required."]},
        ),
    ),
)
CHECK_IN_CONFLICT = problem(
    "Check-in is not open, or the player may not check in.",
    (
        "Closed",
        problem_example(
            409,
            "competition_status",
            "Not now",
            "Check-in for stage 2 of competition 3 is closed.",
        ),
    ),
    (
        "Not registered",
        problem_example(
            409,
            "not_registered",
            "Not registered",
            "Player 8 is not registered for competition 3.",
        ),
    ),
)
DROP_CONFLICT = problem(
    "The competition is not running, or the player is not registered.",
    (
        "Not running",
        problem_example(
            409,
            "competition_status",
            "Not now",
            "Competition 3 is closed: players drop out only while it runs.",
        ),
    ),
)
DASHBOARD_CONFLICT = problem(
    "The stage has not started.",
    (
        "Not started",
        problem_example(
            409,
            "wrong_stage",
            "Wrong stage",
            "Stage 2 of competition 3 has not started (1 of 2 have).",
            next_stage=2,
        ),
    ),
)


def _ok(serializer: Any, description: str, name: str, example: dict[str, Any]) -> Any:
    return OpenApiResponse(
        serializer, description=description, examples=[OpenApiExample(name, value=example)]
    )


def check_in_responses(serializer: Any, *, body: bool, organiser: bool) -> dict[Any, Any]:
    """A check-in operation's responses: the check-ins of the next stage, or a problem."""
    responses: dict[Any, Any] = {
        HTTPStatus.OK: _ok(
            serializer, "Who is checked in for the next stage.", "Checked in", CHECK_INS_EXAMPLE
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: CHECK_IN_CONFLICT,
    }
    if body:
        responses[HTTPStatus.BAD_REQUEST] = BAD_PLAYER_ID
    if organiser:
        responses[HTTPStatus.FORBIDDEN] = NOT_ORGANISER
    return responses


def check_in_list_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: _ok(
            serializer, "Who is checked in for the next stage.", "Checked in", CHECK_INS_EXAMPLE
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }


def drop_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: _ok(serializer, "The player has dropped out.", "Dropped", DROP_EXAMPLE),
        HTTPStatus.BAD_REQUEST: BAD_PLAYER_ID,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: DROP_CONFLICT,
    }


def dashboard_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: _ok(serializer, "Each table of the stage.", "A stage", DASHBOARD_EXAMPLE),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: DASHBOARD_CONFLICT,
    }
