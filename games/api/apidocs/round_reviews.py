"""The OpenAPI declarations of a table round's confirmation and disputes, and of the table
settings (games/api/round_reviews.py)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.api.apidocs.table_scores import ROUND_NUMBER
from games.api.common import MATCH_ID, NOT_AUTHENTICATED, problem, problem_example

_DISPUTE = {
    "seat": 1,
    "player_id": 12,
    "reason": "I had 12, not 21 <the tiles were 5|4 and 2|1>",
    "at": "2026-12-01T12:10:00Z",
}
REVIEWED = {
    "version": 4,
    "round": 1,
    "status": "awaiting_confirmation",
    "confirmed_by": [],
    "disputed": True,
    "dispute": _DISPUTE,
    "resolution": None,
}
CONFIRMED = {
    **REVIEWED,
    "status": "confirmed",
    "confirmed_by": [1],
    "disputed": False,
    "dispute": None,
}
RESOLVED = {
    **CONFIRMED,
    "resolution": {**_DISPUTE, "seat": 0, "player_id": 7, "reason": "Re-entered: 12."},
}

SETTINGS_DOCS: dict[str, Any] = {
    "operation_id": "table_settings_set",
    "summary": "Who must confirm each round of a table match",
    "tags": ["tables"],
    "parameters": [MATCH_ID],
}
_HEADING: dict[str, Any] = {"tags": ["tables"], "parameters": [MATCH_ID, ROUND_NUMBER]}
CONFIRM_DOCS: dict[str, Any] = {
    **_HEADING,
    "operation_id": "round_confirm",
    "summary": "Confirm a table round's scores",
    "request": None,
}
DISPUTE_DOCS: dict[str, Any] = {
    **_HEADING,
    "operation_id": "round_dispute",
    "summary": "Dispute a table round's scores",
}
RESOLVE_DOCS: dict[str, Any] = {
    **_HEADING,
    "operation_id": "round_resolve",
    "summary": "Resolve a table round's dispute",
}


def _one(status: int, code: str, title: str, detail: str, label: str) -> tuple[str, Any]:
    return (label, problem_example(status, code, title, detail))


_NO_MATCH = _one(404, "match_not_found", "No such match", "There is no match 99.", "No match")
_NO_ROUND = _one(
    404, "round_not_found", "No such round", "Round 3 of match 7 has no scores yet.", "No round"
)
_ONLINE_EXAMPLE = _one(
    409,
    "not_table_match",
    "Not a table match",
    "Match 7 is played online: its rounds need no review.",
    "Online",
)
_ONLINE = problem("An online match's rounds need no review.", _ONLINE_EXAMPLE)
_NOT_SEATED = _one(
    403,
    "not_your_match",
    "Not your match",
    "You have no seat at match 7: seated players review rounds.",
    "No seat",
)
_NOT_CREATOR = _one(
    403, "not_creator", "Not the creator", "Only the creator of match 7 resolves its disputes.",
    "Not the creator",
)  # fmt: skip
_BASE = {HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED}
INVALID_BODY = problem(
    "A field missing, of the wrong type, too long, or unknown (each under its field).",
    (
        "Reason too long",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "reason: Ensure this field has no more than 500 characters.",
            errors={"reason": ["Ensure this field has no more than 500 characters."]},
        ),
    ),
)


def settings_responses(output: type) -> dict[int, OpenApiResponse]:
    done = OpenApiResponse(
        output,
        description="The rule now in force.",
        examples=[OpenApiExample("Every seat", value={"confirmation": "every_seat"})],
    )
    return {
        HTTPStatus.OK: done,
        **_BASE,
        HTTPStatus.BAD_REQUEST: INVALID_BODY,
        HTTPStatus.FORBIDDEN: problem("Only the creator sets it.", _NOT_CREATOR),
        HTTPStatus.NOT_FOUND: problem("No such match.", _NO_MATCH),
        HTTPStatus.CONFLICT: _ONLINE,
    }


def confirm_responses(output: type) -> dict[int, OpenApiResponse]:
    done = OpenApiResponse(
        output,
        description="Confirmed: the round's status now.",
        examples=[OpenApiExample("Confirmed", value=CONFIRMED)],
    )
    own = _one(403, "own_entry", "Your own entry", "You entered these scores.", "Own entry")
    twice = _one(
        409, "already_confirmed", "Already confirmed", "You have confirmed round 1 already.",
        "Twice",
    )  # fmt: skip
    return {
        HTTPStatus.CREATED: done,
        **_BASE,
        HTTPStatus.FORBIDDEN: problem("No seat, or the scores are yours.", _NOT_SEATED, own),
        HTTPStatus.NOT_FOUND: problem("No such match or round.", _NO_MATCH, _NO_ROUND),
        HTTPStatus.CONFLICT: problem(
            "Confirmed already, or an online match.", twice, _ONLINE_EXAMPLE
        ),
    }


def dispute_responses(output: type) -> dict[int, OpenApiResponse]:
    done = OpenApiResponse(
        output,
        description="Disputed: the round is flagged (it still counts).",
        examples=[OpenApiExample("Disputed", value=REVIEWED)],
    )
    return {
        HTTPStatus.CREATED: done,
        **_BASE,
        HTTPStatus.BAD_REQUEST: INVALID_BODY,
        HTTPStatus.FORBIDDEN: problem("No seat at the match.", _NOT_SEATED),
        HTTPStatus.NOT_FOUND: problem("No such match or round.", _NO_MATCH, _NO_ROUND),
        HTTPStatus.CONFLICT: _ONLINE,
    }


def resolve_responses(output: type) -> dict[int, OpenApiResponse]:
    done = OpenApiResponse(
        output,
        description="Resolved: the dispute is closed.",
        examples=[OpenApiExample("Resolved", value=RESOLVED)],
    )
    none = _one(
        409, "no_dispute", "No open dispute", "Round 1 of match 7 has no open dispute.", "None"
    )
    return {
        HTTPStatus.CREATED: done,
        **_BASE,
        HTTPStatus.BAD_REQUEST: INVALID_BODY,
        HTTPStatus.FORBIDDEN: problem("Only the creator resolves.", _NOT_CREATOR),
        HTTPStatus.NOT_FOUND: problem("No such match or round.", _NO_MATCH, _NO_ROUND),
        HTTPStatus.CONFLICT: problem("No open dispute, or an online match.", none, _ONLINE_EXAMPLE),
    }
