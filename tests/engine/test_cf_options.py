"""Chicken Foot house options (docs/rules.md §4): one test or more per option, and their errors."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine as E
from games.engine.errors import OptionError, RuleViolation
from games.engine.tiles import set_size
from tests.engine.cf_positions import ARMS, CF, DRAW, PASS, moves, play
from tests.engine.cf_positions import pos as _pos


def pos(hands: list[list[list[int]]], options: dict[str, Any], **kw: Any) -> Any:
    """A position with every arm started (``ARMS``) unless ``chains`` is given, and no seed."""
    return _pos(hands, options=options, seed=None, **{"chains": ARMS, **kw})


def play_out(s: Any) -> list[dict[str, Any]]:
    """Play the match to its end, always the first legal move; return every event."""
    events: list[dict[str, Any]] = []
    while s.status == "playing":
        _, new = E.apply_move(s, s.turn, E.legal_moves(s, s.turn)[0])
        events.extend(new)
    return events


def test_option_max_pip_chooses_the_set() -> None:
    s = E.new_match(CF, 4, {"max_pip": 12}, "set")
    assert s.start_double == 12
    tiles = [t for h in s.hands for t in h] + s.boneyard + [(12, 12)]
    assert len(tiles) == set_size(12) == 91
    assert s.options["hand_size"] == (91 - 13) // 4


def test_option_hand_size_overrides_the_deal() -> None:
    s = E.new_match(CF, 3, {"hand_size": 5}, "small")
    for seat in range(3):
        drawn = sum(1 for e in s.opening if e["type"] == "drew" and e["seat"] == seat)
        placed = 1 if seat == s.starter else 0
        assert len(s.hands[seat]) == 5 + drawn - placed


def test_option_hand_size_of_one_can_end_a_round_at_its_start() -> None:
    # With one tile each, the holder of the start double goes out by placing it.
    for i in range(200):
        s = E.new_match(CF, 2, {"hand_size": 1, "rounds": 3}, f"one-{i}")
        if len(s.scores) >= 1:
            assert 0 in s.scores[0]
            assert s.round_no == len(s.scores) + 1 or s.status == "over"
            return
    raise AssertionError("no seed dealt a start double to a one-tile hand")  # pragma: no cover


def test_option_rounds_plays_the_first_doubles_high_to_low() -> None:
    s = E.new_match(CF, 3, {"rounds": 3}, "short")
    events = play_out(s)
    assert [e["start_double"] for e in events if e["type"] == "round_started"] == [[8, 8], [7, 7]]
    assert s.opening[0]["round"] == 3
    assert len(s.scores) == 3
    assert sum(1 for e in events if e["type"] == "match_over") == 1


def test_option_double_blank_points_scores_the_double_blank() -> None:
    s = pos([[[1, 5]], [[0, 0], [3, 8]]], {"double_blank_points": 7, "rounds": 1})
    _, events = E.apply_move(s, 0, play([1, 5], "arm:0"))
    assert events[2]["scores"] == [0, 18]


def test_option_spinner_arms_six_needs_six_first_tiles() -> None:
    arms = {f"arm:{i}": [[9, i]] for i in range(5)}
    s = pos([[[9, 5], [0, 4]], [[3, 8]]], {"spinner_arms": 6}, chains=arms, boneyard=[[0, 0]])
    assert [m.target for m in E.legal_moves(s, 0)] == ["arm:5"]
    with pytest.raises(RuleViolation) as info:
        E.apply_move(s, 0, play([0, 4], "arm:4"))
    assert info.value.rule == "CF-SPINNER"


def test_option_must_play_drawn_forbids_declining() -> None:
    s = pos([[[5, 6]], [[3, 8]]], {"must_play_drawn": True}, boneyard=[[1, 7], [0, 0]])
    E.apply_move(s, 0, DRAW)
    assert moves(s, 0) == [play([1, 7], "arm:0")]
    before = E.to_json(s)
    with pytest.raises(RuleViolation) as info:
        E.apply_move(s, 0, PASS)
    assert info.value.rule == "CF-DRAW"
    assert E.to_json(s) == before


def test_option_must_play_drawn_default_allows_declining() -> None:
    s = pos([[[5, 6]], [[3, 8]]], {}, boneyard=[[1, 7], [0, 0]])
    E.apply_move(s, 0, DRAW)
    assert PASS in moves(s, 0)


def test_option_release_dead_foot_default_true_releases() -> None:
    s = pos([[[1, 1], [6, 6]], [[3, 8]]], {}, boneyard=[[0, 0]])
    _, events = E.apply_move(s, 0, play([1, 1], "arm:0"))
    assert events[-1] == {"type": "foot_released", "foot": "foot:0"}
    assert s.foot is None


def test_option_release_dead_foot_false_blocks_the_round() -> None:
    s = pos([[[1, 1], [6, 6]], [[3, 8]]], {"release_dead_foot": False, "rounds": 1},
            boneyard=[[0, 0]])  # fmt: skip
    _, events = E.apply_move(s, 0, play([1, 1], "arm:0"))
    assert [e["type"] for e in events] == [
        "tile_played", "foot_opened", "round_ended", "round_scores", "match_over"
    ]  # fmt: skip
    assert events[2]["reason"] == "blocked"


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"spinner_arms": 5}, "CF-SPINNER"),
        ({"spinner_arms": "4"}, None),
        ({"must_play_drawn": "yes"}, None),
        ({"release_dead_foot": 1}, None),
        ({"rounds": 0}, "C-ROUNDS"),
        ({"rounds": 11}, "C-ROUNDS"),
        ({"double_blank_points": 101}, "C-PIPS"),
        ({"double_blank_points": -1}, "C-PIPS"),
        ({"hand_size": 0}, "CF-DEAL"),
        ({"hand_size": 14}, "CF-DEAL"),
        ({"max_pip": 7}, "C-SET"),
        ({"max_pip": True}, None),
        ({"open_hands": True}, None),
        ({"satisfy_own_double": False}, None),
        ({"spinners": 4}, None),
    ],
)
def test_option_validation_errors_for_chicken_foot(
    options: dict[str, Any], rule: str | None
) -> None:
    with pytest.raises(OptionError) as info:
        E.new_match(CF, 4, options, "bad")
    assert info.value.rule == rule
    assert info.value.status == 400
    assert info.value.detail


def test_option_defaults_are_filled_in() -> None:
    s = E.new_match(CF, 4, None, "defaults")
    assert s.options == {
        "max_pip": 9, "hand_size": 11, "rounds": 10, "double_blank_points": 50,
        "spinner_arms": 4, "must_play_drawn": False, "release_dead_foot": True,
        "turn_seconds": None, "timeouts_to_takeover": 3,
    }  # fmt: skip


@pytest.mark.parametrize(
    "options",
    [
        {"turn_seconds": 0},
        {"turn_seconds": 7 * 24 * 3600 + 1},
        {"turn_seconds": "30"},
        {"turn_seconds": True},
        {"timeouts_to_takeover": 0},
        {"timeouts_to_takeover": 101},
    ],
)
def test_clock_options_are_checked(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError) as info:
        E.new_match(CF, 4, options, "bad")
    assert info.value.status == 400
    assert next(iter(options)) in info.value.detail


def test_clock_options_are_kept() -> None:
    s = E.new_match(CF, 3, {"turn_seconds": 30, "timeouts_to_takeover": 1}, "clock")
    assert (s.options["turn_seconds"], s.options["timeouts_to_takeover"]) == (30, 1)
