"""The OpenAPI declarations of the table endpoints: parameters, examples, problem responses.

The views (games/api/table_scores.py) name these in a few lines each.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games import engine
from games.api.apidocs import examples
from games.api.common import (
    CODE_GUESSES_REFUSED,
    ETAG_HEADER,
    MATCH_ID,
    NO_CODE,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    TOO_MANY_REQUESTS,
    problem,
    problem_example,
)

TABLE_MATCH_EXAMPLE = (
    "Played at a table",
    problem_example(
        409,
        "table_match",
        "Played at a table",
        "Match 7 is played at a table with real tiles: it has no moves, hand or board; enter "
        "each round's scores (POST /api/matches/{id}/rounds/{n}/scores).",
    ),
)
TABLE_MATCH_CONFLICT = problem(
    "The match is played at a table: it has no moves.", TABLE_MATCH_EXAMPLE
)

ROUND_NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="The round, from 1: the next to score."
)
POSITION = OpenApiParameter("position", int, OpenApiParameter.PATH, description="The seat (0-).")
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description='The version you answer, as an ETag (`"3"`); or the field `version`.',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string; a retry with it returns the first answer.",
)
REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    str,
    OpenApiParameter.HEADER,
    response=[201],
    enum=["true"],
    description="`true` when this is the first answer to an earlier request with the same "
    "`Idempotency-Key`, sent again; absent otherwise.",
)

SCORES_ENTERED = {
    "version": 2,
    "status": "playing",
    "round": {
        "number": 1,
        "start_double": [12, 12],
        "scores": [
            {"seat": 0, "points": 0, "went_out": True, "tiles": None},
            {"seat": 1, "points": 25, "went_out": False, "tiles": None},
            {"seat": 2, "points": 57, "went_out": False, "tiles": [[0, 0], [3, 4]]},
        ],
    },
}

_SCORE_EXAMPLES = [
    OpenApiExample(
        "Points, and one hand as tiles",
        value={
            "version": 1,
            "scores": [
                {"seat": 0, "points": 0, "went_out": True},
                {"seat": 1, "points": 25},
                {"seat": 2, "tiles": [[0, 0], [3, 4]]},
            ],
        },
        request_only=True,
    ),
]

_INVALID_SCORES = problem_example(
    422,
    "invalid_scores",
    "Invalid scores",
    "2 entries break a rule: Seat 1: points are never negative.",
    rule="C-PIPS",
    errors={
        "scores.1.points": ["Seat 1: points are never negative."],
        "scores.2.tiles.0": ["Seat 2: 12|12 started round 1; it is in no hand."],
    },
    rules={"scores.1.points": "C-PIPS", "scores.2.tiles.0": "C-ROUNDS"},
)
_OUT_OF_ORDER = problem_example(
    422,
    "invalid_scores",
    "Invalid scores",
    "Round 2 is the next to score, not round 3.",
    rule="C-ROUNDS",
    errors={"round": ["Round 2 is the next to score, not round 3."]},
    rules={"round": "C-ROUNDS"},
)
_NOT_SCORER = problem_example(
    403,
    "not_scorer",
    "Not a scorer",
    "Only the creator of match 7 and its seated players may enter its scores.",
)
_STALE = problem_example(
    409,
    "stale_version",
    "Stale version",
    "The match is at version 3, not 2: fetch it again and resend.",
    current_version=3,
)

SCORES_DOCS: dict[str, Any] = {
    "operation_id": "round_scores_enter",
    "summary": "Enter a round's scores (a table match)",
    "tags": ["tables"],
    "parameters": [MATCH_ID, ROUND_NUMBER, ETAG_HEADER, IF_MATCH, IDEMPOTENCY_KEY, REPLAYED],
    "examples": _SCORE_EXAMPLES,
}


def scores_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of score entry, with ``output`` the body of a 201."""
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            output,
            description="Entered; the last round finishes the match. `ETag` is the new version.",
            examples=[OpenApiExample("Round 1", value=SCORES_ENTERED)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "Not a score sheet: a field of the wrong type or unknown, points and tiles together.",
            (
                "Points and tiles",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "scores.0.points: Give `points` or `tiles`, not both.",
                    errors={"scores.0.points": ["Give `points` or `tiles`, not both."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
        HTTPStatus.FORBIDDEN: problem(
            "Not the creator, a seated player, nor a scorer link of this match.",
            ("No", _NOT_SCORER),
        ),
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "A stale version, a version ahead, a match not in play, or an online match.",
            ("Stale version", _STALE),
            (
                "Online match",
                problem_example(
                    409,
                    "not_table_match",
                    "Not a table match",
                    "Match 7 is played online: its rounds score themselves as they end.",
                ),
            ),
        ),
        HTTPStatus.UNPROCESSABLE_ENTITY: problem(
            "Entries that break a rule (every one at once: `errors` by field, `rules` by field), "
            "or an Idempotency-Key reused for another request.",
            ("Broken rules", _INVALID_SCORES),
            ("Out of order", _OUT_OF_ORDER),
        ),
        HTTPStatus.PRECONDITION_REQUIRED: problem(
            "No version sent.",
            (
                "No version",
                problem_example(
                    428,
                    "version_required",
                    "Version required",
                    "Send the version you are answering: the body's `version` or `If-Match`.",
                    current_version=1,
                ),
            ),
        ),
    }


CLAIM_CODE_ISSUED = {
    "code": "K7QM2XPA",
    "expires_at": "2026-12-08T12:00:00Z",
    "guest_id": 41,
    "name": "Seat 3 guest",
}
CLAIM_CODE_DOCS: dict[str, Any] = {
    "operation_id": "claim_code_issue",
    "summary": "A claim code for a guest's seat",
    "tags": ["tables"],
    "parameters": [MATCH_ID, POSITION],
    "request": None,
}
_CLAIM_CODE_REFUSALS = {
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: problem(
        "Only the match's creator asks for claim codes.",
        (
            "Not the creator",
            problem_example(
                403,
                "not_creator",
                "Not the creator",
                "Only the match's creator can ask for a guest's claim code.",
            ),
        ),
    ),
    HTTPStatus.BAD_REQUEST: problem(
        "No such seat.",
        (
            "No such seat",
            problem_example(
                400, "invalid_seats", "Invalid seats", "Match 7 has seats 0 to 2; got 5."
            ),
        ),
    ),
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    HTTPStatus.CONFLICT: problem(
        "The seat is not a guest's.",
        (
            "Not a guest",
            problem_example(
                409, "not_guest_seat", "Not a guest's seat", "Seat 0 of match 7 is not a guest's."
            ),
        ),
    ),
}

CLAIMED = {"player_id": 3, "matches": [7, 12]}
CLAIM_DOCS: dict[str, Any] = {
    "operation_id": "claim_redeem",
    "summary": "Claim a guest's seats into my account",
    "tags": ["tables"],
    "examples": [OpenApiExample("A code", value={"code": "K7QM2XPA"}, request_only=True)],
}
_CLAIM_REFUSALS = {
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.BAD_REQUEST: NO_CODE,
    HTTPStatus.NOT_FOUND: problem(
        "A code that claims nothing: no one was given it, or it was used or has expired, all "
        "answered alike. It counts against your account and address (429 past the limit).",
        (
            "Unknown, used or expired",
            problem_example(
                404,
                "claim_code_unknown",
                "No such claim code",
                "No claim code is this one; ask the match's creator for one.",
            ),
        ),
    ),
    HTTPStatus.TOO_MANY_REQUESTS: CODE_GUESSES_REFUSED,
    HTTPStatus.CONFLICT: problem(
        "You sat in one of the guest's matches.",
        (
            "Same table",
            problem_example(
                409,
                "claim_conflict",
                "Already at that table",
                "You sat in match 7 too: one person has one seat at a table.",
            ),
        ),
    ),
}


def claim_code_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of a claim code's issue, with ``output`` the body of a 201."""
    created = OpenApiResponse(
        output,
        description="A new code: give it to the guest. It is not shown again.",
        examples=[OpenApiExample("A code", value=CLAIM_CODE_ISSUED)],
    )
    return {HTTPStatus.CREATED: created, **_CLAIM_CODE_REFUSALS}


ENTRANT_CLAIM_CODE_DOCS: dict[str, Any] = {
    "operation_id": "competition_entrant_claim_code",
    "summary": "A claim code for a guest entrant (organiser)",
    "tags": ["competitions"],
    "parameters": [
        OpenApiParameter(
            "competition_id", int, OpenApiParameter.PATH, description="The competition's id."
        ),
        OpenApiParameter("player_id", int, OpenApiParameter.PATH, description="The guest's id."),
    ],
    "request": None,
}


def entrant_claim_code_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of a guest entrant's claim code, with ``output`` the body of a 201."""
    created = OpenApiResponse(
        output,
        description="A new code: give it to the guest. It is not shown again.",
        examples=[OpenApiExample("A code", value={**CLAIM_CODE_ISSUED, "name": "Walk-in Wendy"})],
    )
    return {
        HTTPStatus.CREATED: created,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: problem(
            "Only the competition's organiser asks for an entrant's claim code.",
            (
                "Not the organiser",
                problem_example(
                    403,
                    "not_organiser",
                    "Not an organiser",
                    "Only the organiser of competition 3 can ask for a claim code.",
                ),
            ),
        ),
        HTTPStatus.NOT_FOUND: problem(
            "No such competition.",
            (
                "No such competition",
                problem_example(
                    404,
                    "competition_not_found",
                    "No such competition",
                    "There is no competition 99.",
                ),
            ),
        ),
        HTTPStatus.CONFLICT: problem(
            "The player is not a guest who entered the competition.",
            (
                "Not a guest entrant",
                problem_example(
                    409,
                    "not_guest_seat",
                    "Not a guest's seat",
                    "Player 12 is not a guest entrant of competition 3.",
                ),
            ),
        ),
    }


def claim_responses(output: type) -> dict[int, OpenApiResponse]:
    """The answers of a claim, with ``output`` the body of a 200."""
    claimed = OpenApiResponse(
        output,
        description="The guest's seats and results are yours.",
        examples=[OpenApiExample("Claimed", value=CLAIMED)],
    )
    return {HTTPStatus.OK: claimed, **_CLAIM_REFUSALS}


# --- table matches in the match endpoints' declarations ----------------------------------------

TABLE_CREATE_EXAMPLE = OpenApiExample(
    "At a table: me, a player by username, a guest",
    value={
        "variant": "mexican_train",
        "play": "table",
        "options": {"max_pip": 9, "rounds": 2},
        "seats": [
            {"kind": "creator"},
            {"kind": "player", "username": "sam"},
            {"kind": "guest", "name": "Grandpa Joe"},
        ],
        "confirmation": "any_other_seat",
    },
    request_only=True,
)


def _table_seat(position: int, kind: str, player_id: int, name: str) -> dict[str, Any]:
    return {
        "position": position,
        "kind": kind,
        "player_id": player_id,
        "name": name,
        "bot_level": None,
        "you": position == 0,
        "left": None,
        **examples.example_avatars(player_id),
    }


_TABLE_SEATS = [
    _table_seat(0, "human", 3, "Nora"),
    _table_seat(1, "human", 5, "Sam"),
    _table_seat(2, "guest", 9, "Grandpa Joe"),
]
TABLE_VIEW = {
    "id": 12,
    "variant": "mexican_train",
    "play": "table",
    "status": "playing",
    "version": 1,
    "options": engine.resolve_options(engine.MEXICAN_TRAIN, 3, {"max_pip": 9, "rounds": 2}),
    "seat_count": 3,
    "open_seats": 0,
    "created_by": "Nora",
    "created_at": "2025-01-01T12:00:00Z",
    "started_at": "2025-01-01T12:00:00Z",
    "finished_at": None,
    "seats": _TABLE_SEATS,
    "standings": None,
    "results_pending": False,
    "unrated_reason": None,
    "hints": False,
    "hints_used": None,
    "your_seat": 0,
    "you_may_start": False,
    "round_scores": [[0, 23, 41]],
    "totals": [0, 23, 41],
    "state": None,
    "table_rounds": [
        {
            "number": 1,
            "start_double": [9, 9],
            "scores": [
                {"seat": 0, "points": 0, "went_out": True, "tiles": None},
                {"seat": 1, "points": 23, "went_out": False, "tiles": None},
                {"seat": 2, "points": 41, "went_out": False, "tiles": [[4, 9], [6, 7], [7, 8]]},
            ],
            "entered_at": "2025-01-01T12:40:00Z",
        }
    ],
    "confirmation": "any_other_seat",
    "you_may_score": True,
}
TABLE_VIEW_EXAMPLE = OpenApiExample("A table match, round 1 scored", value=TABLE_VIEW)
