"""The OpenAPI declarations of ``games.api.quick_play``'s view."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from games.api.common import NOT_AUTHENTICATED, problem, problem_example
from games.api.queue_types import QueueEntryOutputSerializer, QueueJoinInputSerializer

WAITING = {
    "variant": "chickenfoot",
    "seats": 4,
    "preset": "standard",
    "bots_after_seconds": 60,
    "rating": 1000,
    "status": "waiting",
    "joined_at": "2026-12-01T12:00:00Z",
    "match_id": None,
    "matched_at": None,
}
MATCHED = {**WAITING, "status": "matched", "match_id": 7, "matched_at": "2026-12-01T12:00:25Z"}

NOT_IN_QUEUE = problem(
    "You are in no queue (or the match it found you is over).",
    (
        "Not queued",
        problem_example(404, "not_in_queue", "Not in the queue", "You are in no queue."),
    ),
)
ALREADY_QUEUED = problem(
    "You are in another queue, or matched from one into a match not over yet.",
    (
        "Another queue",
        problem_example(
            409,
            "already_queued",
            "Already queued",
            "You are in the standard queue of chickenfoot for 4 already: leave it before you "
            "join another.",
        ),
    ),
)
MATCHED_ALREADY = problem(
    "The entry was matched: the match is yours (resign there to leave it).",
    (
        "Matched",
        problem_example(
            409,
            "queue_matched",
            "Matched already",
            "You were matched already: match 7 is yours.",
            match_id=7,
        ),
    ),
)
BAD_JOIN = problem(
    "An unknown variant or preset, a seat count out of range or the set cannot seat, a wait "
    "for bots out of bounds: every bad field at once.",
    (
        "Bad fields",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "Invalid input in: preset, seats.",
            errors={
                "preset": ['"blitz" is not a valid choice.'],
                "seats": ["Ensure this value is less than or equal to 6."],
            },
        ),
    ),
)


def _entry(description: str, *examples: tuple[str, dict[str, Any]]) -> OpenApiResponse:
    return OpenApiResponse(
        QueueEntryOutputSerializer,
        description=description,
        examples=[OpenApiExample(name, value=value) for name, value in examples],
    )


JOINED = ("Waiting", WAITING)
AGAIN = ("Matched", MATCHED)


def _join_responses() -> dict[int, Any]:
    return {
        HTTPStatus.CREATED: _entry(
            "You joined: waiting, or matched at once.", ("Waiting", WAITING)
        ),
        HTTPStatus.OK: _entry("You were in this queue already: your entry.", ("Matched", MATCHED)),
        HTTPStatus.BAD_REQUEST: BAD_JOIN,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.CONFLICT: ALREADY_QUEUED,
    }


JOIN_EXAMPLES = [
    OpenApiExample(
        "Four, bots after a minute",
        value={
            "variant": "chickenfoot",
            "seats": 4,
            "preset": "standard",
            "bots_after_seconds": 60,
        },
        request_only=True,
    ),
    OpenApiExample(
        "Two, quick, no bots",
        value={"variant": "mexican_train", "seats": 2, "preset": "quick"},
        request_only=True,
    ),
]
QUEUE = {"tags": ["quick play"]}

QUEUE_READ_SCHEMA = extend_schema(
    operation_id="queue_read", summary="My quick play entry", **QUEUE,
    responses={HTTPStatus.OK: _entry("Waiting, or matched (`match_id`).", ("Waiting", WAITING),
               ("Matched", MATCHED)), HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
               HTTPStatus.NOT_FOUND: NOT_IN_QUEUE},
)  # fmt: skip
QUEUE_JOIN_SCHEMA = extend_schema(
    operation_id="queue_join", summary="Join quick play", **QUEUE,
    description="Wait for a table of players of a like rating (docs/api.md, Quick play).",
    request=QueueJoinInputSerializer,
    examples=JOIN_EXAMPLES, responses=_join_responses(),
)  # fmt: skip
QUEUE_LEAVE_SCHEMA = extend_schema(
    operation_id="queue_leave", summary="Leave quick play", **QUEUE, request=None,
    responses={HTTPStatus.NO_CONTENT: OpenApiResponse(description="You left the queue."),
               HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED, HTTPStatus.NOT_FOUND: NOT_IN_QUEUE,
               HTTPStatus.CONFLICT: MATCHED_ALREADY},
)  # fmt: skip
