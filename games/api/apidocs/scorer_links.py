"""The OpenAPI declarations of the scorer-link endpoints (games/api/scorer_links.py)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games.api.common import (
    MATCH_ID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    TOO_MANY_REQUESTS,
    problem,
    problem_example,
)

LINK_ID = OpenApiParameter("link_id", int, OpenApiParameter.PATH, description="The link's id.")

SCORER_LINK_ISSUED = {
    "id": 3,
    "code": "K7QM2XPA9R",
    "url": "https://chickenfoot.example/score/#K7QM2XPA9R",
    "created_at": "2026-12-01T12:00:00Z",
}
SCORER_LINKS = {
    "links": [
        {
            "id": 3,
            "created_at": "2026-12-01T12:00:00Z",
            "revoked_at": None,
            "last_used_at": "2026-12-01T12:20:00Z",
        },
        {
            "id": 2,
            "created_at": "2026-12-01T11:00:00Z",
            "revoked_at": "2026-12-01T11:30:00Z",
            "last_used_at": None,
        },
    ]
}

_HEADING: dict[str, Any] = {"tags": ["tables"], "parameters": [MATCH_ID]}
ISSUE_DOCS: dict[str, Any] = {
    **_HEADING,
    "operation_id": "scorer_link_issue",
    "summary": "A new scorer link for a table match",
    "request": None,
}
LIST_DOCS: dict[str, Any] = {
    **_HEADING,
    "operation_id": "scorer_link_list",
    "summary": "A table match's scorer links (without their codes)",
}
REVOKE_DOCS: dict[str, Any] = {
    "tags": ["tables"],
    "parameters": [MATCH_ID, LINK_ID],
    "operation_id": "scorer_link_revoke",
    "summary": "Revoke a scorer link",
    "request": None,
}

_NOT_CREATOR = problem(
    "Only the match's creator manages its scorer links.",
    (
        "Not the creator",
        problem_example(
            403,
            "not_creator",
            "Not the creator",
            "Only the creator of match 7 manages its scorer links.",
        ),
    ),
)
_ONLINE = problem(
    "The match is played online: it has no scorer links.",
    (
        "Played online",
        problem_example(
            409,
            "not_table_match",
            "Not a table match",
            "Match 7 is played online: it has no scorer links.",
        ),
    ),
)
_REFUSALS = {
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: _NOT_CREATOR,
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    HTTPStatus.CONFLICT: _ONLINE,
}
_NO_LINK = problem(
    "No such match, or no such link of it.",
    (
        "No such link",
        problem_example(
            404, "scorer_link_not_found", "No such scorer link", "Match 7 has no scorer link 9."
        ),
    ),
    ("No such match", problem_example(404, "match_not_found", "No such match", "No match 99.")),
)


def issue_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of a link's issue, with ``output`` the body of a 201."""
    created = OpenApiResponse(
        output,
        description=(
            "A new link: show its `url` as a QR code. Its code is not shown again, but for a "
            "tournament stage's table: the stage's scorer links list it for its card."
        ),
        examples=[OpenApiExample("A link", value=SCORER_LINK_ISSUED)],
    )
    return {HTTPStatus.CREATED: created, **_REFUSALS}


def list_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of the list of links, with ``output`` the body of a 200."""
    listed = OpenApiResponse(
        output,
        description="Every link of the match, oldest first, revoked ones too.",
        examples=[OpenApiExample("Two links", value=SCORER_LINKS)],
    )
    return {HTTPStatus.OK: listed, **_REFUSALS}


REVOKE_RESPONSES: dict[int, OpenApiResponse] = {
    HTTPStatus.NO_CONTENT: OpenApiResponse(
        description="Revoked (or revoked already): its code is refused from now on."
    ),
    **_REFUSALS,
    HTTPStatus.NOT_FOUND: _NO_LINK,
}

SCORER_CONTEXT = {
    "match_id": 12,
    "variant": "chickenfoot",
    "event": {
        "competition_id": 3,
        "name": "Club night",
        "stage": 1,
        "table": 2,
        "clock": {
            "state": "running",
            "minutes": 45,
            "started_at": "2025-03-08T19:30:00+00:00",
            "ends_at": "2025-03-08T20:15:00+00:00",
        },
    },
    "now": "2025-03-08T19:52:14.503000Z",
}
CONTEXT_DOCS: dict[str, Any] = {
    "tags": ["tables"],
    "operation_id": "scorer_context",
    "summary": "The match a scorer code opens, and where it is played",
}
_CONTEXT_REFUSALS: dict[int, OpenApiResponse] = {
    HTTPStatus.UNAUTHORIZED: problem(
        "No credentials, or a code that opens no live link (unknown or revoked).",
        (
            "Unknown or revoked",
            problem_example(
                401,
                "authentication_failed",
                "Not authenticated",
                "Unknown or revoked scorer code: ask the match's creator for a new link.",
            ),
        ),
    ),
    HTTPStatus.FORBIDDEN: problem(
        "A player's token: only a scorer code opens a link.",
        (
            "A token",
            problem_example(
                403,
                "not_scorer",
                "Not a scorer",
                "Only a scorer link's code answers this: send `Authorization: Scorer`.",
            ),
        ),
    ),
    HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
}


def context_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of the scorer's context, with ``output`` the body of a 200."""
    found = OpenApiResponse(
        output,
        description="The link's match; `event` is `null` for a match of no competition.",
        examples=[OpenApiExample("A table of an event", value=SCORER_CONTEXT)],
    )
    return {HTTPStatus.OK: found, **_CONTEXT_REFUSALS}
