"""The OpenAPI declarations of the invitation and rematch endpoints (games/api/invitations.py)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games.api.apidocs import examples
from games.api.apidocs.matches import MATCH_NOT_OPEN, PAGE_NOT_FOUND, SEAT_REFUSED
from games.api.common import (
    CODE_GUESSES_REFUSED,
    ETAG_HEADER,
    MATCH_ID,
    NO_CODE,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    problem,
    problem_example,
)
from games.api.invitation_types import (
    InvitationCodeInputSerializer,
    InvitationIssuedSerializer,
    InvitationOutputSerializer,
)
from games.api.match_types import MatchSummaryOutputSerializer
from games.api.paging import PAGE_PARAMETERS

PAGING = PAGE_PARAMETERS
INVITATION_ID = OpenApiParameter(
    "invitation_id", int, OpenApiParameter.PATH, description="The invitation's id."
)

INVITATION = {
    "id": 12,
    "match_id": 7,
    "variant": "chickenfoot",
    "seat": 1,
    "state": "pending",
    "link": False,
    "inviter": {"id": 3, "name": "Ada", **examples.example_avatars(3)},
    "invitee": {"id": 5, "name": "Grace", **examples.example_avatars(5)},
    "created_at": "2026-12-01T12:00:00Z",
    "expires_at": "2026-12-04T12:00:00Z",
    "closed_at": None,
}
ISSUED = {**INVITATION, "code": None, "url": None}
LINK_ISSUED = {
    **INVITATION,
    "id": 13,
    "seat": 2,
    "link": True,
    "invitee": None,
    "code": "K7QM2XPA9R",
    "url": "https://chickenfoot.example/invite/#K7QM2XPA9R",
}
ACCEPTED = {
    **INVITATION,
    "state": "accepted",
    "closed_at": "2026-12-01T12:05:00Z",
}
DECLINED = {**ACCEPTED, "state": "declined"}

_NOT_FOUND = problem(
    "No invitation of yours with that id (or a link's code that opens none).",
    (
        "No such invitation",
        problem_example(
            404,
            "invitation_not_found",
            "No such invitation",
            "There is no invitation 99 of yours.",
        ),
    ),
)
_ANSWERED = (
    "Answered already",
    problem_example(
        409,
        "invitation_closed",
        "Invitation closed",
        "Invitation 12 was withdrawn already.",
        state="withdrawn",
    ),
)
_EXPIRED = (
    "Expired",
    problem_example(
        409,
        "invitation_expired",
        "Invitation expired",
        "Invitation 12 expired at 2026-12-04 12:00 UTC; ask the match's creator for a new one.",
    ),
)
_HELD = (
    "Seat held",
    problem_example(
        409,
        "seat_held",
        "Seat held",
        "Seat 1 of match 7 is held for an invited player already.",
        held_seats=[1],
    ),
)
_TAG = ["invitations"]
CREATE_DOCS: dict[str, Any] = {
    "operation_id": "invitation_create",
    "summary": "Invite a player to a seat, or make an invite link",
    "tags": _TAG,
    "parameters": [MATCH_ID],
    "examples": [
        OpenApiExample("A player by username", value={"username": "grace"}, request_only=True),
        OpenApiExample("Seat 2, by id", value={"seat": 2, "player_id": 5}, request_only=True),
        OpenApiExample("A link", value={"link": True}, request_only=True),
    ],
    "responses": {
        HTTPStatus.CREATED: OpenApiResponse(
            InvitationIssuedSerializer,
            description="The seat is held until `expires_at`. A link's `code` and `url` are "
            "shown here only.",
            examples=[
                OpenApiExample("A player", value=ISSUED),
                OpenApiExample("A link", value=LINK_ISSUED),
            ],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "Nobody named, an unknown player, yourself, or a seat the match does not have.",
            (
                "Unknown player",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "username: There is no player with that username to invite.",
                    errors={"username": ["There is no player with that username to invite."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: problem(
            "Only the match's creator invites to it; nobody invites a player who blocked them "
            "or whom they blocked (`blocked`).",
            (
                "Not the creator",
                problem_example(
                    403,
                    "not_creator",
                    "Not the creator",
                    "Only the creator of match 7 invites players to it.",
                ),
            ),
            (
                "Blocked",
                problem_example(403, "blocked", "Blocked", "Grace takes no requests from you."),
            ),
        ),
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "The match has started (or is played at a table), the seat is taken or held, or the "
            "player is seated or invited already.",
            MATCH_NOT_OPEN,
            _HELD,
            (
                "Seated already",
                problem_example(
                    409, "already_seated", "Already seated", "Grace already has a seat at match 7."
                ),
            ),
        ),
    },
}
LIST_DOCS: dict[str, Any] = {
    "operation_id": "invitation_list",
    "summary": "My invitations (received, or sent)",
    "tags": _TAG,
    "responses": {
        HTTPStatus.OK: OpenApiResponse(
            InvitationOutputSerializer(many=True),
            description="A page of invitations, newest first, answered ones too.",
            examples=[OpenApiExample("One pending", value=INVITATION)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A bad `sent`.",
            (
                "Bad sent",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "sent: Must be a valid boolean.",
                    errors={"sent": ["Must be a valid boolean."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
    },
}
_ANSWER_CONFLICT = problem(
    "Answered already (accepted, declined or withdrawn), or expired; to accept, the seat must "
    "still be open to you (the match not started, you not seated there).",
    _ANSWERED,
    _EXPIRED,
    MATCH_NOT_OPEN,
)


def _answer_docs(operation_id: str, summary: str, value: dict[str, Any]) -> dict[str, Any]:
    return {
        "operation_id": operation_id,
        "summary": summary,
        "tags": _TAG,
        "parameters": [INVITATION_ID],
        "request": None,
        "responses": {
            HTTPStatus.OK: OpenApiResponse(
                InvitationOutputSerializer,
                description="The invitation, answered.",
                examples=[OpenApiExample("Answered", value=value)],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: _NOT_FOUND,
            HTTPStatus.CONFLICT: _ANSWER_CONFLICT,
        },
    }


ACCEPT_DOCS = _answer_docs("invitation_accept", "Accept an invitation: take its seat", ACCEPTED)
ACCEPT_DOCS["responses"][HTTPStatus.FORBIDDEN] = SEAT_REFUSED
DECLINE_DOCS = _answer_docs("invitation_decline", "Decline an invitation", DECLINED)
CODE_ACCEPT_DOCS: dict[str, Any] = {
    **_answer_docs("invitation_code_accept", "Take the seat an invite link holds", ACCEPTED),
    "parameters": [],
    "request": InvitationCodeInputSerializer,
    "examples": [
        OpenApiExample("A code", value={"code": "K7QM2XPA9R"}, request_only=True),
        OpenApiExample(
            "A code, for match 7", value={"code": "K7QM2XPA9R", "match_id": 7}, request_only=True
        ),
    ],
}
CODE_ACCEPT_DOCS["responses"] = {
    **CODE_ACCEPT_DOCS["responses"],
    HTTPStatus.FORBIDDEN: SEAT_REFUSED,
    HTTPStatus.BAD_REQUEST: NO_CODE,
    HTTPStatus.NOT_FOUND: problem(
        "A code that opens no seat: no link was made with it, its link was used, withdrawn or "
        "has expired, or (with `match_id`) it is another match's, all answered alike. It counts "
        "against your account and address (429 past the limit).",
        (
            "No seat",
            problem_example(
                404,
                "invitation_not_found",
                "No such invitation",
                "That code opens no invitation.",
            ),
        ),
    ),
    HTTPStatus.CONFLICT: problem(
        "The seat is no longer open to you: the match has started, or you are seated there.",
        MATCH_NOT_OPEN,
        (
            "Seated already",
            problem_example(
                409, "already_seated", "Already seated", "You already have a seat at match 7."
            ),
        ),
    ),
    HTTPStatus.TOO_MANY_REQUESTS: CODE_GUESSES_REFUSED,
}
WITHDRAW_DOCS: dict[str, Any] = {
    "operation_id": "invitation_withdraw",
    "summary": "Withdraw an invitation",
    "tags": _TAG,
    "parameters": [INVITATION_ID],
    "request": None,
    "responses": {
        HTTPStatus.NO_CONTENT: OpenApiResponse(description="Withdrawn: the seat is open again."),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: problem(
            "The invitee: they decline it instead.",
            (
                "The invitee",
                problem_example(
                    403,
                    "not_creator",
                    "Not the creator",
                    "Only the match's creator withdraws an invitation; decline it.",
                ),
            ),
        ),
        HTTPStatus.NOT_FOUND: _NOT_FOUND,
        HTTPStatus.CONFLICT: problem("Answered already, or expired.", _ANSWERED, _EXPIRED),
    },
}
_REMATCH = {**examples.SUMMARY, "id": 9, "version": 1}
REMATCH_DOCS: dict[str, Any] = {
    "operation_id": "match_rematch",
    "summary": "Rematch a finished match",
    "tags": _TAG,
    "parameters": [MATCH_ID, ETAG_HEADER],
    "request": None,
    "responses": {
        HTTPStatus.CREATED: OpenApiResponse(
            MatchSummaryOutputSerializer,
            description="The new match: you seated, bots at their levels, every other player "
            "invited to their seat.",
            examples=[OpenApiExample("Created", value=_REMATCH)],
        ),
        HTTPStatus.OK: OpenApiResponse(
            MatchSummaryOutputSerializer,
            description="The rematch another player created, with you seated in it.",
            examples=[OpenApiExample("Joined", value={**_REMATCH, "version": 2})],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: problem(
            "You had no seat at the match.",
            (
                "Not your match",
                problem_example(
                    403, "not_your_match", "Not your match", "You have no seat at match 7."
                ),
            ),
        ),
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "The match has not finished, or was played at a table.",
            (
                "Not finished",
                problem_example(
                    409,
                    "match_not_finished",
                    "Match not finished",
                    "Match 7 is playing: a rematch follows its end.",
                ),
            ),
        ),
    },
}
