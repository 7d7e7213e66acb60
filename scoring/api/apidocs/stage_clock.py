"""The OpenAPI declarations of ``scoring.api.stage_clock``'s views: a stage's clock, which the
organiser starts and stops."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.apidocs.table_events import STAGE_NUMBER
from scoring.api.competition_base import COMPETITION_ID, NOT_FOUND, NOT_ORGANISER

PARAMETERS = [COMPETITION_ID, STAGE_NUMBER]
TAGS = ["competitions"]

RUNNING_EXAMPLE: dict[str, Any] = {
    "stage": 2,
    "state": "running",
    "minutes": 45,
    "started_at": "2025-03-08T19:30:00Z",
    "ends_at": "2025-03-08T20:15:00Z",
    "now": "2025-03-08T19:30:00.214000Z",
}
ENDED_EXAMPLE: dict[str, Any] = {**RUNNING_EXAMPLE, "state": "ended", "now": "2025-03-08T20:16:03Z"}
OFF_EXAMPLE: dict[str, Any] = {
    "stage": 2,
    "state": "off",
    "minutes": None,
    "started_at": None,
    "ends_at": None,
    "now": "2025-03-08T20:02:41Z",
}
START_REQUESTS = [
    OpenApiExample("Forty-five minutes", value={"minutes": 45}, request_only=True),
    OpenApiExample(
        "Started again, with a reason",
        value={"minutes": 30, "reason": "The hall opened late"},
        request_only=True,
    ),
]

_CONFLICT = problem(
    "An online event (its matches have clocks of their own); a stage not started, or no longer "
    "the one playing.",
    (
        "An online event",
        problem_example(
            409,
            "competition_status",
            "Not now",
            "Competition 3 is played online: its matches have their own clocks, so its stages "
            "have none.",
        ),
    ),
    (
        "A stage that is over",
        problem_example(
            409,
            "wrong_stage",
            "Wrong stage",
            "Stage 1 of competition 3 is over: only the stage playing, 2, has a clock.",
            next_stage=3,
        ),
    ),
)
_REFUSALS = {
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: NOT_ORGANISER,
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    HTTPStatus.CONFLICT: _CONFLICT,
}
_BAD = problem(
    "A bad body: every bad field is named at once.",
    (
        "Too long",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "minutes: Ensure this value is less than or equal to 720.",
            errors={"minutes": ["Ensure this value is less than or equal to 720."]},
        ),
    ),
    (
        "No duration",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "minutes: This field is required.",
            errors={"minutes": ["This field is required."]},
        ),
    ),
)


def get_schema(serializer: Any) -> dict[str, Any]:
    """``extend_schema``'s arguments for reading the clock."""
    return {
        "operation_id": "competition_stage_clock",
        "summary": "A stage's clock (organiser)",
        "tags": TAGS,
        "parameters": PARAMETERS,
        "responses": {
            HTTPStatus.OK: OpenApiResponse(
                serializer,
                description="The clock, with the server's time (`now`): count down "
                "`ends_at - now`, not with the reader's own clock.",
                examples=[
                    OpenApiExample("Running", value=RUNNING_EXAMPLE),
                    OpenApiExample("Run out: the last round", value=ENDED_EXAMPLE),
                    OpenApiExample("None", value=OFF_EXAMPLE),
                ],
            ),
            **{status: answer for status, answer in _REFUSALS.items() if status != 409},
            HTTPStatus.CONFLICT: _CONFLICT,
        },
    }


def start_schema(request: Any, serializer: Any) -> dict[str, Any]:
    """``extend_schema``'s arguments for starting the clock."""
    return {
        "operation_id": "competition_stage_clock_start",
        "summary": "Start a stage's clock (organiser)",
        "tags": TAGS,
        "parameters": PARAMETERS,
        "request": request,
        "examples": START_REQUESTS,
        "responses": {
            HTTPStatus.OK: OpenApiResponse(
                serializer,
                description="The clock runs out `minutes` from now (a running one starts "
                "again); the wall and the stage's tables are told.",
                examples=[OpenApiExample("Started", value=RUNNING_EXAMPLE)],
            ),
            HTTPStatus.BAD_REQUEST: _BAD,
            **_REFUSALS,
        },
    }


def stop_schema(serializer: Any) -> dict[str, Any]:
    """``extend_schema``'s arguments for stopping the clock."""
    return {
        "operation_id": "competition_stage_clock_stop",
        "summary": "Stop a stage's clock (organiser)",
        "tags": TAGS,
        "parameters": PARAMETERS,
        "request": None,
        "responses": {
            HTTPStatus.OK: OpenApiResponse(
                serializer,
                description="The stage has no clock any more (stopping none changes nothing).",
                examples=[OpenApiExample("Stopped", value=OFF_EXAMPLE)],
            ),
            **_REFUSALS,
        },
    }
