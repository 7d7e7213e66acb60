"""Mexican Train house options (docs/rules.md §4): one test (or more) per option."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engine as E
from games.engine.errors import OptionError
from tests.engine.mt_positions import MT, act, legal, play, play_out, pos, refused

OPEN_TWO = {
    "trains": {"seat:1": [[12, 4], [4, 4]], "mexican": [[12, 6], [6, 6]]},
    "open_doubles": ["seat:1", "mexican"],
    "boneyard": [(0, 5)],
}
OPEN_TWO_HANDS = [[(1, 4), (2, 6)], [(4, 9), (6, 7)], [(0, 0)]]


def test_option_close_doubles_reverse_default_oldest_first() -> None:
    s = pos(OPEN_TWO_HANDS, **OPEN_TWO)
    assert legal(s) == [play((1, 4), "seat:1")]


def test_option_close_doubles_reverse_newest_first() -> None:
    s = pos(OPEN_TWO_HANDS, options={"close_doubles_reverse": True}, **OPEN_TWO)
    assert E.view(s, 0)["must_satisfy"] == "mexican"
    assert legal(s) == [play((2, 6), "mexican")]
    refused(s, play((1, 4), "seat:1"), "MT-OPEN")
    act(s, play((2, 6), "mexican"))
    assert legal(s) == [play((4, 9), "seat:1")]


def _after_one_double(**options: bool) -> Any:
    s = pos(
        [[(4, 4), (4, 9), (0, 3), (7, 7), (0, 1)], [(2, 3), (7, 8)]],
        trains={"seat:0": [[12, 4]], "mexican": [[12, 7]]},
        boneyard=[(0, 2)],
        options=options,
    )
    act(s, play((4, 4), "seat:0"))
    return s


def test_option_satisfy_own_double_off_lets_the_next_tile_go_elsewhere() -> None:
    s = _after_one_double()
    assert legal(s) == [play((4, 9), "seat:0"), play((7, 7), "mexican")]


def test_option_satisfy_own_double_demands_the_double_train() -> None:
    s = _after_one_double(satisfy_own_double=True)
    assert E.view(s, 0)["double_run_target"] == "seat:0"
    # Another double may still follow (MT-DOUBLE); a non-double must go on the double.
    assert legal(s) == [play((4, 9), "seat:0"), play((7, 7), "mexican")]
    s2 = pos(
        [[(4, 4), (4, 9), (12, 3), (0, 1)], [(2, 3)]],
        trains={"seat:0": [[12, 4]]},
        boneyard=[(0, 2)],
        options={"satisfy_own_double": True},
    )
    act(s2, play((4, 4), "seat:0"))
    assert legal(s2) == [play((4, 9), "seat:0")]
    refused(s2, play((3, 12), "mexican"), "MT-DOUBLE")


def test_option_open_hands_every_hand_face_up() -> None:
    hands = [[(0, 1)], [(3, 4), (5, 5)]]
    closed = pos(hands, boneyard=[(2, 2)])
    assert "hands" not in E.view(closed, 0)
    s = pos(hands, boneyard=[(2, 2)], options={"open_hands": True})
    for seat in (0, 1, None):
        assert E.view(s, seat)["hands"] == [[[0, 1]], [[3, 4], [5, 5]]]
    assert E.view(s, 0)["boneyard"] == 1  # its size only


def test_option_max_pip_double_nine_match() -> None:
    s = E.new_match(MT, 3, {"max_pip": 9}, "d9")
    assert s.engine == 9
    assert [len(h) for h in s.hands] == [13, 13, 13]
    assert E.view(s, None)["boneyard"] == 54 - 39
    with pytest.raises(OptionError):
        E.new_match(MT, 3, {"max_pip": 6}, "d6")


def test_option_hand_size_overrides_the_deal() -> None:
    s = E.new_match(MT, 4, {"hand_size": 7}, "hs")
    assert [len(h) for h in s.hands] == [7] * 4
    assert len(s.boneyard) == 90 - 28
    with pytest.raises(OptionError) as info:
        E.new_match(MT, 4, {"hand_size": 23}, "hs")
    assert info.value.rule == "MT-DEAL"


def test_option_rounds_short_match_plays_the_highest_doubles() -> None:
    s = E.new_match(MT, 2, {"rounds": 3}, "short")
    events = play_out(s, random.Random(4))
    starts = [e["start_double"] for e in events if e["type"] == "round_started"]
    assert starts == [[11, 11], [10, 10]]
    assert len(s.scores) == 3
    assert s.status == "over"


@pytest.mark.parametrize("points", [0, 25, 100])
def test_option_double_blank_points(points: int) -> None:
    s = pos(
        [[(12, 3)], [(0, 0), (1, 2)]],
        boneyard=[(4, 5)],
        options={"double_blank_points": points, "rounds": 1},
    )
    act(s, play((3, 12), "seat:0"))
    assert s.scores == [[0, points + 3]]


@pytest.mark.parametrize("open_hands", [False, True])
def test_option_open_hands_drawn_tile_shown_to_everyone_only_with_it(open_hands: bool) -> None:
    hands = [[(0, 1)], [(3, 4), (6, 6)], [(2, 6)]]
    boneyard = [(5, 12), (7, 8), (2, 9)]
    s = pos(hands, boneyard=boneyard, options={"open_hands": open_hands})
    _, [drew] = E.apply_move(s, 0, {"kind": "draw"})  # 5|12 fits: the drawer stays on turn
    assert drew["tile"] == [5, 12]
    assert drew.get("open", False) is open_hands
    for seat in (0, 1, 2, None):
        for redact in (E.redact_event(s, drew, seat), E.redact_event(MT, drew, seat)):
            assert ("tile" in redact) is (open_hands or seat == 0)
    if open_hands:
        assert [5, 12] in E.view(s, 1)["hands"][0]
    # The automatic pass after an unplayable draw: the same rule for its ``drew``.
    E.apply_move(s, 0, {"kind": "play", "tile": [5, 12], "target": "mexican"})
    _, events = E.apply_move(s, 1, {"kind": "draw"})  # 7|8 fits nothing
    assert [e["type"] for e in events] == ["drew", "passed", "marker_put"]
    assert ("tile" in E.redact_event(MT, events[0], 2)) is open_hands
    assert E.to_json(E.from_json(E.to_json(s))) == E.to_json(s)
