"""A well-formed move body skips the serializer: it must get exactly what the serializer gives."""

from __future__ import annotations

from typing import Any

import pytest

from games.api.moves import MoveSubmitApi, _plain_move_input

BODIES: list[Any] = [
    {"kind": "play", "tile": [8, 9], "target": "arm:0", "version": 2},
    {"kind": "play", "tile": [8, 9], "target": "foot:1:toe:2"},
    {"kind": "draw", "version": 0},
    {"kind": "pass"},
    {"kind": "draw", "tile": None, "target": None, "version": 5},
    {"kind": "play", "tile": [0, 12], "target": "mexican", "version": 7},
    {"kind": "play", "tile": "nonsense", "target": "mexican", "version": 7},
    # Each of these goes to the serializer (coerced, or refused).
    {"kind": "play", "version": "3"},
    {"kind": "play", "version": True},
    {"kind": "play", "version": -1},
    {"kind": "play", "version": None},
    {"kind": "steal"},
    {"kind": 1},
    {"tile": [1, 2]},
    {"kind": "play", "target": " arm:0"},
    {"kind": "play", "target": ""},
    {"kind": "play", "target": "x" * 33},
    {"kind": "play", "target": "arm:\x00"},
    {"kind": "play", "target": 5},
    {"kind": "play", "extra": 1},
    {"kind": "play", "tile": [True, 1], "target": "arm:0"},
    {"kind": "play", "tile": [1.0, 2], "target": "arm:0"},
    {"kind": "play", "tile": [1, 2, 3], "target": "arm:0"},
    {"kind": "play", "tile": [-1, 2], "target": "arm:0"},
    {"kind": "play", "tile": (1, 2), "target": "arm:0"},
    {"kind": "play", "version": 2.0},
    [{"kind": "play"}],
    "play",
]


@pytest.mark.parametrize("body", BODIES)
def test_the_plain_check_agrees_with_the_serializer(body: Any) -> None:
    serializer = MoveSubmitApi.MoveSubmitInputSerializer(data=body)
    valid = serializer.is_valid()

    plain = _plain_move_input(body)

    if plain is not None:
        assert valid
        assert plain == serializer.validated_data
        assert "extra" not in plain


def test_the_plain_check_takes_the_usual_bodies() -> None:
    assert _plain_move_input(BODIES[0]) == BODIES[0]
    assert _plain_move_input({"kind": "pass"}) == {"kind": "pass"}
    assert _plain_move_input({"kind": "play", "version": "3"}) is None
