"""The OpenAPI declarations of ``scoring.api.stage_edits``'s views: a stage, the organiser's
changes to its seating, and their audit."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.apidocs.standings import STAGE_EXAMPLE
from scoring.api.apidocs.table_events import CHECK_INS_EXAMPLE, STAGE_NUMBER
from scoring.api.competition_base import COMPETITION_ID, NOT_FOUND, NOT_ORGANISER

IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="The stage's ETag (its seating's version, `\"3\"`) the change answers: "
    "without it 428, an older one 409 `stale_version`.",
)
ETAG = {
    "ETag": OpenApiResponse(
        response=str, description='The seating\'s version, quoted (`"3"`): the next If-Match.'
    )
}
STAGE_PARAMETERS = [COMPETITION_ID, STAGE_NUMBER]
CHANGES_PARAMETERS = [COMPETITION_ID]
ETAG_HEADER = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    required=True,
    response=[200],
    description='The seating\'s version, quoted (`"3"`): send it as If-Match with a change.',
)

STALE_EXAMPLE: dict[str, Any] = {
    "since": "2025-03-08T11:40:00Z",
    "corrections": [{"stage": 1, "table": 2, "match_id": 42}],
    "changes": [
        {
            "player_id": 9,
            "name": "Edsger",
            "rank_before": 3,
            "rank_after": 2,
            "placement_points_before": 1.0,
            "placement_points_after": 3.0,
        },
        {
            "player_id": 2,
            "name": "Grace",
            "rank_before": 2,
            "rank_after": 3,
            "placement_points_before": 3.0,
            "placement_points_after": 1.0,
        },
    ],
}
SWAPPED_EXAMPLE: dict[str, Any] = {
    **STAGE_EXAMPLE,
    "number": 2,
    "version": 1,
    "pairing_stale": STALE_EXAMPLE,
}

_REQUESTS: dict[str, list[OpenApiExample]] = {
    "swap": [
        OpenApiExample(
            "Two entrants change seats",
            value={"players": [5, 9], "reason": "Alan and Edsger came in the same car"},
            request_only=True,
        )
    ],
    "move": [
        OpenApiExample(
            "To the empty seat of table 3", value={"player": 31, "table": 3}, request_only=True
        ),
        OpenApiExample(
            "To play first at table 2",
            value={"player": 5, "table": 2, "position": 0},
            request_only=True,
        ),
    ],
    "replace": [
        OpenApiExample(
            "A late entrant for a no-show",
            value={"player": 32, "replaces": 7, "reason": "Barbara phoned: not coming"},
            request_only=True,
        )
    ],
    "lock": [
        OpenApiExample(
            "Keep tables 1 and 4", value={"tables": [1, 4], "locked": True}, request_only=True
        )
    ],
    "re_pair": [
        OpenApiExample(
            "After a correction",
            value={"reason": "Table 2 of stage 1 corrected"},
            request_only=True,
        )
    ],
    "reopen": [
        OpenApiExample(
            "Two tables started early",
            value={"reason": "Tables 1 and 2 began before the swap was made"},
            request_only=True,
        )
    ],
    "undo": [
        OpenApiExample(
            "Seated too soon",
            value={"reason": "Seated before the walk-ins came"},
            request_only=True,
        )
    ],
}
_SUMMARIES = {
    "swap": "Swap two entrants' seats (organiser)",
    "move": "Move an entrant to an empty seat (organiser)",
    "replace": "Seat an entrant in place of a no-show (organiser)",
    "lock": "Lock or unlock tables (organiser)",
    "re_pair": "Re-pair the stage (organiser)",
    "reopen": "Reopen the seating after scores (organiser)",
    "undo": "Undo the stage (organiser)",
}

_SCORING_STARTED = (
    "Scoring started",
    problem_example(
        409,
        "stage_scoring_started",
        "Scoring started",
        "Tables 1, 3 of stage 2 have scores: its organiser may reopen the seating first.",
        tables=[1, 3],
    ),
)
_STALE = (
    "Stale version",
    problem_example(
        409,
        "stale_version",
        "Stale version",
        "Stage 2's seating is at version 4, not 3: read it again and resend.",
        current_version=4,
    ),
)
_ONLINE = (
    "Online: a move played",
    problem_example(
        409,
        "stage_scoring_started",
        "Scoring started",
        "Table 2 of stage 1 has started, a move was played there: its organiser may reopen "
        "the seating first.",
        tables=[2],
    ),
)
_OVER = (
    "Not the last stage",
    problem_example(
        409,
        "wrong_stage",
        "Wrong stage",
        "Stage 1 of competition 3 is over: only the stage seated last, 2, is changed.",
        next_stage=3,
    ),
)
_BAD = {
    "swap": (
        "Not seated",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "players.1: Player 77 has no seat at stage 2.",
            errors={"players.1": ["Player 77 has no seat at stage 2."]},
        ),
    ),
    "move": (
        "A full table",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "table: Table 3 is full: tables seat 4.",
            errors={"table": ["Table 3 is full: tables seat 4."]},
        ),
    ),
    "replace": (
        "Seated already",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "player: Player 5 has a seat at stage 2 already.",
            errors={"player": ["Player 5 has a seat at stage 2 already."]},
        ),
    ),
    "lock": (
        "No such table",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "tables.0: Stage 2 has no table 9.",
            errors={"tables.0": ["Stage 2 has no table 9."]},
        ),
    ),
}
_BAD_REASON = (
    "A reason too long",
    problem_example(
        400,
        "invalid",
        "Invalid input",
        "reason: Ensure this field has no more than 500 characters.",
        errors={"reason": ["Ensure this field has no more than 500 characters."]},
    ),
)


def edit_schema(kind: str, request: Any, response: Any) -> dict[str, Any]:
    """``extend_schema``'s arguments for the change ``kind``: its request and answers."""
    ok: Any
    if kind == "undo":
        ok = OpenApiResponse(
            response,
            description="The stage is gone; check-in for it is open again.",
            examples=[OpenApiExample("Undone", value={**CHECK_INS_EXAMPLE, "stage": 2})],
        )
        parameters = [*STAGE_PARAMETERS, IF_MATCH]
    else:
        ok = OpenApiResponse(
            response,
            description="The stage as it is now; its ETag is the seating's new version.",
            examples=[OpenApiExample("Changed", value=SWAPPED_EXAMPLE)],
        )
        parameters = [*STAGE_PARAMETERS, IF_MATCH, ETAG_HEADER]
    conflicts = [_SCORING_STARTED, _STALE, _ONLINE, _OVER]
    if kind == "re_pair":
        conflicts.append(
            (
                "One player left",
                problem_example(
                    409,
                    "too_few_players",
                    "Too few players",
                    "Stage 2 has one player to seat besides its locked tables: unlock a "
                    "table, or seat them with a move.",
                ),
            )
        )
    return {
        "operation_id": f"competition_stage_{kind}",
        "summary": _SUMMARIES[kind],
        "tags": ["competitions"],
        "parameters": parameters,
        "request": request,
        "examples": _REQUESTS[kind],
        "responses": {
            HTTPStatus.OK: ok,
            HTTPStatus.BAD_REQUEST: problem(
                "A bad body (every bad field at once), or an If-Match that is not an ETag.",
                _BAD.get(kind, _BAD_REASON),
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.FORBIDDEN: NOT_ORGANISER,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
            HTTPStatus.CONFLICT: problem(
                "A table of the stage has scores (online: a move was played at it); the "
                "seating moved on since the version answered; a stage that is not the last "
                "seated.",
                *conflicts,
            ),
            HTTPStatus.PRECONDITION_REQUIRED: problem(
                "No If-Match: send the version you answer.",
                (
                    "No version",
                    problem_example(
                        428,
                        "version_required",
                        "Version required",
                        'Send the stage\'s version you are answering: If-Match: "3".',
                        current_version=3,
                    ),
                ),
            ),
        },
    }


def stage_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: OpenApiResponse(
            serializer,
            description="The stage; its ETag is the seating's version.",
            examples=[OpenApiExample("Stale after a correction", value=SWAPPED_EXAMPLE)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "An unknown query parameter.",
            (
                "Unknown parameter",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "page: Unknown parameter.",
                    errors={"page": ["Unknown parameter."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "The stage has not started.",
            (
                "Not started",
                problem_example(
                    409,
                    "wrong_stage",
                    "Wrong stage",
                    "Stage 2 of competition 3 has not started (1 of 3 have).",
                    next_stage=2,
                ),
            ),
        ),
    }


CHANGE_EXAMPLE: dict[str, Any] = {
    "stage": 2,
    "version": 1,
    "kind": "swap",
    "at": "2025-03-08T11:02:00Z",
    "by": {"player_id": 1, "name": "Ada"},
    "reason": "Alan and Edsger came in the same car",
    "players": [5, 9],
    "tables": [
        {"table": 1, "match_id": 51, "before": [5, 2], "after": [9, 2]},
        {"table": 2, "match_id": 52, "before": [9, 7], "after": [5, 7]},
    ],
    "byes": None,
    "clock": None,
    "entrants": [
        {"player_id": 2, "name": "Grace", "kind": "human"},
        {"player_id": 5, "name": "Alan", "kind": "human"},
        {"player_id": 7, "name": "Barbara", "kind": "human"},
        {"player_id": 9, "name": "Edsger", "kind": "guest"},
    ],
}


CLOCK_CHANGE_EXAMPLE: dict[str, Any] = {
    "stage": 2,
    "version": 1,
    "kind": "clock",
    "at": "2025-03-08T11:30:00Z",
    "by": {"player_id": 1, "name": "Ada"},
    "reason": None,
    "players": [],
    "tables": [],
    "byes": None,
    "clock": {"action": "start", "minutes": 45, "ends_at": "2025-03-08T12:15:00Z"},
    "entrants": [],
}


def changes_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: OpenApiResponse(
            serializer,
            description="Every change to the seating, oldest first.",
            examples=[
                OpenApiExample("A swap", value={"changes": [CHANGE_EXAMPLE]}),
                OpenApiExample(
                    "A swap, then the clock started",
                    value={"changes": [CHANGE_EXAMPLE, CLOCK_CHANGE_EXAMPLE]},
                ),
            ],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "An unknown query parameter.",
            (
                "Unknown parameter",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "page: Unknown parameter.",
                    errors={"page": ["Unknown parameter."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }
