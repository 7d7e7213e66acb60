"""The OpenAPI declarations of ``games.api.friends``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games.api.apidocs.profiles import AVATARS, HIDDEN_AVATARS
from games.api.common import NOT_AUTHENTICATED, TOO_MANY_REQUESTS, problem, problem_example
from games.api.friend_types import (
    BlockSerializer,
    FriendRequestInputSerializer,
    FriendRequestSerializer,
    FriendRequestsSerializer,
    FriendSerializer,
)
from games.api.paging import PAGE_PARAMETERS
from scoring.api.common import PAGE_NOT_FOUND, PLAYER_NOT_FOUND

TAGS = ["friends"]
REQUEST_ID = OpenApiParameter(
    "request_id", int, OpenApiParameter.PATH, description="A friend request's id."
)
PLAYER_ID = OpenApiParameter("player_id", int, OpenApiParameter.PATH, description="A player id.")

ADA = {"id": 3, "name": "Ada", "kind": "human", **AVATARS}
GRACE = {"id": 8, "name": "Grace", "kind": "human", **HIDDEN_AVATARS}
PENDING = {
    "id": 12,
    "sender": ADA,
    "recipient": GRACE,
    "state": "pending",
    "created_at": "2026-12-01T12:00:00Z",
    "answered_at": None,
}
INCOMING = {**PENDING, "id": 13, "sender": GRACE, "recipient": ADA}
ACCEPTED = {**PENDING, "state": "accepted", "answered_at": "2026-12-01T12:05:00Z"}
DECLINED = {**PENDING, "state": "declined", "answered_at": "2026-12-01T12:05:00Z"}
FRIEND = {"player": GRACE, "since": "2026-12-01T12:05:00Z", "presence": "in_match"}
BLOCKED_ROW = {"player": GRACE, "created_at": "2026-12-02T08:00:00Z"}


def _one(serializer: Any, description: str, *examples: tuple[str, Any]) -> OpenApiResponse:
    return OpenApiResponse(
        serializer,
        description=description,
        examples=[OpenApiExample(name, value=value) for name, value in examples],
    )


BLOCKED = problem(
    "One of the two blocked the other: no request between them.",
    ("Blocked", problem_example(403, "blocked", "Blocked", "Grace takes no requests from you.")),
)
BAD_PLAYER = problem(
    "`player_id` names nobody who can be a friend: no player, a bot, a guest, a deleted account "
    'or the caller (or the body is not `{"player_id": <integer>}`).',
    (
        "A bot",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "player_id: There is no player 5 to be friends with.",
            errors={"player_id": ["There is no player 5 to be friends with."]},
        ),
    ),
)
SEND_CONFLICT = problem(
    "Friends already, or the caller has `FRIEND_REQUESTS_PENDING_MAX` requests waiting.",
    (
        "Friends already",
        problem_example(
            409, "already_friends", "Friends already", "You and Grace are friends already."
        ),
    ),
    (
        "Too many waiting",
        problem_example(
            409,
            "too_many_friend_requests",
            "Too many friend requests waiting",
            "You have 100 friend requests waiting for an answer: wait for some, or ask again "
            "later.",
        ),
    ),
)
REQUEST_NOT_FOUND = problem(
    "No friend request of that id was sent to the caller.",
    (
        "Not yours",
        problem_example(
            404,
            "friend_request_not_found",
            "No such friend request",
            "There is no friend request 12 to you.",
        ),
    ),
)
REQUEST_CLOSED = problem(
    "The request was answered already, or a block ended it; `state` says how.",
    (
        "Answered",
        problem_example(
            409,
            "friend_request_closed",
            "Friend request closed",
            "Friend request 12 was declined already.",
            state="declined",
        ),
    ),
)
QUERY_REFUSED = problem(
    "An unknown query parameter, or a bad `page_size`.",
    (
        "Unknown parameter",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "search: Unknown query parameter.",
            errors={"search": ["Unknown query parameter."]},
        ),
    ),
)

REQUEST_SEND: dict[str, Any] = {
    "operation_id": "friend_request_send",
    "summary": "Ask a player to be friends",
    "tags": TAGS,
    "description": (
        "The player is told (a `friend_request` notification). Sent again while it is pending: "
        "the same request (200). Sent to a player whose request to the caller is pending: "
        "theirs is accepted, the two are friends, and they are told (`friend_accepted`; 200, "
        "`state` accepted). Limited per player (`THROTTLE_FRIEND_REQUEST`, 60 an hour)."
    ),
    "request": FriendRequestInputSerializer,
    "examples": [OpenApiExample("Grace", value={"player_id": 8}, request_only=True)],
    "responses": {
        HTTPStatus.CREATED: _one(FriendRequestSerializer, "Sent: pending.", ("Sent", PENDING)),
        HTTPStatus.OK: _one(
            FriendRequestSerializer,
            "Pending already (the same request), or theirs to the caller, now accepted.",
            ("Pending already", PENDING),
            ("Crossing: accepted", ACCEPTED),
        ),
        HTTPStatus.BAD_REQUEST: BAD_PLAYER,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: BLOCKED,
        HTTPStatus.CONFLICT: SEND_CONFLICT,
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
    },
}
REQUESTS_LIST: dict[str, Any] = {
    "operation_id": "friend_requests",
    "summary": "My pending friend requests, both ways",
    "tags": TAGS,
    "responses": {
        HTTPStatus.OK: _one(
            FriendRequestsSerializer,
            "Pending requests to and from the caller, newest first.",
            (
                "One each way",
                {"incoming": [INCOMING], "incoming_count": 1, "outgoing": [PENDING]},
            ),
        ),
        HTTPStatus.BAD_REQUEST: QUERY_REFUSED,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    },
}


def answer(verb: str, example: dict[str, Any]) -> dict[str, Any]:
    """The declaration of accepting (``accept``) or declining (``decline``) a request."""
    return {
        "operation_id": f"friend_request_{verb}",
        "summary": f"{verb.capitalize()} a friend request sent to me",
        "tags": TAGS,
        "parameters": [REQUEST_ID],
        "request": None,
        "responses": {
            HTTPStatus.OK: _one(
                FriendRequestSerializer,
                f"The request, {example['state']}.",
                (example["state"].capitalize(), example),
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: REQUEST_NOT_FOUND,
            HTTPStatus.CONFLICT: REQUEST_CLOSED,
        },
    }


REQUEST_ACCEPT = answer("accept", ACCEPTED)
REQUEST_DECLINE = answer("decline", DECLINED)
REQUEST_ACCEPT["description"] = "The two are friends; the sender is told (`friend_accepted`)."
REQUEST_DECLINE["description"] = "The sender is not told; they may ask again."

FRIENDS_LIST: dict[str, Any] = {
    "operation_id": "friends",
    "summary": "My friends, with their presence",
    "tags": TAGS,
    "description": (
        'By display name, in pages. `presence` is read from the sockets (docs/api.md, "Presence").'
    ),
    "parameters": PAGE_PARAMETERS,
    "responses": {
        HTTPStatus.OK: _one(
            FriendSerializer(many=True), "A page of friends.", ("A friend", FRIEND)
        ),
        HTTPStatus.BAD_REQUEST: QUERY_REFUSED,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
    },
}
FRIEND_REMOVE: dict[str, Any] = {
    "operation_id": "friend_remove",
    "summary": "End a friendship",
    "tags": TAGS,
    "parameters": [PLAYER_ID],
    "responses": {
        HTTPStatus.NO_CONTENT: OpenApiResponse(description="Friends no more."),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: problem(
            "The player is not the caller's friend.",
            (
                "Not a friend",
                problem_example(
                    404, "friend_not_found", "Not a friend", "Player 8 is not your friend."
                ),
            ),
        ),
    },
}
BLOCK_ADD: dict[str, Any] = {
    "operation_id": "player_block",
    "summary": "Block a player",
    "tags": TAGS,
    "description": (
        "They can no longer invite the caller or ask them to be friends (403 `blocked`), do not "
        "see their presence, are never seated with them by quick play, and their chat is not "
        "shown to the caller. A friendship between them, and any pending request, ends."
    ),
    "parameters": [PLAYER_ID],
    "request": None,
    "responses": {
        HTTPStatus.CREATED: _one(BlockSerializer, "Blocked.", ("Blocked", BLOCKED_ROW)),
        HTTPStatus.OK: _one(
            BlockSerializer, "Blocked already: nothing changed.", ("Blocked", BLOCKED_ROW)
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "The caller, a bot or a guest: only another player with an account is blocked.",
            (
                "Yourself",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "player_id: You cannot block yourself.",
                    errors={"player_id": ["You cannot block yourself."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: PLAYER_NOT_FOUND,
    },
}
BLOCK_REMOVE: dict[str, Any] = {
    "operation_id": "player_unblock",
    "summary": "Unblock a player",
    "tags": TAGS,
    "description": "The friendship the block ended does not come back.",
    "parameters": [PLAYER_ID],
    "responses": {
        HTTPStatus.NO_CONTENT: OpenApiResponse(description="Unblocked."),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: problem(
            "The caller has not blocked that player.",
            (
                "Not blocked",
                problem_example(
                    404, "block_not_found", "Not blocked", "You have not blocked player 8."
                ),
            ),
        ),
    },
}
BLOCKS_LIST: dict[str, Any] = {
    "operation_id": "player_blocks",
    "summary": "The players I blocked",
    "tags": TAGS,
    "description": "Newest first, in pages.",
    "parameters": PAGE_PARAMETERS,
    "responses": {
        HTTPStatus.OK: _one(
            BlockSerializer(many=True), "A page of blocked players.", ("One", BLOCKED_ROW)
        ),
        HTTPStatus.BAD_REQUEST: QUERY_REFUSED,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
    },
}
