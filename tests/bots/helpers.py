"""Positions for bot tests: matches played some way into a round, with the round's log."""

from __future__ import annotations

import random
from typing import Any

from games import bots, engine

Log = list[list[dict[str, Any]]]

#: Every house option of each game, one configuration per line (seats, options).
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("chickenfoot", 4, {"max_pip": 9}),
    ("chickenfoot", 3, {"max_pip": 9, "spinner_arms": 6}),
    ("chickenfoot", 2, {"max_pip": 6, "must_play_drawn": True}),
    ("chickenfoot", 4, {"max_pip": 6, "release_dead_foot": False, "hand_size": 3}),
    ("chickenfoot", 5, {"max_pip": 12, "double_blank_points": 0, "hand_size": 2}),
    ("mexican_train", 4, {"max_pip": 12}),
    ("mexican_train", 3, {"max_pip": 9, "open_hands": True}),
    ("mexican_train", 4, {"max_pip": 12, "satisfy_own_double": True}),
    ("mexican_train", 4, {"max_pip": 12, "close_doubles_reverse": True}),
    ("mexican_train", 2, {"max_pip": 9, "hand_size": 3}),
    (
        "mexican_train",
        8,
        {"max_pip": 12, "satisfy_own_double": True, "close_doubles_reverse": True},
    ),
]


def play(state: Any, seat: int, move: engine.Move, log: Log) -> Log:
    """Apply ``move``; return the log of the round in play (a new one when a round starts)."""
    _, events = engine.apply_move(state, seat, move)
    for i, event in enumerate(events):
        if event["type"] == "round_started":
            return [events[i:]]
    log.append(events)
    return log


def positions(
    variant: str, seats: int, options: dict[str, Any], seed: str, count: int
) -> list[tuple[Any, Log]]:
    """``count`` positions of a match from ``seed`` (level-3 play with some random moves), each
    a state copy with the round's unredacted log so far."""
    options = {**options, "rounds": 2}
    state = engine.new_match(variant, seats, options, seed)
    log: Log = [engine.opening_events(state)]
    rng = random.Random(seed)
    out = []
    while state.status == "playing" and len(out) < count:
        seat = state.turn
        moves = engine.legal_moves(state, seat)
        if rng.random() < 0.3:
            out.append((engine.from_json(engine.to_json(state)), [list(e) for e in log]))
        policy = bots.policies.random_move if rng.random() < 0.3 else bots.policies.doubles_first
        log = play(state, seat, policy(moves, rng), log)
    return out


def shuffle_hidden(state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of ``state`` with the tiles ``seat`` cannot see (the other hands and the
    boneyard) shuffled among themselves, every hand keeping its size."""
    data = engine.to_json(state)
    open_hands = data["options"].get("open_hands", False)
    others = [s for s in range(state.seats) if s != seat and not open_hands]
    pool = [t for s in others for t in data["hands"][s]] + data["boneyard"]
    rng.shuffle(pool)
    for s in others:
        size = len(data["hands"][s])
        data["hands"][s], pool = pool[:size], pool[size:]
    data["boneyard"] = pool
    return engine.from_json(data)
