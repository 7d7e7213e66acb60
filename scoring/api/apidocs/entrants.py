"""The OpenAPI declarations of ``scoring.api.entrants``'s views: the entrants, adding them (one,
or a CSV file), changing one, reinstating one."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, TOO_MANY_REQUESTS, problem, problem_example
from scoring.api.competition_base import COMPETITION_ID, NOT_FOUND, NOT_ORGANISER

PARAMETERS = [COMPETITION_ID]
ENTRANT_PARAMETERS = [
    COMPETITION_ID,
    OpenApiParameter("player_id", int, OpenApiParameter.PATH, description="The entrant's id."),
]
CHECK_IN_PARAMETER = OpenApiParameter(
    "check_in",
    str,
    OpenApiParameter.QUERY,
    required=False,
    enum=["true", "false"],
    description="A CSV file at a table event: check every entrant of it in for the next stage "
    "(walk-ins at the door). Default false. (A JSON body says `check_in` itself.)",
)
CSV_BODY = {
    "type": "string",
    "description": "A header row naming the columns (name, username, player_id, club, seed; "
    "any order), then one row per entrant: a guest by name, or a player with an account by "
    "username or player_id. UTF-8.",
}
CSV_EXAMPLE = "name,username,club,seed\r\nWalk-in Wendy,,Riverside,\r\n,sam,Hilltop,3\r\n"

ENTRANT_EXAMPLE: dict[str, Any] = {
    "player_id": 31,
    "name": "Walk-in Wendy",
    "kind": "guest",
    "club": "Riverside",
    "seed": None,
    "registered_at": "2025-03-08T09:52:00Z",
    "added_by_organiser": True,
    "first_stage": 1,
    "dropped": False,
    "checked_in": True,
    "division": None,
}
SAM_EXAMPLE: dict[str, Any] = {
    **ENTRANT_EXAMPLE,
    "player_id": 12,
    "name": "sam",
    "kind": "human",
    "club": "Hilltop",
    "seed": 3,
}
LATE_EXAMPLE: dict[str, Any] = {
    **ENTRANT_EXAMPLE,
    "player_id": 32,
    "name": "Late Larry",
    "club": "",
    "first_stage": 3,
    "checked_in": False,
}

ADD_REQUEST_EXAMPLES = [
    OpenApiExample(
        "A walk-in guest, checked in",
        value={"name": "Walk-in Wendy", "club": "Riverside", "check_in": True},
        request_only=True,
    ),
    OpenApiExample(
        "A player with an account, seeded", value={"username": "sam", "seed": 3}, request_only=True
    ),
    OpenApiExample("By player id", value={"player_id": 12}, request_only=True),
    OpenApiExample("A CSV file", value=CSV_EXAMPLE, request_only=True, media_type="text/csv"),
]
UPDATE_REQUEST_EXAMPLES = [
    OpenApiExample("A club and a seed", value={"club": "Hilltop", "seed": 2}, request_only=True),
    OpenApiExample("No seed", value={"seed": None}, request_only=True),
]
REINSTATE_REQUEST_EXAMPLES = [
    OpenApiExample("Back, and here", value={"check_in": True}, request_only=True),
]

_INVALID = (
    "A guest at an online event",
    problem_example(
        400,
        "invalid",
        "Invalid input",
        "name: Competition 3 is played online: each entrant plays on their own account. "
        "Guests enter events at the table (play: table).",
        errors={
            "name": [
                "Competition 3 is played online: each entrant plays on their own account. "
                "Guests enter events at the table (play: table)."
            ]
        },
    ),
)
_BAD_FILE = (
    "Bad rows of a file",
    problem_example(
        400,
        "invalid_csv",
        "Invalid entrants file",
        "Invalid input in: 3.username, 4.seed, 5.name.",
        errors={
            "3.username": ["There is no player samm to enter."],
            "4.seed": ["'first' is not a whole number."],
            "5.name": [
                "A guest named Walk-in Wendy has entered already: give this one another name "
                "(an initial will do)."
            ],
        },
    ),
)
_ALREADY = (
    "Entered already",
    problem_example(
        409,
        "already_registered",
        "Already registered",
        "sam is an entrant of competition 3 already.",
    ),
)
_FINISHED = (
    "Finished",
    problem_example(
        409, "competition_status", "Not now", "Competition 3 has finished: nobody enters it now."
    ),
)
_NOT_ENTRANT = (
    "Not an entrant",
    problem_example(
        409, "not_registered", "Not registered", "Player 8 is not an entrant of competition 3."
    ),
)


def _ok(serializer: Any, description: str, name: str, value: Any) -> OpenApiResponse:
    return OpenApiResponse(
        serializer, description=description, examples=[OpenApiExample(name, value=value)]
    )


def list_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: _ok(
            serializer,
            "Every entrant (withdrawals left out), in order of entry.",
            "Entrants",
            {"entrants": [SAM_EXAMPLE, ENTRANT_EXAMPLE, LATE_EXAMPLE]},
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
    }


def add_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            serializer,
            description="The entrants added (one for a JSON body), each with its player_id.",
            examples=[
                OpenApiExample("A walk-in", value={"entrants": [ENTRANT_EXAMPLE]}),
                OpenApiExample("A file", value={"entrants": [ENTRANT_EXAMPLE, SAM_EXAMPLE]}),
                OpenApiExample("Late: plays from stage 3", value={"entrants": [LATE_EXAMPLE]}),
            ],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "Bad entrants: every bad field (of a file, every bad row: line and column) at once; "
            "nothing is written.",
            _INVALID,
            _BAD_FILE,
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "The player is an entrant already, the competition has finished, or check-in is "
            "closed.",
            _ALREADY,
            _FINISHED,
        ),
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
    }


def update_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: _ok(
            serializer, "The entrant as they are now.", "Changed", {"entrants": [SAM_EXAMPLE]}
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A bad club or seed.",
            (
                "Bad seed",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "seed: Ensure this value is greater than or equal to 1.",
                    errors={"seed": ["Ensure this value is greater than or equal to 1."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem("Not an entrant.", _NOT_ENTRANT),
    }


def reinstate_responses(serializer: Any) -> dict[Any, Any]:
    return {
        HTTPStatus.OK: _ok(
            serializer,
            "The entrant, seated again from the next stage.",
            "Reinstated",
            {"entrants": [{**SAM_EXAMPLE, "dropped": False, "checked_in": True}]},
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A bad body.",
            (
                "Not a boolean",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "check_in: Must be a valid boolean.",
                    errors={"check_in": ["Must be a valid boolean."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "The competition is not running, or the player has not dropped out.",
            (
                "Not dropped",
                problem_example(
                    409,
                    "competition_status",
                    "Not now",
                    "Player 12 has not dropped out of competition 3.",
                ),
            ),
            _NOT_ENTRANT,
        ),
    }


#: The organiser's operations on entrants: names, summaries, parameters and examples.
ADD: dict[str, Any] = {
    "operation_id": "competition_entrant_add",
    "summary": "Add entrants (organiser): one, or a CSV file of them",
    "tags": ["competitions"],
    "parameters": [*PARAMETERS, CHECK_IN_PARAMETER],
    "examples": ADD_REQUEST_EXAMPLES,
}
UPDATE: dict[str, Any] = {
    "operation_id": "competition_entrant_update",
    "summary": "Change an entrant's club or seed (organiser)",
    "tags": ["competitions"],
    "parameters": ENTRANT_PARAMETERS,
    "examples": UPDATE_REQUEST_EXAMPLES,
}
REINSTATE: dict[str, Any] = {
    "operation_id": "competition_entrant_reinstate",
    "summary": "Reinstate a dropped entrant (organiser)",
    "tags": ["competitions"],
    "parameters": ENTRANT_PARAMETERS,
    "examples": REINSTATE_REQUEST_EXAMPLES,
}
