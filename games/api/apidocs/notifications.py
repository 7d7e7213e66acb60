"""The OpenAPI declarations of ``games.api.notifications``'s views: what their
``extend_schema`` calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games.api.common import NOT_AUTHENTICATED, TICKET_UNAVAILABLE, problem, problem_example

_TAGS = ["notifications"]

YOUR_TURN = {
    "id": 41,
    "kind": "your_turn",
    "payload": {"match_id": 7, "seat": 1},
    "created_at": "2026-12-01T12:00:00Z",
    "read": False,
    "title": "Chicken Foot: your turn",
    "body": "Your turn against Ada and 2 bots",
}
MATCH_OVER = {
    "id": 40,
    "kind": "match_over",
    "payload": {"match_id": 6},
    "created_at": "2026-12-01T11:40:00Z",
    "read": True,
    "title": "Chicken Foot: match finished",
    "body": "Your match against Ada and Grace is finished",
}
FRIEND_REQUEST = {
    "id": 42,
    "kind": "friend_request",
    "payload": {"request_id": 12, "by_player_id": 3},
    "created_at": "2026-12-01T12:05:00Z",
    "read": False,
    "title": "A friend request",
    "body": "Ada wants to be your friend",
}
PAGE = {
    "next": "https://chickenfoot.example/api/notifications?cursor=cD00MA%3D%3D&page_size=3",
    "previous": None,
    "results": [FRIEND_REQUEST, YOUR_TURN, MATCH_OVER],
    "unread": 2,
}

CURSOR = OpenApiParameter(
    "cursor",
    str,
    OpenApiParameter.QUERY,
    required=False,
    description="The page's cursor: follow `next` and `previous`, never make one up.",
)
PAGE_SIZE = OpenApiParameter(
    "page_size",
    {"type": "integer", "minimum": 1, "maximum": 100},
    OpenApiParameter.QUERY,
    required=False,
    description="Notifications per page (1 to 100; 50 if not given).",
)

LIST_DOCS: dict[str, Any] = {
    "operation_id": "notification_list",
    "summary": "My notifications, newest first, and how many are unread",
    "tags": _TAGS,
    "parameters": [CURSOR, PAGE_SIZE],
}
READ_DOCS: dict[str, Any] = {
    "operation_id": "notifications_read",
    "summary": "Mark notifications read (by ids, or all up to an id)",
    "tags": _TAGS,
    "examples": [
        OpenApiExample("These", value={"ids": [41, 40]}, request_only=True),
        OpenApiExample("All up to one", value={"up_to": 41}, request_only=True),
    ],
}
PREFERENCES_GET_DOCS: dict[str, Any] = {
    "operation_id": "notification_preferences",
    "summary": "My notification preferences: per kind, the channels it goes out on",
    "tags": _TAGS,
}
PREFERENCES_PUT_DOCS: dict[str, Any] = {
    "operation_id": "notification_preferences_set",
    "summary": "Set per kind whether it is pushed to my devices (the inbox keeps every kind)",
    "tags": _TAGS,
    "examples": [
        OpenApiExample(
            "No pushes for a finished match",
            value={"preferences": [{"kind": "match_over", "push": False}]},
            request_only=True,
        )
    ],
}
TICKET_DOCS: dict[str, Any] = {
    "operation_id": "notifications_ticket",
    "summary": "A ticket for my notifications' socket (/ws/me/)",
    "tags": _TAGS,
    "description": "Browsers cannot set headers on a WebSocket: they open "
    "`/ws/me/?ticket=...` with a ticket from here. A ticket is signed, expires after a minute "
    "and opens one socket (docs/api.md, Notifications and push).",
}

_BAD_LIMIT = problem(
    "A made-up cursor, a page size out of range, or an unknown parameter.",
    (
        "Bad cursor",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "cursor: Invalid cursor.",
            errors={"cursor": ["Invalid cursor."]},
        ),
    ),
)


def list_responses(output: type) -> dict[int, OpenApiResponse]:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="One page, newest first; `next` leads to older ones (`null`: the end).",
            examples=[OpenApiExample("Three notifications", value=PAGE)],
        ),
        HTTPStatus.BAD_REQUEST: _BAD_LIMIT,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


def read_responses(output: type) -> dict[int, OpenApiResponse]:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="Marked (another player's ids mark nothing); the unread left.",
            examples=[OpenApiExample("None left", value={"unread": 0})],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "Neither `ids` nor `up_to`, or both.",
            (
                "Neither",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "ids: Send `ids` or `up_to`, one.",
                    errors={"ids": ["Send `ids` or `up_to`, one."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


PREFERENCES = {
    "preferences": [
        {"kind": "your_turn", "inbox": True, "push": True},
        {"kind": "invited", "inbox": True, "push": True},
        {"kind": "match_started", "inbox": True, "push": True},
        {"kind": "match_over", "inbox": True, "push": False},
        {"kind": "table_assigned", "inbox": True, "push": True},
        {"kind": "round_disputed", "inbox": True, "push": True},
        {"kind": "result_corrected", "inbox": True, "push": True},
        {"kind": "friend_request", "inbox": True, "push": True},
        {"kind": "friend_accepted", "inbox": True, "push": True},
    ]
}


def preferences_responses(output: type, *, put: bool = False) -> dict[int, OpenApiResponse]:
    answers: dict[int, OpenApiResponse] = {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="Every kind, with its channels.",
            examples=[OpenApiExample("Match over not pushed", value=PREFERENCES)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }
    if put:
        answers[HTTPStatus.BAD_REQUEST] = problem(
            "An unknown kind, or `push` not a boolean.",
            (
                "Unknown kind",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    'preferences.0.kind: "nudged" is not a valid choice.',
                    errors={"preferences.0.kind": ['"nudged" is not a valid choice.']},
                ),
            ),
        )
    return answers


def ticket_responses(output: type) -> dict[int, OpenApiResponse]:
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            output,
            description="The ticket.",
            examples=[
                OpenApiExample(
                    "Ticket",
                    value={
                        "ticket": "eyJuIjoiWmZ1...:1tG3kQ:Qm9...",
                        "expires_in": 60,
                        "url": "/ws/me/?ticket=eyJuIjoiWmZ1...:1tG3kQ:Qm9...",
                    },
                )
            ],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.SERVICE_UNAVAILABLE: TICKET_UNAVAILABLE,
    }
