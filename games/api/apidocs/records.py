"""The OpenAPI declarations of ``games.api.records``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.api.apidocs.table_scores import TABLE_MATCH_EXAMPLE
from games.api.common import NOT_AUTHENTICATED, NOT_FOUND, NOT_YOUR_MATCH, problem
from games.api.common import problem_example as example
from games.record import FORMAT

NOT_FINISHED_EXAMPLES = (
    ("Not finished", example(409, "match_not_finished", "Match not finished",
                             "Match 7 is playing: its record is published when it has finished.")),
)  # fmt: skip

RECORD_EXAMPLE = {
    "format": FORMAT,
    "match": {
        "id": 7,
        "variant": "mexican_train",
        "seat_count": 2,
        "options": {"max_pip": 12, "hand_size": 15, "rounds": 1, "double_blank_points": 50,
                    "turn_seconds": None, "timeouts_to_takeover": 3,
                    "close_doubles_reverse": False, "satisfy_own_double": False,
                    "open_hands": False},
        "seed": "5eed" * 16,
        "created_at": "2026-11-30T12:00:00Z",
        "started_at": "2026-11-30T12:00:05Z",
        "finished_at": "2026-11-30T12:09:41Z",
        "moves_played": 1,
    },
    "seats": [
        {"position": 0, "player_id": 3, "name": "Ada", "kind": "human", "bot_level": None},
        {"position": 1, "player_id": 9, "name": "Shark bot (level 3)", "kind": "bot",
         "bot_level": 3},
    ],
    "rounds": [
        {"number": 1, "start_double": [12, 12], "commitment": "9f2c" * 16, "seed": "77ab" * 16,
         "scores": [0, 23],
         "opening": [{"type": "round_started", "round": 1, "start_double": [12, 12],
                      "commitment": "9f2c" * 16, "starter": 0, "turn": 0},
                     {"type": "engine_placed", "tile": [12, 12]}],
         "started_at": "2026-11-30T12:00:05Z", "ended_at": "2026-11-30T12:09:41Z"},
    ],
    "moves": [
        {"seq": 1, "round": 1, "seat": 0, "kind": "play", "tile": [12, 5], "target": "seat:0",
         "events": [{"type": "tile_played", "seat": 0, "tile": [12, 5], "target": "seat:0"},
                    {"type": "train_started", "seat": 0, "target": "seat:0"}],
         "created_at": "2026-11-30T12:00:09Z"},
    ],
    "standings": [
        {"seat": 0, "place": 1, "total": 0, "zero_rounds": 1, "lowest_round": None,
         "decided_by": "total", "tiebreak": ["total"]},
        {"seat": 1, "place": 2, "total": 23, "zero_rounds": 0, "lowest_round": 23,
         "decided_by": "total", "tiebreak": ["total"]},
    ],
}  # fmt: skip

RECORD_EXAMPLE["results"] = [
    {**place, "player_id": seat["player_id"], "name": seat["name"], "rating": rating}
    for place, seat, rating in zip(
        RECORD_EXAMPLE["standings"],
        RECORD_EXAMPLE["seats"],
        [
            {"before": 1012, "after": 1031, "delta": 19},
            {"before": 1104, "after": 1090, "delta": -14},
        ],
        strict=True,
    )
]

RECORD_EXAMPLE["unrated_reason"] = None
RECORD_EXAMPLE["match"] |= {"hints": False, "hints_used": None}
RECORD_EXAMPLE["chat"] = [
    {"seq": 1, "seat": 0, "player_id": 3, "phrase": "good_game", "kind": "phrase", "emoji": "🤝",
     "text": "Good game!", "sent_at": "2026-11-30T12:09:50Z"},
]  # fmt: skip

#: A match of two seats of one bot level: its results written, no rating changed.
UNRATED_STANDINGS = [
    {"place": 1, "seat": 1, "player_id": 12, "name": "Rookie bot (level 1)", "total": 14,
     "zero_rounds": 1, "lowest_round": 14, "decided_by": "total", "tiebreak": ["total"],
     "rating": None},
    {"place": 2, "seat": 0, "player_id": 12, "name": "Rookie bot (level 1)", "total": 31,
     "zero_rounds": 0, "lowest_round": 9, "decided_by": "total", "tiebreak": ["total"],
     "rating": None},
]  # fmt: skip

MATCH_RECORD_DESCRIPTION = (
    "Readable by those who may look at the match (its players, its creator and organisers; "
    "403 `not_your_match` for anyone else). Seats with players, options, the match seed and "
    "every round's revealed seed, every move with its events (unredacted: the match is "
    "over), every round's scores, the engine's standings and the results: enough to replay "
    "and check the match offline (docs/scoring.md shows how). A reader with a seat also gets "
    "the table's quick chat as they are shown it, in their language (`chat`; null for anyone "
    "else)."
)


NOT_FINISHED = problem(
    "The match has not finished: its seeds and hands are still secret.",
    *NOT_FINISHED_EXAMPLES,
)


def match_record_responses(match_record_serializer: Any) -> Any:
    """The answers of ``MatchRecordApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            match_record_serializer,
            examples=[OpenApiExample("A one-round record", value=RECORD_EXAMPLE)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "Not finished (its seeds and hands are still secret), or played at a table (no "
            "deal to replay).",
            *NOT_FINISHED_EXAMPLES,
            TABLE_MATCH_EXAMPLE,
        ),
    }


def match_finalise_responses(match_finalised_serializer: Any) -> Any:
    """The answers of ``MatchFinaliseApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            match_finalised_serializer,
            examples=[
                OpenApiExample(
                    "Written",
                    value={
                        "match_id": 7,
                        "written": True,
                        "results_pending": False,
                        "standings": RECORD_EXAMPLE["results"],
                        "unrated_reason": None,
                    },
                ),
                OpenApiExample(
                    "Written, not rated (one bot level at every seat)",
                    value={
                        "match_id": 8,
                        "written": True,
                        "results_pending": False,
                        "standings": UNRATED_STANDINGS,
                        "unrated_reason": "single_rated_player",
                    },
                ),
            ],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: problem(
            "Only organisers may.",
            (
                "Not an organiser",
                example(
                    403,
                    "not_organiser",
                    "Not an organiser",
                    "Only organisers can finalise a match.",
                ),
            ),
        ),
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "Not finished, or its round rows do not add up to a result.",
            *NOT_FINISHED_EXAMPLES,
            (
                "Results incomplete",
                example(
                    409,
                    "results_incomplete",
                    "Results incomplete",
                    "Match 7 cannot be finalised: match 7: 3 seats have round rows, 4 sat. "
                    "Nothing was written.",
                ),
            ),
        ),
    }
