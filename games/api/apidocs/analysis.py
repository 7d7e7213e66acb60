"""The OpenAPI declarations of ``games.api.analysis``'s views."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.api.apidocs.table_scores import TABLE_MATCH_EXAMPLE
from games.api.common import NOT_AUTHENTICATED, NOT_FOUND, NOT_YOUR_MATCH, problem
from games.api.common import problem_example as example

#: Token or none: a match of a public competition is open to anyone.
OPTIONAL_TOKEN: list[dict[str, list[str]]] = [{"tokenAuth": []}, {}]

_MOVE = {"kind": "play", "tile": [6, 9], "target": "arm:2"}
_BEST = {"kind": "play", "tile": [9, 9], "target": "arm:0"}
MOVE_ANALYSIS_EXAMPLE = {
    "seq": 4, "round": 1, "seat": 0, "move": _MOVE, "forced": False, "value": 0.2114,
    "best": _BEST, "best_value": 0.4620, "loss": 0.2506, "mark": "blunder",
    "options": [{"move": _BEST, "value": 0.4620}, {"move": _MOVE, "value": 0.2114},
                {"move": {"kind": "draw", "tile": None, "target": None}, "value": 0.1032}],
}  # fmt: skip

ANALYSIS_DONE_EXAMPLE = {
    "match_id": 7, "status": "done", "done": 112, "total": 112,
    "thresholds": [{"mark": "best", "below": 0.005}, {"mark": "good", "below": 0.03},
                   {"mark": "inaccuracy", "below": 0.08}, {"mark": "mistake", "below": 0.18},
                   {"mark": "blunder", "below": None}],
    "players": [{"seat": 0, "player_id": 3, "name": "Ada", "moves": 31, "forced": 9,
                 "accuracy": 81.4,
                 "rounds": [{"round": 1, "accuracy": 74.0}, {"round": 2, "accuracy": 88.2},
                            {"round": 3, "accuracy": 82.5}],
                 "marks": {"best": 14, "good": 4, "inaccuracy": 2, "mistake": 1, "blunder": 1}}],
    "moves": [MOVE_ANALYSIS_EXAMPLE],
}  # fmt: skip

NOT_FINISHED_EXAMPLE = (
    "Not finished",
    example(409, "match_not_finished", "Match not finished",
            "Match 7 is playing: its analysis opens when it has finished."),
)  # fmt: skip

MATCH_ANALYSIS_DOCS: dict[str, Any] = {
    "operation_id": "match_analysis",
    "summary": "The analysis of a finished match",
    "tags": ["history"],
    "auth": OPTIONAL_TOKEN,
}
MATCH_ANALYSIS_DESCRIPTION = (
    "Every human move of a finished online match valued by the strong bot's search from what "
    "that seat knew when it moved (its hand, the table, the public log; never the hidden "
    "tiles): the value of each legal move, the loss of the move played against the best, a "
    "mark by the thresholds listed, and each player's accuracy per round and for the match "
    '(docs/engine.md, "Analysis"). Made by a task as the match finishes: 202 with its '
    "progress while it runs, 200 once done. Readable by anyone signed in (a finished match is "
    "public), and without a token for a match of a public competition."
)


def match_analysis_responses(serializer: Any) -> Any:
    """The answers of ``MatchAnalysisApi``."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            serializer, examples=[OpenApiExample("Done", value=ANALYSIS_DONE_EXAMPLE)]
        ),
        HTTPStatus.ACCEPTED: OpenApiResponse(
            serializer,
            description="Still running: `done` of `total` moves looked at.",
            examples=[
                OpenApiExample(
                    "Running",
                    value={"match_id": 7, "status": "running", "done": 40, "total": 112},
                )
            ],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "Not finished (its hands are still secret), or played at a table (nothing dealt).",
            NOT_FINISHED_EXAMPLE,
            TABLE_MATCH_EXAMPLE,
        ),
    }


REPLAY_EXAMPLE = {
    "match_id": 7, "seq": 1, "moves_played": 112,
    "move": {"seq": 1, "round": 1, "seat": 0, "kind": "play", "tile": [9, 4],
             "target": "arm:0"},
    "table": {"variant": "chickenfoot", "seats": 2, "seat": None,
              "options": {"max_pip": 9, "hand_size": 14, "rounds": 3,
                          "double_blank_points": 50, "turn_seconds": None,
                          "timeouts_to_takeover": 3, "spinner_arms": 4,
                          "must_play_drawn": False, "release_dead_foot": True},
              "status": "playing", "round": 1, "rounds": 3, "move_no": 1, "turn": 1,
              "start_double": [9, 9], "starter": 1, "hand_counts": [1, 2], "boneyard": 2,
              "layout": {"start_double": [9, 9],
                         "arms": [{"id": "arm:0", "tiles": [[9, 4]], "open": 4},
                                  {"id": "arm:1", "tiles": [], "open": 9},
                                  {"id": "arm:2", "tiles": [], "open": 9},
                                  {"id": "arm:3", "tiles": [], "open": 9}],
                         "feet": [],
                         "open_ends": [{"target": "arm:0", "pip": 4},
                                       {"target": "arm:1", "pip": 9},
                                       {"target": "arm:2", "pip": 9},
                                       {"target": "arm:3", "pip": 9}]},
              "open_foot": None, "spinner_complete": False, "has_drawn": False,
              "commitment": "9f2c" * 16, "commitments": ["9f2c" * 16], "revealed_seeds": [],
              "scores": [], "totals": [0, 0]},
    "hands": [[[0, 3]], [[2, 5], [1, 1]]],
    "boneyard": [[0, 6], [7, 8]],
    "analysis": {**MOVE_ANALYSIS_EXAMPLE, "seq": 1, "move": {"kind": "play", "tile": [9, 4],
                 "target": "arm:0"}, "mark": "good", "loss": 0.012, "value": 0.45,
                 "best_value": 0.462},
}  # fmt: skip

MATCH_REPLAY_DOCS: dict[str, Any] = {
    "operation_id": "match_replay",
    "summary": "A finished match after one of its moves, every tile face up",
    "tags": ["history"],
    "auth": OPTIONAL_TOKEN,
}
MATCH_REPLAY_DESCRIPTION = (
    "The table, every hand and the boneyard (in draw order) as they stood after move `seq` "
    "(0: as play began) of a finished online match: all of it is public once the match is "
    "over. With move `seq` and its analysis (null for a bot's move, or while the analysis "
    "runs). Readable as the analysis is; the page `/matches/{id}/replay/` steps through it."
)


def match_replay_responses(serializer: Any) -> Any:
    """The answers of ``MatchReplayApi``."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            serializer, examples=[OpenApiExample("After move 1", value=REPLAY_EXAMPLE)]
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A bad `seq` (not a whole number from 0) or an unknown query parameter.",
            (
                "Bad seq",
                example(
                    400,
                    "invalid",
                    "Invalid input",
                    "seq: A valid integer is required.",
                    errors={"seq": ["A valid integer is required."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: problem(
            "No such match, or no move `seq` in it.",
            *NOT_FOUND_EXAMPLES,
            (
                "No such move",
                example(
                    404,
                    "move_not_found",
                    "No such move",
                    "Match 7 has moves 0 to 112; there is no move 500.",
                ),
            ),
        ),
        HTTPStatus.CONFLICT: problem(
            "Not finished (its hands are still secret), or played at a table (nothing dealt).",
            (
                "Not finished",
                example(
                    409,
                    "match_not_finished",
                    "Match not finished",
                    "Match 7 is playing: its replay opens when it has finished.",
                ),
            ),
            TABLE_MATCH_EXAMPLE,
        ),
    }


NOT_FOUND_EXAMPLES = (
    ("No such match", example(404, "match_not_found", "No such match", "There is no match 99.")),
)

HINT_DOCS: dict[str, Any] = {
    "operation_id": "match_hint",
    "summary": "A hint for my move (a match with hints)",
    "tags": ["play"],
}
HINT_DESCRIPTION = (
    "The move the strong bot would play in your seat, worked out from what your seat knows "
    "(your hand, the table, the public log: never another hand), with a one-line reason in "
    'your language. Only in a match created with `"hints": true` (409 `hints_off` '
    "elsewhere), on your turn, once per position (429 `hint_limit` for a second; a draw that "
    "keeps you on turn is a new position). Each hint is counted in the match's `hints_used`."
)


def hint_responses(serializer: Any) -> Any:
    """The answers of ``HintApi``."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            serializer,
            examples=[
                OpenApiExample(
                    "Lay the double",
                    value={
                        "match_id": 7,
                        "seat": 0,
                        "version": 12,
                        "move": {"kind": "play", "tile": [5, 5], "target": "arm:1"},
                        "reason": "Lay the double 5-5 now: a double is the hardest tile to "
                        "place later.",
                        "hints_used": 3,
                    },
                )
            ],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "Hints are off in this match, it is not in play, or it is not your turn.",
            (
                "Hints off",
                example(
                    409,
                    "hints_off",
                    "Hints are off",
                    "Match 7 was not created with hints: no seat may ask for one.",
                ),
            ),
            (
                "Not playing",
                example(
                    409,
                    "match_not_playing",
                    "Match not in play",
                    "Match 7 is finished: hints are given while it plays.",
                ),
            ),
            (
                "Not your turn",
                example(
                    409,
                    "not_your_turn",
                    "Not your turn",
                    "It is seat 1's turn, not yours (seat 0): a hint is for your move.",
                    rule="C-SEATS",
                ),
            ),
        ),
        HTTPStatus.TOO_MANY_REQUESTS: problem(
            "You have had your hint for this position.",
            (
                "Hint already given",
                example(
                    429,
                    "hint_limit",
                    "Hint already given",
                    "You have had your hint for this move (1 a turn): play, then ask again.",
                    limit=1,
                ),
            ),
        ),
    }
