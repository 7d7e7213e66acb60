"""The OpenAPI declarations of a table match's corrections, reopening and score log.

The views (games/api/table_corrections.py) name these in a few lines each.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games.api.apidocs.table_scores import (
    IDEMPOTENCY_KEY,
    IF_MATCH,
    REPLAYED,
    SCORES_ENTERED,
    scores_responses,
)
from games.api.common import (
    ETAG_HEADER,
    MATCH_ID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    TOO_MANY_REQUESTS,
    problem,
    problem_example,
)

AMENDED_ROUND = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="The round to correct (already entered)."
)
SCORES_AMENDED = {**SCORES_ENTERED, "version": 5, "reason": "Bea's 3|4 was a 3|5."}

_LOCKED = problem_example(
    409,
    "match_locked",
    "Match locked",
    "Match 7's competition has moved on: its scores stand. Its organiser may reopen it "
    "(POST /api/matches/{id}/reopen).",
)
_NOT_ORGANISER = problem_example(
    403,
    "not_organiser",
    "Not an organiser",
    "Only the organiser of match 7's competition may reopen it.",
)
_NOT_READER = problem_example(
    403,
    "not_score_reader",
    "Not a reader of the score log",
    "Only the players of match 7, its creator and its organiser read its scores' log.",
)

AMEND_DOCS: dict[str, Any] = {
    "operation_id": "round_scores_amend",
    "summary": "Correct a round's scores (a table match), with a reason",
    "tags": ["tables"],
    "parameters": [MATCH_ID, AMENDED_ROUND, ETAG_HEADER, IF_MATCH, IDEMPOTENCY_KEY, REPLAYED],
    "examples": [
        OpenApiExample(
            "A hand miscounted",
            value={
                "version": 4,
                "reason": "Bea's 3|4 was a 3|5.",
                "scores": [
                    {"seat": 0, "points": 0, "went_out": True},
                    {"seat": 1, "points": 25},
                    {"seat": 2, "tiles": [[0, 0], [3, 5]]},
                ],
            },
            request_only=True,
        )
    ],
}

_FINISHED_FOR_A_LINK = problem_example(
    409,
    "match_not_playing",
    "Match not in play",
    "Match 7 is finished: no corrections now.",
)


def amend_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of a correction: those of score entry, with 200 and the lock's 409."""
    answers = scores_responses(output)
    del answers[HTTPStatus.CREATED]
    answers[HTTPStatus.OK] = OpenApiResponse(
        output,
        description="Corrected; a finished match's results are computed again "
        "(`results_pending` until then). `ETag` is the new version.",
        examples=[OpenApiExample("Round 1 corrected", value=SCORES_AMENDED)],
    )
    conflict = answers[HTTPStatus.CONFLICT]
    answers[HTTPStatus.CONFLICT] = problem(
        "A stale version, a match not in play (for a scorer link: not playing, a finished "
        "match is read only), an online match, or a locked match.",
        ("Locked", _LOCKED),
        ("Finished, for a link", _FINISHED_FOR_A_LINK),
        *[(example.name, example.value) for example in conflict.examples or []],
    )
    answers[HTTPStatus.NOT_FOUND] = problem(
        "No such match, or the round has no scores yet.",
        (
            "No such match",
            problem_example(404, "match_not_found", "No such match", "There is no match 99."),
        ),
        (
            "No round",
            problem_example(
                404,
                "round_not_found",
                "No such round",
                "Round 3 of match 7 has no scores to correct.",
            ),
        ),
    )
    return answers


REOPENED = {
    "match_id": 7,
    "reason": "The table 3 sheet was misread.",
    "reopened_at": "2026-12-01T12:00:00Z",
}

REOPEN_DOCS: dict[str, Any] = {
    "operation_id": "match_reopen",
    "summary": "Reopen a locked table match for corrections (its competition's organiser)",
    "tags": ["tables"],
    "parameters": [MATCH_ID],
    "examples": [
        OpenApiExample(
            "Reopen", value={"reason": "The table 3 sheet was misread."}, request_only=True
        )
    ],
}


def reopen_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of a reopening."""
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            output, description="Reopened.", examples=[OpenApiExample("Reopened", value=REOPENED)]
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "No reason, or one too long.",
            (
                "No reason",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "reason: This field is required.",
                    errors={"reason": ["This field is required."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: problem("Not the organiser.", ("Not the organiser", _NOT_ORGANISER)),
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        # reopening is limited as moves are (per player and per address)
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
        HTTPStatus.CONFLICT: problem(
            "An online match.",
            (
                "Online match",
                problem_example(
                    409,
                    "not_table_match",
                    "Not a table match",
                    "Match 7 is played online: it has no score sheet.",
                ),
            ),
        ),
    }


_SEATS_BEFORE = [
    {"seat": 0, "points": 0, "went_out": True, "tiles": None},
    {"seat": 1, "points": 25, "went_out": False, "tiles": None},
    {"seat": 2, "points": 57, "went_out": False, "tiles": [[0, 0], [3, 4]]},
]
_SEATS_AFTER = [*_SEATS_BEFORE[:2], {**_SEATS_BEFORE[2], "points": 58, "tiles": [[0, 0], [3, 5]]}]
SCORE_LOG = {
    "entries": [
        {
            "id": 31,
            "round": 1,
            "kind": "entry",
            "version": 1,
            "at": "2026-12-01T11:00:00Z",
            "author": {"player_id": 3, "name": "Nora"},
            "before": None,
            "after": _SEATS_BEFORE,
            "reason": None,
        },
        {
            "id": 35,
            "round": 1,
            "kind": "correction",
            "version": 4,
            "at": "2026-12-01T11:40:00Z",
            "author": {"player_id": 3, "name": "Nora"},
            "before": _SEATS_BEFORE,
            "after": _SEATS_AFTER,
            "reason": "Bea's 3|4 was a 3|5.",
        },
    ],
    "next": None,
    "reopenings": [
        {
            "id": 2,
            "at": "2026-12-02T09:00:00Z",
            "author": {"player_id": 1, "name": "Olga"},
            "reason": "Stage 1, table 1: seat 1 went out, not seat 0",
        }
    ],
}

LOG_AFTER = OpenApiParameter(
    "after",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.QUERY,
    required=False,
    description="The cursor: the `next` of the page before (an entry's id).",
)
LOG_LIMIT = OpenApiParameter(
    "limit",
    {"type": "integer", "minimum": 1, "maximum": 100},
    OpenApiParameter.QUERY,
    required=False,
    description="Entries per page (1 to 100; 50 if not given).",
)

_OTHER_LINK = problem_example(
    403, "not_scorer", "Not a scorer", "This scorer link opens another match than match 7."
)
SCORE_LOG_DOCS: dict[str, Any] = {
    "operation_id": "score_log",
    "summary": "A table match's score log: every entry and correction, oldest first",
    "tags": ["tables"],
    "parameters": [MATCH_ID, LOG_AFTER, LOG_LIMIT],
}


def score_log_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of the score log."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="One page; `next` is the cursor of the next (`null`: the end).",
            examples=[OpenApiExample("An entry and its correction", value=SCORE_LOG)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A cursor or limit that is not a number in range.",
            (
                "Bad limit",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "limit: Ensure this value is less than or equal to 100.",
                    errors={"limit": ["Ensure this value is less than or equal to 100."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: problem(
            "Not a reader, or a scorer link of another match.",
            ("Not a reader", _NOT_READER),
            ("Another match's link", _OTHER_LINK),
        ),
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }
