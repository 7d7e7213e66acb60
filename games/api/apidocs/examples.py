"""OpenAPI examples, computed from the engine itself so they always show what the API sends."""

from __future__ import annotations

from typing import Any

from chickenfoot.openapi import example_avatars
from games import engine

_SEED = "5eed" * 16

_CREATED_AT = "2025-01-01T12:00:00Z"
_STARTED_AT = "2025-01-01T12:05:00Z"
_ENDED_AT = "2025-01-01T12:19:00Z"


def _example_match() -> tuple[Any, Any, list[dict[str, Any]]]:
    """A three-seat Chicken Foot match at its start, and after one move (with its events)."""
    start = engine.new_match(engine.CHICKENFOOT, 3, {}, _SEED)
    after = engine.from_json(engine.to_json(start))
    move = engine.legal_moves(after, after.turn)[0]
    _, events = engine.apply_move(after, after.turn, move)
    return start, after, events


_START, _AFTER, _EVENTS = _example_match()
_MOVER = _START.turn
SEATS = [
    {
        "position": 0,
        "kind": "human",
        "player_id": 3,
        "name": "Ada",
        "bot_level": None,
        "you": True,
        "left": None,
        **example_avatars(3),
    },
    {
        "position": 1,
        "kind": "human",
        "player_id": 5,
        "name": "Grace",
        "bot_level": None,
        "you": False,
        "left": None,
        **example_avatars(5),
    },
    {
        "position": 2,
        "kind": "bot",
        "player_id": 8,
        "name": "Greedy bot (level 2)",
        "bot_level": 2,
        "you": False,
        "left": None,
        **example_avatars(8),
    },
]
NO_AVATARS = {"avatar_url": None, "avatar_small_url": None}
OPEN_SEATS = [
    *SEATS[:1],
    {**SEATS[1], "kind": "open", "player_id": None, "name": None, **NO_AVATARS},
    SEATS[2],
]

SUMMARY = {
    "id": 7,
    "variant": "chickenfoot",
    "play": "online",
    "status": "open",
    "version": 0,
    "options": _START.options,
    "seat_count": 3,
    "open_seats": 1,
    "created_by": "Ada",
    "created_at": _CREATED_AT,
    "started_at": None,
    "finished_at": None,
    "seats": OPEN_SEATS,
    "standings": None,
    "results_pending": False,
    "unrated_reason": None,
    "hints": False,
    "hints_used": None,
}
MATCH_VIEW = {
    **SUMMARY,
    "status": "playing",
    "version": 2,
    "open_seats": 0,
    "started_at": _STARTED_AT,
    "seats": SEATS,
    "your_seat": 0,
    "you_may_start": False,
    "round_scores": [],
    "totals": [0, 0, 0],
    "state": engine.view(_START, 0),
    "table_rounds": None,
    "confirmation": None,
    "you_may_score": False,
}
MINE_ROW = {
    **{
        k: v
        for k, v in MATCH_VIEW.items()
        if k
        not in (
            "state",
            "round_scores",
            "totals",
            "you_may_start",
            "table_rounds",
            "confirmation",
            "you_may_score",
        )
    },
    "your_seat": 0,
    "turn": _START.turn,
    "your_turn": _START.turn == 0,
}
LEGAL_MOVES = {
    "version": 2,
    "seat": _MOVER,
    "turn": _START.turn,
    "moves": [m.to_json() for m in engine.legal_moves(_START, _MOVER)],
}
MOVE = {
    "seq": 1,
    "round": 1,
    "seat": _MOVER,
    **engine.legal_moves(_START, _MOVER)[0].to_json(),
    "events": _EVENTS,
}
MOVE_SUBMITTED = {"version": 3, "move": MOVE, "state": engine.view(_AFTER, _MOVER)}
MOVE_LOG = {
    "moves": [{**MOVE, "version": 3, "timed_out": False, "created_at": _CREATED_AT}],
    "next_after": 1,
    "opening": [engine.redact_event(_START, e, 0) for e in engine.opening_events(_START)],
}


def _first_round_end() -> dict[str, Any]:
    """The ``round_ended`` event of the example match's round 1, each seat playing its first
    legal move."""
    state = engine.from_json(engine.to_json(_START))
    while True:
        _, events = engine.apply_move(state, state.turn, engine.legal_moves(state, state.turn)[0])
        for event in events:
            if event["type"] == "round_ended":
                return event


_ROUND_1_END = _first_round_end()
ROUNDS = {
    "rounds": [
        {
            "number": 1,
            "start_double": [9, 9],
            "status": "finished",
            "scores": engine.round_scores(
                [[tuple(t) for t in hand] for hand in _ROUND_1_END["hands"]]
            ),
            "ended_by": _ROUND_1_END["reason"],
            "went_out": _ROUND_1_END["seat"],
            "commitment": engine.commitment(_ROUND_1_END["seed"]),
            "seed": _ROUND_1_END["seed"],
            "started_at": _STARTED_AT,
            "ended_at": _ENDED_AT,
        },
        {
            "number": 2,
            "start_double": [8, 8],
            "status": "playing",
            "scores": None,
            "ended_by": None,
            "went_out": None,
            "commitment": engine.commitment(engine.round_seed(_SEED, 2)),
            "seed": None,
            "started_at": _ENDED_AT,
            "ended_at": None,
        },
    ]
}

#: Ada resigned: a bot plays her seat (docs/api.md, Resigning and abandoning).
RESIGNED_VIEW = {
    **MATCH_VIEW,
    "version": 3,
    "seats": [{**SEATS[0], "left": "resigned"}, *SEATS[1:]],
}
ABANDONED_VIEW = {**MATCH_VIEW, "status": "abandoned", "version": 3, "finished_at": _ENDED_AT}
