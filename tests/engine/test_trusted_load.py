"""A trusted load (``from_json(..., trusted=True)``, what the server reads its own stored state
with) builds the state a checked load builds, at every point of random matches of both games:
the same JSON, legal moves and views, and the same next state after the same move."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine as E

SHAPES: list[tuple[str, int, dict[str, Any]]] = [
    ("chickenfoot", 4, {}),
    ("chickenfoot", 2, {"max_pip": 6, "hand_size": 4}),
    ("chickenfoot", 3, {"must_play_drawn": True, "hand_size": 2, "rounds": 5}),
    ("chickenfoot", 5, {"release_dead_foot": False}),
    ("chickenfoot", 4, {"spinner_arms": 6, "double_blank_points": 0}),
    ("mexican_train", 4, {"max_pip": 12}),
    ("mexican_train", 3, {"max_pip": 9, "open_hands": True}),
    ("mexican_train", 2, {"max_pip": 9, "close_doubles_reverse": True}),
    ("mexican_train", 5, {"max_pip": 12, "satisfy_own_double": True}),
]


def _same(data: dict[str, Any]) -> Any:
    """The trusted load of ``data``, after checking it against the checked load."""
    trusted, checked = E.from_json(data, trusted=True), E.from_json(data)
    assert E.to_json(trusted) == E.to_json(checked) == data
    for seat in (None, *range(checked.seats)):
        assert E.view(trusted, seat) == E.view(checked, seat)
    if checked.status == "playing":
        turn = checked.turn
        assert [m.to_json() for m in E.legal_moves(trusted, turn)] == [
            m.to_json() for m in E.legal_moves(checked, turn)
        ]
    return trusted


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), shape=st.sampled_from(SHAPES))
def test_a_trusted_load_is_the_checked_load_at_every_move(
    seed: int, shape: tuple[str, int, dict[str, Any]]
) -> None:
    variant, seats, options = shape
    state = E.new_match(variant, seats, options, f"trusted-{seed}")
    rng = random.Random(seed)
    for _ in range(400):
        data = E.to_json(state)
        trusted = _same(data)
        if state.status != "playing":
            break
        move = rng.choice(E.legal_moves(state, state.turn)).to_json()
        seat = state.turn
        state, events = E.apply_move(state, seat, E.parse_move(move, options.get("max_pip")))
        again, again_events = E.apply_move(
            trusted, seat, E.parse_move(move, options.get("max_pip"))
        )
        assert events == again_events
        assert E.to_json(again) == E.to_json(state)
