"""Mexican Train: adversarial positions, rule by rule (docs/rules.md §1, §3 and the MT options).

Each test builds an edge case with ``from_json`` and plays it through the facade. Trains list
their tiles oriented ``[touching, open]`` from the hub; tiles mentioned nowhere are out of the
game.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

from games import engine as E
from games.engine.options import MT_SEATS, default_hand_size
from games.engine.scoring import final_order
from games.engine.tiles import set_size
from tests.engine.mt_positions import DRAW, MT, PASS, act, layout, legal, play, refused, types
from tests.engine.mt_positions import pos as _pos

#: The audit's positions carry their own match seed.
pos = partial(_pos, seed="audit-seed")

# --- MT-DOUBLE / MT-OPEN ------------------------------------------------------------------


def _run_of_two_left_open(reverse: bool) -> Any:
    """Seat 0 plays 4|4 then 6|6 and cannot follow: both doubles are left open."""
    s = pos(
        [[(4, 4), (6, 6), (0, 1)], [(4, 9), (6, 7), (2, 3)], [(4, 10), (6, 11), (2, 5)]],
        trains={"seat:0": [[12, 4]], "mexican": [[12, 6]]},
        boneyard=[(1, 2), (0, 3), (0, 5)],
        options={"close_doubles_reverse": reverse},
    )
    act(s, play((4, 4), "seat:0"))
    act(s, play((6, 6), "mexican"))
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]
    assert layout(s)["open_doubles"] == ["seat:0", "mexican"]
    return s


def test_MT_OPEN_run_left_open_is_satisfied_in_the_order_played() -> None:
    s = _run_of_two_left_open(reverse=False)
    assert E.view(s, 1)["must_satisfy"] == "seat:0"
    assert legal(s) == [play((4, 9), "seat:0")]
    refused(s, play((6, 7), "mexican"), "MT-OPEN")
    act(s, play((4, 9), "seat:0"))
    assert s.turn == 2
    assert legal(s) == [play((6, 11), "mexican")]
    act(s, play((6, 11), "mexican"))
    assert layout(s)["open_doubles"] == []
    assert legal(s) == [DRAW]  # seat 0 holds 0|1, 1|2: nothing fits 9, 11 or 12


def test_MT_OPEN_run_left_open_is_satisfied_newest_first_with_the_option() -> None:
    s = _run_of_two_left_open(reverse=True)
    assert E.view(s, 1)["must_satisfy"] == "mexican"
    assert legal(s) == [play((6, 7), "mexican")]
    refused(s, play((4, 9), "seat:0"), "MT-OPEN")
    act(s, play((6, 7), "mexican"))
    assert legal(s) == [play((4, 10), "seat:0")]


def test_MT_DOUBLE_run_of_three_then_the_non_double_on_the_first() -> None:
    s = pos(
        [[(4, 4), (6, 6), (7, 7), (4, 9), (6, 8), (7, 9), (0, 1)], [(2, 3)]],
        trains={"seat:0": [[12, 4]], "mexican": [[12, 6]], "seat:1": [[12, 7]]},
        markers=[1],
        boneyard=[(0, 2)],
    )
    act(s, play((4, 4), "seat:0"))
    act(s, play((6, 6), "mexican"))
    act(s, play((7, 7), "seat:1"))
    assert s.turn == 0
    assert E.view(s, 0)["doubles_this_turn"] == 3
    assert legal(s) == [play((4, 9), "seat:0")]
    refused(s, play((6, 8), "mexican"), "MT-DOUBLE")
    refused(s, play((7, 9), "seat:1"), "MT-DOUBLE")
    events = act(s, play((4, 9), "seat:0"))
    assert types(events) == ["tile_played", "double_satisfied"]
    assert s.turn == 1
    assert layout(s)["open_doubles"] == ["mexican", "seat:1"]
    assert E.view(s, 1)["must_satisfy"] == "mexican"


def test_MT_DOUBLE_drawn_double_then_draw_again_then_unplayable_draw_passes() -> None:
    s = pos(
        [[(4, 4), (0, 1), (0, 2)], [(4, 8), (7, 9)]],
        trains={"seat:0": [[12, 4]], "mexican": [[12, 7]]},
        boneyard=[(7, 7), (2, 3), (5, 6)],
    )
    act(s, play((4, 4), "seat:0"))
    act(s, DRAW)
    events = act(s, play((7, 7), "mexican"))
    assert types(events) == ["tile_played", "double_opened"]
    assert s.turn == 0
    assert legal(s) == [DRAW]
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]
    assert s.turn == 1
    assert layout(s)["open_doubles"] == ["seat:0", "mexican"]
    assert legal(s) == [play((4, 8), "seat:0")]


def test_MT_DOUBLE_satisfy_own_double_drawn_tile_fitting_elsewhere_passes() -> None:
    def after_double(own: bool) -> Any:
        s = pos(
            [[(4, 4), (0, 1), (0, 3)], [(2, 3), (4, 9)]],
            trains={"seat:0": [[12, 4]]},
            boneyard=[(12, 5), (0, 2)],
            options={"satisfy_own_double": own},
        )
        act(s, play((4, 4), "seat:0"))
        return s

    s = after_double(own=False)
    assert types(act(s, DRAW)) == ["drew"]
    assert legal(s) == [play((5, 12), "mexican")]
    s = after_double(own=True)
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]
    assert layout(s)["open_doubles"] == ["seat:0"]


def test_MT_END_going_out_on_a_double_in_the_middle_of_a_run() -> None:
    s = pos(
        [[(6, 6)], [(2, 3), (6, 9), (4, 7)]],
        trains={"seat:0": [[12, 4], [4, 4]], "mexican": [[12, 6]]},
        open_doubles=["seat:0"],
        streak=1,
        boneyard=[(0, 2)],
        options={"rounds": 1},
    )
    events = act(s, play((6, 6), "mexican"))
    assert types(events) == [
        "tile_played",
        "double_opened",
        "round_ended",
        "round_scores",
        "match_over",
    ]
    assert (events[2]["reason"], events[2]["seat"]) == ("out", 0)
    assert s.scores == [[0, 31]]


def test_MT_OPEN_DEAD_satisfying_one_double_kills_the_next() -> None:
    # 5|8 satisfies 5|5 and is the last 8 off the table: 8|8 is released at once.
    s = pos(
        [[(0, 1)], [(5, 8), (12, 3), (1, 9)], [(2, 2)]],
        trains={"seat:0": [[12, 5], [5, 5]], "mexican": [[12, 8], [8, 8]]},
        open_doubles=["seat:0", "mexican"],
        boneyard=[(0, 2), (1, 3)],
        turn=1,
    )
    events = act(s, play((5, 8), "seat:0"))
    assert types(events) == ["tile_played", "double_satisfied", "double_released"]
    assert events[2] == {"type": "double_released", "target": "mexican", "tile": [8, 8]}
    assert s.turn == 2
    assert E.view(s, 2)["must_satisfy"] is None
    assert legal(s) == [DRAW]  # 2|2 fits nothing: ends 5, 12, 12, 8


def test_MT_OPEN_a_drawn_double_cannot_go_on_an_open_double() -> None:
    s = pos(
        [[(0, 1)], [(0, 3)], [(2, 2), (4, 9)]],
        trains={"seat:0": [[12, 4], [4, 4]], "seat:1": [[12, 3]]},
        open_doubles=["seat:0"],
        boneyard=[(3, 3), (1, 2)],
        turn=1,
    )
    # 3|3 fits seat 1's own train, but the open 4|4 binds: the draw passes.
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]
    assert E.view(s, 2)["must_satisfy"] == "seat:0"


# --- MT-DRAW markers, MT-AVAILABLE, MT-END ------------------------------------------------


def test_MT_DRAW_marker_stays_when_another_seat_satisfies_a_double_on_that_train() -> None:
    s = pos(
        [[(0, 1), (4, 10)], [(4, 8), (12, 3), (1, 9)], [(2, 2)]],
        trains={"seat:0": [[12, 4], [4, 4]]},
        open_doubles=["seat:0"],
        markers=[0],
        boneyard=[(0, 5), (1, 2)],
        turn=1,
    )
    events = act(s, play((4, 8), "seat:0"))
    assert "marker_lifted" not in types(events)
    assert layout(s)["markers"] == [0]
    s = pos(
        [[(0, 1), (4, 10), (1, 9)], [(4, 8), (12, 3)], [(2, 2)]],
        trains={"seat:0": [[12, 4], [4, 4]]},
        open_doubles=["seat:0"],
        markers=[0],
        boneyard=[(0, 5), (1, 2)],
    )
    events = act(s, play((4, 10), "seat:0"))
    assert types(events) == ["tile_played", "marker_lifted", "double_satisfied"]
    assert layout(s)["markers"] == []


def test_MT_DRAW_a_double_on_ones_own_train_lifts_the_marker() -> None:
    s = pos(
        [[(4, 4), (4, 9), (0, 1)], [(2, 3)]],
        trains={"seat:0": [[12, 4]]},
        markers=[0],
        boneyard=[(0, 2)],
    )
    events = act(s, play((4, 4), "seat:0"))
    assert types(events) == ["tile_played", "marker_lifted", "double_opened"]
    assert layout(s)["markers"] == []


def test_MT_END_blocked_waits_for_the_markers_that_open_trains() -> None:
    # Boneyard empty; seat 1's only fitting tile needs seat 0's unmarked train; seat 2 holds
    # nothing that fits. Not blocked: seat 0 passes (marker up), seat 1 plays.
    s = pos(
        [[(0, 1)], [(6, 2), (3, 4)], [(0, 5)]],
        trains={
            "seat:0": [[12, 6]],
            "seat:1": [[12, 7]],
            "seat:2": [[12, 8]],
            "mexican": [[12, 9]],
        },
        boneyard=[],
    )
    assert types(act(s, PASS)) == ["passed", "marker_put"]
    assert s.status == "playing"
    assert legal(s) == [play((2, 6), "seat:0")]
    events = act(s, play((2, 6), "seat:0"))  # no tile left fits 2, 7, 8 or 9: blocked now
    assert next(e for e in events if e["type"] == "round_ended")["reason"] == "blocked"
    assert s.round_no == 2
    assert s.scores == [[1, 7, 5]]


def test_MT_END_blocked_by_an_automatic_pass_with_the_marker_already_up() -> None:
    s = pos([[(0, 1)], [(2, 3)]], boneyard=[(4, 5)], markers=[0])
    events = act(s, DRAW)
    assert types(events)[:3] == ["drew", "passed", "round_ended"]
    assert events[2]["reason"] == "blocked"


# --- MT-KNOCK -----------------------------------------------------------------------------


def test_MT_KNOCK_after_a_double_and_again_after_drawing_back_up() -> None:
    s = pos(
        [[(4, 4), (0, 1)], [(2, 3), (5, 6), (4, 8)]],
        trains={"seat:0": [[12, 4]]},
        boneyard=[(0, 9), (12, 1), (7, 8)],
    )
    events = act(s, play((4, 4), "seat:0"))
    assert types(events) == ["tile_played", "double_opened", "last_tile"]
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]  # 0|9 fits nothing
    act(s, play((4, 8), "seat:0"))  # seat 1 satisfies the double
    assert s.hands[0] == [(0, 1), (0, 9)]
    s = pos([[(12, 3), (0, 1)], [(12, 4), (5, 6), (7, 8)]], boneyard=[(5, 12), (9, 9)])
    assert act(s, play((12, 3), "seat:0"))[-1] == {"type": "last_tile", "seat": 0}
    act(s, play((12, 4), "seat:1"))
    assert types(act(s, DRAW)) == ["drew"]  # 5|12 fits: back to two tiles
    events = act(s, play((5, 12), "mexican"))
    assert events[-1] == {"type": "last_tile", "seat": 0}


# --- MT-FIRST, MT-DEAL, MT-SCORE, C-* ------------------------------------------------------


def test_MT_FIRST_first_seat_wraps_around_with_more_rounds_than_seats() -> None:
    s = E.new_match(MT, 2, {"max_pip": 9, "rounds": 5}, "wrap")
    starters = [s.opening[0]["starter"]]
    rng = random.Random(11)
    while s.status == "playing":
        _, events = E.apply_move(s, s.turn, rng.choice(E.legal_moves(s, s.turn)))
        starters += [e["starter"] for e in events if e["type"] == "round_started"]
        for e in events:
            if e["type"] == "round_started":
                assert e["turn"] == e["starter"] == s.first_seat()
    assert starters == [0, 1, 0, 1, 0]


@pytest.mark.parametrize(
    ("max_pip", "seats"),
    [(top, n) for top, (lo, hi) in MT_SEATS.items() for n in range(lo, hi + 1)],
)
def test_MT_DEAL_every_player_count_of_every_set(max_pip: int, seats: int) -> None:
    table = {
        12: {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9},
        9: {2: 15, 3: 13, 4: 10},
    }
    tiles = set_size(max_pip)
    size = table[max_pip][seats] if max_pip in table else (4 * (tiles - 1)) // (5 * seats)
    assert default_hand_size(MT, max_pip, seats) == size
    s = E.new_match(MT, seats, {"max_pip": max_pip, "rounds": 1}, "deal")
    assert [len(h) for h in s.hands] == [size] * seats
    assert len(s.boneyard) == tiles - 1 - seats * size > 0


@pytest.mark.parametrize("points", [0, 50, 100])
def test_MT_SCORE_blocked_round_with_double_blank(points: int) -> None:
    s = pos(
        [[(12, 3), (0, 0)], [(4, 5), (0, 0 + 1)]],
        boneyard=[],
        options={"double_blank_points": points, "rounds": 1},
    )
    events = act(s, play((12, 3), "seat:0"))
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["reason"] == "blocked"
    assert ended["hands"] == [[[0, 0]], [[0, 1], [4, 5]]]
    assert s.scores == [[points, 10]]
    assert events[-1] == {"type": "match_over", "standings": final_order([[points, 10]])}
    assert events[-1]["standings"][0]["seat"] == (0 if points < 10 else 1)


# --- every rule at once: a plain reference of the legal moves, over random matches ----------


def _reference_legal(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal moves read straight from docs/rules.md §3 over ``to_json`` data (no indexes)."""
    seat, n = data["turn"], data["seats"]
    opts, lay = data["options"], data["layout"]
    names = [f"seat:{i}" for i in range(n)] + ["mexican"]
    ends = {}
    for name in names:
        tiles = lay["trains"][name]
        ends[name] = tiles[-1][1] if tiles else lay["engine"]
    opened, streak, drawn = lay["open_doubles"], data["streak"], data["drawn"]
    hand = sorted(tuple(t) for t in data["hands"][seat])
    tiles = [tuple(sorted(drawn))] if drawn is not None else hand
    if opened and not streak:  # MT-OPEN
        bound = opened[-1] if opts["close_doubles_reverse"] else opened[0]
        targets = [bound]
    else:  # MT-AVAILABLE
        targets = [t for i, t in enumerate(names) if i in (seat, n) or i in lay["markers"]]
    forced = None  # MT-DOUBLE
    if streak and opened and (streak > 1 or opts["satisfy_own_double"]):
        forced = opened[0]
    plays = [
        play(t, name)
        for name in targets
        for t in tiles
        if ends[name] in t and (forced is None or t[0] == t[1] or name == forced)
    ]
    if plays:
        return plays
    if drawn is None and data["boneyard"]:
        return [DRAW]
    return [PASS]


@pytest.mark.parametrize("shape", [(2, 12), (4, 12), (8, 12), (3, 9), (10, 15)])
def test_legal_moves_agree_with_a_plain_reading_of_the_rules(shape: tuple[int, int]) -> None:
    seats, top = shape
    rng = random.Random(seats * 100 + top)
    for k in range(12):
        options = {
            "max_pip": top,
            "rounds": 2,
            "close_doubles_reverse": k % 2 == 1,
            "satisfy_own_double": k % 4 >= 2,
            "open_hands": k % 3 == 0,
        }
        s = E.new_match(MT, seats, options, f"ref{k}")
        while s.status == "playing":
            data = E.to_json(s)
            moves = legal(s)
            assert moves == _reference_legal(data)
            _, events = E.apply_move(s, s.turn, rng.choice(moves))
            if s.round_no != data["round_no"]:
                continue
            off = [t for h in s.hands for t in h] + list(s.boneyard)
            for e in events:
                if e["type"] == "double_released":  # MT-OPEN-DEAD: really dead
                    assert all(e["tile"][0] not in t for t in off)


# --- positions (from_json) ----------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        {"turn": 2},
        {"turn": None},
        {"drawn": [4, 5]},  # in the boneyard, not in the hand of the seat on turn
        {"drawn": [2, 3], "turn": 0},  # in another seat's hand
        {"streak": -1},
        {"layout": {"markers": [2]}},
        {"layout": {"trains": {"seat:0": [[12, 4], [4, 4]]}, "open_doubles": ["seat:0"] * 2}},
        {"layout": {"open_doubles": ["seat:9"]}},
    ],
)
def test_positions_that_cannot_be_played_are_refused(extra: dict[str, Any]) -> None:
    data = {
        "variant": MT,
        "seats": 2,
        "seed": "x",
        "options": {"max_pip": 12},
        "hands": [[[0, 1], [4, 9]], [[2, 3]]],
        "boneyard": [[4, 5]],
        **extra,
    }
    with pytest.raises(ValueError):  # noqa: PT011 - the message names the field
        E.from_json(data)
