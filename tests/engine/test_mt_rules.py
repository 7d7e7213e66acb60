"""Mexican Train: one test (or more) per rule id of docs/rules.md §1 and §3.

Positions are built with ``from_json`` (see docs/engine.md): tiles mentioned nowhere are out of
the game, trains list their tiles oriented ``[touching, open]`` from the hub.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from games import engine as E
from games.engine import mexican_train
from games.engine.errors import NotYourTurn, OptionError, RoundOver
from games.engine.scoring import final_order
from games.engine.shuffle import deal, round_seed, shuffled
from games.engine.tiles import full_set
from tests.engine.mt_positions import (
    DRAW,
    MT,
    PASS,
    act,
    layout,
    legal,
    play,
    play_out,
    pos,
    refused,
    types,
)

# --- C-* ---------------------------------------------------------------------------------


def test_C_SET_engine_hands_and_boneyard_make_the_whole_set() -> None:
    s = E.new_match(MT, 4, {}, "set")
    tiles = [t for h in s.hands for t in h] + s.boneyard + [(12, 12)]
    assert sorted(tiles) == full_set(12)
    assert len(tiles) == 91


def test_C_PIPS_tiles_left_score_their_pips_double_blank_fifty() -> None:
    s = pos([[(12, 3)], [(0, 0), (2, 5)]], options={"rounds": 1})
    events = act(s, play((12, 3), "seat:0"))
    assert s.scores == [[0, 57]]
    assert events[-1]["type"] == "match_over"


def test_C_ROUNDS_match_runs_from_highest_double_down() -> None:
    s = E.new_match(MT, 2, {"max_pip": 9}, "rounds")
    assert s.engine == 9
    events = play_out(s, random.Random(3))
    starts = [e["start_double"] for e in events if e["type"] == "round_started"]
    assert starts == [[d, d] for d in range(8, -1, -1)]
    assert len(s.scores) == 10
    assert s.status == "over"
    assert s.turn is None


def test_C_SEATS_out_of_turn_refused_and_play_goes_clockwise() -> None:
    s = pos([[(12, 3), (1, 1)], [(12, 4), (2, 2)], [(12, 5), (3, 3)]], boneyard=[(0, 1)])
    before = E.to_json(s)
    with pytest.raises(NotYourTurn):
        E.apply_move(s, 1, play((12, 4), "seat:1"))
    assert E.to_json(s) == before
    assert E.legal_moves(s, 1) == []
    act(s, play((12, 3), "seat:0"))
    assert s.turn == 1
    act(s, play((12, 4), "seat:1"))
    act(s, play((12, 5), "seat:2"))
    assert s.turn == 0


def test_C_SHUFFLE_commitment_seed_and_deal_replay() -> None:
    s = E.new_match(MT, 3, {}, "shuffle-seed")
    hands = [list(h) for h in s.hands]
    seed1 = round_seed("shuffle-seed", 1)
    assert E.view(s, 0)["commitment"] == hashlib.sha256(seed1.encode()).hexdigest()
    tiles = [t for t in full_set(12) if t != (12, 12)]
    assert deal(shuffled(tiles, seed1), 3, 16)[0] == hands
    events = play_out(s, random.Random(1))
    ended = [e for e in events if e["type"] == "round_ended"]
    assert ended[0]["seed"] == seed1
    assert s.revealed_seeds[0] == seed1


def test_C_HIDDEN_views_and_drawn_tiles() -> None:
    s = pos([[(0, 1)], [(3, 4)]], boneyard=[(5, 12), (7, 8)])
    mine, theirs, spectator = E.view(s, 0), E.view(s, 1), E.view(s, None)
    assert mine["hand"] == [[0, 1]]
    assert theirs["hand"] == [[3, 4]]
    assert "hand" not in spectator
    for v in (mine, theirs, spectator):
        assert "hands" not in v
        assert "seed" not in v
        assert v["boneyard"] == 2
        assert v["hand_counts"] == [1, 1]
    [drew] = act(s, DRAW)
    hidden = {"type": "drew", "seat": 0, "count": 1, "boneyard": 1}
    assert E.redact_event(s, drew, 0) == {**hidden, "tile": [5, 12]}
    assert E.redact_event(s, drew, 1) == hidden
    assert E.redact_event(s, drew, None) == hidden
    assert E.view(s, 0)["drawn"] == [5, 12]
    assert E.view(s, 1)["drawn"] is None
    assert "drawn" not in E.view(s, None)
    assert E.view(s, 1)["has_drawn"] is True


def test_C_WIN_match_over_carries_the_final_order() -> None:
    s = E.new_match(MT, 3, {"rounds": 3}, "win")
    events = play_out(s, random.Random(5))
    assert events[-1] == {"type": "match_over", "standings": final_order(s.scores)}
    assert E.view(s, 0)["standings"] == final_order(s.scores)


# --- MT-* --------------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "max_pip"), [(9, 12), (5, 9), (13, 15), (8, 15)])
def test_MT_PLAYERS_seat_counts_per_set(seats: int, max_pip: int) -> None:
    with pytest.raises(OptionError) as info:
        E.new_match(MT, seats, {"max_pip": max_pip}, "x")
    assert info.value.rule == "MT-PLAYERS"


def test_MT_PLAYERS_default_sets() -> None:
    assert E.new_match(MT, 8, {}, "x").options["max_pip"] == 12
    assert E.new_match(MT, 9, {}, "x").options["max_pip"] == 15


def test_MT_ENGINE_engine_in_the_hub_before_the_deal() -> None:
    s = E.new_match(MT, 4, {}, "engine")
    assert all((12, 12) not in h for h in s.hands)
    assert (12, 12) not in s.boneyard
    v = E.view(s, 0)
    assert v["start_double"] == [12, 12]
    trains = v["layout"]["trains"]
    assert [t["open_end"] for t in trains] == [12] * 5
    assert [t["id"] for t in trains] == ["seat:0", "seat:1", "seat:2", "seat:3", "mexican"]
    assert all(t["tiles"] == [] for t in trains)


@pytest.mark.parametrize(
    ("max_pip", "seats", "size"),
    [
        (12, 2, 16),
        (12, 3, 16),
        (12, 4, 15),
        (12, 5, 14),
        (12, 6, 12),
        (12, 7, 10),
        (12, 8, 9),
        (9, 2, 15),
        (9, 3, 13),
        (9, 4, 10),
        (15, 9, 12),
        (18, 12, 12),
    ],
)
def test_MT_DEAL_hand_sizes(max_pip: int, seats: int, size: int) -> None:
    s = E.new_match(MT, seats, {"max_pip": max_pip}, "deal")
    assert [len(h) for h in s.hands] == [size] * seats
    tiles = (max_pip + 1) * (max_pip + 2) // 2
    assert E.view(s, None)["boneyard"] == tiles - 1 - seats * size


def test_MT_FIRST_round_r_starts_at_seat_r_minus_one() -> None:
    s = E.new_match(MT, 3, {"rounds": 5}, "first")
    assert s.turn == 0
    events = play_out(s, random.Random(2))
    assert [e["starter"] for e in events if e["type"] == "round_started"] == [1, 2, 0, 1]


def test_MT_TRAINS_first_tile_carries_the_engine_number() -> None:
    s = pos([[(5, 12), (3, 4), (0, 2)], [(1, 1)], [(2, 2)]], boneyard=[(0, 1)])
    assert legal(s) == [play((5, 12), "seat:0"), play((5, 12), "mexican")]
    refused(s, play((3, 4), "seat:0"), "MT-TRAINS")
    events = act(s, play((12, 5), "seat:0"))
    assert types(events) == ["tile_played", "train_started"]
    assert events[1] == {"type": "train_started", "seat": 0, "target": "seat:0"}
    train = E.view(s, 0)["layout"]["trains"][0]
    assert train["tiles"] == [[12, 5]]
    assert train["open_end"] == 5


def test_MT_TRAINS_anyone_starts_the_mexican_train_and_tiles_match() -> None:
    s = pos([[(0, 1)], [(12, 7), (7, 3), (2, 2)]], boneyard=[(0, 2)], turn=1)
    events = act(s, play((7, 12), "mexican"))
    assert events[1] == {"type": "train_started", "seat": 1, "target": "mexican"}
    assert layout(s)["trains"][2]["tiles"] == [[12, 7]]
    s = pos([[(7, 3), (0, 1)], [(1, 1)]], boneyard=[(0, 2)], trains={"mexican": [[12, 7]]})
    refused(s, play((0, 1), "mexican"), "MT-TRAINS")
    act(s, play((3, 7), "mexican"))
    assert layout(s)["trains"][2]["tiles"] == [[12, 7], [7, 3]]


def test_MT_AVAILABLE_other_trains_only_with_their_marker() -> None:
    hands = [[(6, 7), (0, 1)], [(2, 3)]]
    trains = {"seat:1": [[12, 6]]}
    s = pos(hands, trains=trains, boneyard=[(4, 5)])
    assert legal(s) == [DRAW]
    refused(s, play((6, 7), "seat:1"), "MT-AVAILABLE")
    s = pos(hands, trains=trains, boneyard=[(4, 5)], markers=[1])
    assert legal(s) == [play((6, 7), "seat:1")]
    act(s, play((6, 7), "seat:1"))
    assert layout(s)["markers"] == [1]  # only its owner lifts it


def test_MT_ONE_one_tile_ends_the_turn_and_must_come_from_the_hand() -> None:
    s = pos([[(12, 3), (12, 4)], [(1, 1)]], boneyard=[(0, 2)])
    refused(s, play((1, 2), "seat:0"), "MT-ONE")
    act(s, play((12, 3), "seat:0"))
    assert s.turn == 1
    assert E.legal_moves(s, 0) == []


def test_MT_MUST_no_draw_or_pass_while_a_play_exists() -> None:
    s = pos([[(12, 3), (0, 1)], [(1, 1)]], boneyard=[(0, 2)])
    refused(s, DRAW, "MT-MUST")
    refused(s, PASS, "MT-MUST")


def test_MT_DRAW_draw_then_only_the_drawn_tile() -> None:
    s = pos([[(0, 1)], [(2, 2)]], boneyard=[(12, 3), (4, 4)])
    assert legal(s) == [DRAW]
    refused(s, PASS, "MT-DRAW")
    assert act(s, DRAW) == [{"type": "drew", "seat": 0, "tile": [3, 12], "count": 1, "boneyard": 1}]
    assert legal(s) == [play((3, 12), "seat:0"), play((3, 12), "mexican")]
    refused(s, DRAW, "MT-DRAW")
    refused(s, PASS, "MT-MUST")
    act(s, play((3, 12), "mexican"))
    assert s.turn == 1


def test_MT_DRAW_unplayable_draw_passes_and_puts_the_marker_in_the_same_call() -> None:
    s = pos([[(0, 1)], [(2, 2)]], boneyard=[(3, 4), (5, 6)])
    assert act(s, DRAW) == [
        {"type": "drew", "seat": 0, "tile": [3, 4], "count": 1, "boneyard": 1},
        {"type": "passed", "seat": 0},
        {"type": "marker_put", "seat": 0},
    ]
    assert layout(s)["markers"] == [0]
    assert layout(s)["trains"][0]["marker"] is True
    assert s.turn == 1
    assert s.drawn is None
    assert E.view(s, 0)["has_drawn"] is False
    assert E.legal_moves(s, 0) == []
    assert sorted(s.hands[0]) == [(0, 1), (3, 4)]


def test_MT_DRAW_unplayable_draw_with_the_marker_already_up() -> None:
    s = pos([[(0, 1)], [(2, 2)]], boneyard=[(3, 4), (5, 6)], markers=[0])
    assert types(act(s, DRAW)) == ["drew", "passed"]
    assert layout(s)["markers"] == [0]
    assert s.turn == 1


def test_MT_DRAW_hand_built_unplayable_drawn_tile_still_takes_a_pass() -> None:
    # Play never leaves this (the draw passes by itself); a stored position may hold it.
    s = pos([[(0, 1), (3, 4)], [(2, 2)]], boneyard=[(5, 6)], drawn=[3, 4])
    assert legal(s) == [PASS]
    refused(s, DRAW, "MT-DRAW")
    refused(s, play((3, 4), "seat:0"), "MT-TRAINS")
    assert types(act(s, PASS)) == ["passed", "marker_put"]
    assert s.turn == 1


def test_MT_DRAW_empty_boneyard_pass_and_marker() -> None:
    s = pos([[(0, 1)], [(12, 4), (5, 5)]], boneyard=[])
    assert legal(s) == [PASS]
    refused(s, DRAW, "MT-DRAW")
    assert types(act(s, PASS)) == ["passed", "marker_put"]


def test_MT_DRAW_marker_lifted_only_by_playing_on_own_train() -> None:
    s = pos([[(12, 3), (12, 4), (0, 1)], [(5, 5)]], boneyard=[(0, 2)], markers=[0], turn=0)
    events = act(s, play((12, 3), "mexican"))
    assert "marker_lifted" not in types(events)
    assert layout(s)["markers"] == [0]
    s = pos([[(12, 3), (12, 4), (0, 1)], [(5, 5)]], boneyard=[(0, 2)], markers=[0], turn=0)
    events = act(s, play((12, 3), "seat:0"))
    assert events[-1] == {"type": "marker_lifted", "seat": 0}
    assert layout(s)["markers"] == []


def test_MT_KNOCK_one_tile_left_is_announced() -> None:
    s = pos([[(12, 3), (5, 6), (0, 1)], [(12, 4), (2, 2)]], boneyard=[(0, 2)])
    assert "last_tile" not in types(act(s, play((12, 3), "seat:0")))
    events = act(s, play((12, 4), "seat:1"))
    assert events[-1] == {"type": "last_tile", "seat": 1}


def test_MT_DOUBLE_play_again_on_the_double_or_any_available_train() -> None:
    s = pos(
        [[(4, 4), (4, 9), (12, 7), (0, 1)], [(2, 3)]],
        trains={"seat:0": [[12, 4]]},
        boneyard=[(0, 2)],
    )
    events = act(s, play((4, 4), "seat:0"))
    assert types(events) == ["tile_played", "double_opened"]
    assert s.turn == 0
    v = E.view(s, 0)
    assert v["must_play_again"] is True
    assert v["layout"]["trains"][0]["tiles"][-1] == [4, 4]
    assert legal(s) == [play((4, 9), "seat:0"), play((7, 12), "mexican")]
    act(s, play((7, 12), "mexican"))
    assert s.turn == 1
    assert E.view(s, 1)["layout"]["open_doubles"] == ["seat:0"]


def test_MT_DOUBLE_satisfying_the_double_ends_the_turn() -> None:
    s = pos(
        [[(4, 4), (4, 9), (0, 1), (1, 2)], [(2, 3)]],
        trains={"seat:0": [[12, 4]]},
        boneyard=[(0, 2)],
    )
    act(s, play((4, 4), "seat:0"))
    events = act(s, play((4, 9), "seat:0"))
    assert events[-1] == {"type": "double_satisfied", "seat": 0, "target": "seat:0", "tile": [4, 4]}
    assert s.turn == 1
    assert E.view(s, 1)["layout"]["open_doubles"] == []


def test_MT_DOUBLE_after_two_doubles_the_non_double_goes_on_the_first() -> None:
    s = pos(
        [[(4, 4), (6, 6), (4, 9), (1, 6), (0, 2)], [(2, 3)]],
        trains={"seat:0": [[12, 4]], "mexican": [[12, 6]]},
        boneyard=[(0, 3)],
    )
    act(s, play((4, 4), "seat:0"))
    act(s, play((6, 6), "mexican"))
    assert s.turn == 0
    assert E.view(s, 0)["double_run_target"] == "seat:0"
    assert legal(s) == [play((4, 9), "seat:0")]
    refused(s, play((1, 6), "mexican"), "MT-DOUBLE")
    events = act(s, play((4, 9), "seat:0"))
    assert "double_satisfied" in types(events)
    assert s.turn == 1
    assert E.view(s, 1)["layout"]["open_doubles"] == ["mexican"]


def test_MT_DOUBLE_drawn_double_is_played_and_the_player_draws_again() -> None:
    s = pos(
        [[(4, 4), (0, 1)], [(2, 3), (7, 8)]],
        trains={"seat:0": [[12, 4]], "mexican": [[12, 7]]},
        boneyard=[(7, 7), (4, 9), (2, 5)],
    )
    act(s, play((4, 4), "seat:0"))
    assert legal(s) == [DRAW]
    act(s, DRAW)
    assert legal(s) == [play((7, 7), "mexican")]
    act(s, play((7, 7), "mexican"))
    assert legal(s) == [DRAW]
    act(s, DRAW)
    assert legal(s) == [play((4, 9), "seat:0")]
    act(s, play((4, 9), "seat:0"))
    assert s.turn == 1
    assert E.view(s, 1)["layout"]["open_doubles"] == ["mexican"]


def test_MT_DOUBLE_no_play_after_a_double_puts_the_marker() -> None:
    s = pos(
        [[(4, 4), (0, 1)], [(4, 8), (12, 3)]],
        trains={"seat:0": [[12, 4]]},
        boneyard=[(2, 3), (5, 6)],
    )
    act(s, play((4, 4), "seat:0"))
    assert legal(s) == [DRAW]
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]
    assert s.turn == 1
    assert s.streak == 0
    assert E.view(s, 1)["must_satisfy"] == "seat:0"
    assert legal(s) == [play((4, 8), "seat:0")]


def test_MT_DOUBLE_unplayable_draw_after_a_run_of_two_doubles() -> None:
    s = pos(
        [[(4, 4), (6, 6), (0, 1)], [(4, 8), (6, 9)]],
        trains={"seat:0": [[12, 4]], "mexican": [[12, 6]]},
        boneyard=[(6, 2), (5, 7)],
    )
    act(s, play((4, 4), "seat:0"))
    act(s, play((6, 6), "mexican"))
    # 2|6 fits the Mexican double, but after two doubles the non-double goes on the first.
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]
    assert s.turn == 1
    assert E.view(s, 1)["layout"]["open_doubles"] == ["seat:0", "mexican"]
    assert legal(s) == [play((4, 8), "seat:0")]


def test_MT_OPEN_binds_the_next_player_even_on_an_unmarked_train() -> None:
    s = pos(
        [[(0, 1)], [(4, 8), (12, 3), (1, 2)], [(2, 2)]],
        trains={"seat:0": [[12, 4], [4, 4]]},
        open_doubles=["seat:0"],
        boneyard=[(0, 5)],
        turn=1,
    )
    assert E.view(s, 1)["must_satisfy"] == "seat:0"
    assert legal(s) == [play((4, 8), "seat:0")]
    refused(s, play((3, 12), "seat:1"), "MT-OPEN")
    refused(s, play((3, 12), "mexican"), "MT-OPEN")
    refused(s, DRAW, "MT-MUST")
    events = act(s, play((4, 8), "seat:0"))
    assert types(events) == ["tile_played", "double_satisfied"]
    assert s.turn == 2
    assert E.view(s, 2)["must_satisfy"] is None


def test_MT_OPEN_binds_its_own_player_too() -> None:
    s = pos(
        [[(4, 8), (12, 1)], [(2, 2)]],
        trains={"seat:0": [[12, 4], [4, 4]]},
        open_doubles=["seat:0"],
        boneyard=[(0, 5)],
    )
    assert legal(s) == [play((4, 8), "seat:0")]
    refused(s, play((1, 12), "mexican"), "MT-OPEN")


def test_MT_OPEN_cannot_satisfy_draw_then_marker() -> None:
    s = pos(
        [[(0, 1)], [(12, 3)], [(2, 2), (4, 9)]],
        trains={"seat:0": [[12, 4], [4, 4]]},
        open_doubles=["seat:0"],
        boneyard=[(0, 5), (1, 2)],
        turn=1,
    )
    assert legal(s) == [DRAW]
    # 1|2 fits nothing here; 0|5 fits nothing either; neither may go elsewhere anyway.
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]
    assert s.turn == 2
    assert E.view(s, 2)["must_satisfy"] == "seat:0"


def test_MT_OPEN_drawn_tile_playable_elsewhere_but_not_on_the_double_passes() -> None:
    s = pos(
        [[(0, 1)], [(0, 3)], [(2, 2), (4, 9)]],
        trains={"seat:0": [[12, 4], [4, 4]]},
        open_doubles=["seat:0"],
        boneyard=[(12, 5), (1, 2)],
        turn=1,
    )
    assert types(act(s, DRAW)) == ["drew", "passed", "marker_put"]  # 5|12 fits seat:1, not 4|4
    assert s.turn == 2
    assert (5, 12) in s.hands[1]


def test_MT_OPEN_drawn_tile_that_satisfies_is_played() -> None:
    s = pos(
        [[(0, 1)], [(12, 3)], [(2, 2)]],
        trains={"seat:0": [[12, 4], [4, 4]]},
        open_doubles=["seat:0"],
        boneyard=[(4, 5), (1, 2)],
        turn=1,
    )
    act(s, DRAW)
    assert legal(s) == [play((4, 5), "seat:0")]


def test_MT_OPEN_several_doubles_satisfied_in_the_order_played() -> None:
    s = pos(
        [[(1, 4), (2, 6)], [(4, 9), (6, 7)], [(0, 0)]],
        trains={"seat:1": [[12, 4], [4, 4]], "mexican": [[12, 6], [6, 6]]},
        open_doubles=["seat:1", "mexican"],
        boneyard=[(0, 5)],
    )
    assert legal(s) == [play((1, 4), "seat:1")]
    refused(s, play((2, 6), "mexican"), "MT-OPEN")
    act(s, play((1, 4), "seat:1"))
    assert legal(s) == [play((6, 7), "mexican")]


def test_MT_OPEN_DEAD_double_released_when_its_last_tile_goes_elsewhere() -> None:
    s = pos(
        [[(5, 5), (5, 8), (1, 2), (2, 3)], [(0, 3)]],
        trains={"seat:0": [[12, 5]], "mexican": [[12, 8]]},
        boneyard=[(0, 1), (1, 3)],
    )
    act(s, play((5, 5), "seat:0"))
    events = act(s, play((5, 8), "mexican"))
    assert events[-1] == {"type": "double_released", "target": "seat:0", "tile": [5, 5]}
    assert s.turn == 1
    assert E.view(s, 1)["layout"]["open_doubles"] == []
    assert E.view(s, 1)["must_satisfy"] is None


def test_MT_OPEN_DEAD_a_dead_double_is_released_at_once_but_the_player_plays_again() -> None:
    s = pos(
        [[(5, 5), (12, 1), (0, 2)], [(0, 3)]],
        trains={"seat:0": [[12, 5]]},
        boneyard=[(0, 1), (1, 3)],
    )
    events = act(s, play((5, 5), "seat:0"))
    assert types(events) == ["tile_played", "double_opened", "double_released"]
    assert s.turn == 0
    assert legal(s) == [play((1, 12), "mexican")]


def test_MT_OPEN_DEAD_run_of_doubles_binds_to_its_first_live_double() -> None:
    s = pos(
        [[(5, 5), (6, 6), (1, 6), (0, 2)], [(0, 3)]],
        trains={"seat:0": [[12, 5]], "mexican": [[12, 6]]},
        boneyard=[(0, 1), (1, 3)],
    )
    act(s, play((5, 5), "seat:0"))  # dead on arrival: no other 5 in the game
    act(s, play((6, 6), "mexican"))
    assert legal(s) == [play((1, 6), "mexican")]


def test_MT_OPEN_DEAD_loaded_dead_double_binds_nobody() -> None:
    s = pos(
        [[(12, 1), (0, 2)], [(0, 3)]],
        trains={"seat:1": [[12, 5], [5, 5]]},
        open_doubles=["seat:1"],
        boneyard=[(0, 1)],
    )
    assert legal(s) == [play((1, 12), "seat:0"), play((1, 12), "mexican")]


def test_MT_END_round_ends_when_the_last_tile_is_played() -> None:
    s = pos([[(12, 3)], [(2, 5)]], boneyard=[(0, 1)], options={"rounds": 1})
    events = act(s, play((12, 3), "seat:0"))
    assert types(events) == [
        "tile_played",
        "train_started",
        "round_ended",
        "round_scores",
        "match_over",
    ]
    ended = events[2]
    assert (ended["reason"], ended["seat"], ended["round"]) == ("out", 0, 1)
    assert ended["hands"] == [[], [[2, 5]]]
    assert s.status == "over"
    assert E.legal_moves(s, 1) == []
    with pytest.raises(RoundOver):
        E.apply_move(s, 1, PASS)


def test_MT_END_a_last_double_needs_no_satisfying() -> None:
    s = pos([[(5, 5)], [(2, 6)]], trains={"seat:0": [[12, 5]]}, boneyard=[(0, 1)])
    events = act(s, play((5, 5), "seat:0"))
    ended = next(e for e in events if e["type"] == "round_ended")
    assert (ended["reason"], ended["seat"]) == ("out", 0)
    assert s.round_no == 2
    assert s.scores == [[0, 8]]


def test_MT_END_blocked_detected_at_once_after_the_last_draw() -> None:
    s = pos([[(0, 1)], [(2, 3)]], boneyard=[(4, 5)])
    events = act(s, DRAW)
    assert types(events)[:5] == ["drew", "passed", "marker_put", "round_ended", "round_scores"]
    assert (events[3]["reason"], events[3]["seat"]) == ("blocked", None)
    assert s.scores == [[10, 5]]


def test_MT_END_last_draw_that_fits_leaves_the_round_running() -> None:
    s = pos([[(0, 1)], [(2, 3)]], boneyard=[(4, 12)])
    assert types(act(s, DRAW)) == ["drew"]
    assert s.turn == 0
    assert legal(s) == [play((4, 12), "seat:0"), play((4, 12), "mexican")]


def test_MT_END_blocked_detected_at_once_after_a_play() -> None:
    s = pos([[(12, 3), (0, 1)], [(4, 5)]], boneyard=[])
    events = act(s, play((12, 3), "seat:0"))
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["reason"] == "blocked"


def test_MT_END_a_circle_of_passes_can_unblock() -> None:
    s = pos([[(0, 1)], [(6, 2)]], trains={"seat:0": [[12, 6]]}, boneyard=[], turn=1)
    assert legal(s) == [PASS]
    act(s, PASS)
    assert legal(s) == [PASS]
    act(s, PASS)
    assert s.status == "playing"
    assert s.round_no == 1
    assert legal(s) == [play((2, 6), "seat:0")]


def test_MT_SCORE_zero_for_going_out_pips_for_the_rest() -> None:
    s = pos([[(12, 3)], [(0, 0), (2, 5)], [(6, 6)]], boneyard=[(0, 1)], options={"rounds": 1})
    events = act(s, play((12, 3), "seat:0"))
    scores = next(e for e in events if e["type"] == "round_scores")
    assert scores == {
        "type": "round_scores",
        "round": 1,
        "scores": [0, 57, 12],
        "totals": [0, 57, 12],
    }


def test_MT_SCORE_blocked_round_scores_every_hand() -> None:
    s = pos([[(12, 3), (0, 0)], [(4, 5)]], boneyard=[])
    act(s, play((12, 3), "seat:0"))
    assert s.scores == [[50, 9]]


def test_view_shows_trains_markers_doubles_and_the_turn_state() -> None:
    s = pos(
        [[(4, 4), (4, 9), (0, 3), (1, 1)], [(2, 3), (4, 7)]],
        trains={"seat:0": [[12, 4]], "seat:1": [[12, 6]]},
        markers=[1],
        boneyard=[(0, 2), (5, 6)],
    )
    act(s, play((4, 4), "seat:0"))
    v = E.view(s, 0)
    assert v["hand"] == [[0, 3], [1, 1], [4, 9]]
    assert v["hand_counts"] == [3, 2]
    assert v["boneyard"] == 2
    assert (v["turn"], v["round"], v["starter"], v["status"]) == (0, 1, 0, "playing")
    assert v["layout"]["engine"] == [12, 12]
    assert v["layout"]["trains"][0] == {
        "id": "seat:0",
        "owner": 0,
        "tiles": [[12, 4], [4, 4]],
        "open_end": 4,
        "marker": False,
        "open_double": True,
    }
    assert v["layout"]["trains"][1]["marker"] is True
    assert v["layout"]["trains"][2] == {
        "id": "mexican",
        "owner": None,
        "tiles": [],
        "open_end": 12,
        "marker": None,
        "open_double": False,
    }
    assert v["layout"]["markers"] == [1]
    assert v["layout"]["open_doubles"] == ["seat:0"]
    assert (v["must_play_again"], v["doubles_this_turn"], v["must_satisfy"]) == (True, 1, None)
    assert v["legal_moves"] == [play((4, 9), "seat:0")]
    assert E.view(s, 1)["legal_moves"] == []
    assert (v["scores"], v["totals"]) == ([], [0, 0])
    assert v["commitment"] == v["commitments"][0]


def test_MT_ENGINE_opening_events_kept_for_round_one_and_each_later_round() -> None:
    s = E.new_match(MT, 3, {"rounds": 3}, "opening")
    first = mexican_train.opening_events(s)
    assert types(first) == ["round_started", "engine_placed"]
    assert first[0] == {
        "type": "round_started",
        "round": 1,
        "start_double": [12, 12],
        "commitment": s.commitments[0],
        "starter": 0,
        "turn": 0,
    }
    assert first[1] == {"type": "engine_placed", "tile": [12, 12]}
    assert E.to_json(s)["opening"] == first
    assert mexican_train.opening_events(E.from_json(E.to_json(s))) == first
    rng = random.Random(7)
    while s.round_no == 1:
        _, events = E.apply_move(s, s.turn, rng.choice(E.legal_moves(s, s.turn)))
    i = types(events).index("round_started")
    assert events[i : i + 2] == mexican_train.opening_events(s)
    assert s.opening[0]["round"] == 2
    assert s.opening[0]["starter"] == 1
    assert s.opening[1]["tile"] == [11, 11]
    copy = mexican_train.opening_events(s)
    copy.clear()
    assert len(s.opening) == 2


def test_MT_ENGINE_hand_built_position_has_no_opening() -> None:
    s = pos([[(0, 1)], [(2, 3)]], boneyard=[(4, 5)])
    assert s.opening == []
    assert E.to_json(s)["opening"] == []


def test_facade_opening_events_for_both_games() -> None:
    s = E.new_match(MT, 2, {}, "facade")
    assert E.opening_events(s) == s.opening
    assert E.opening_events(s) is not s.opening
    cf = E.new_match("chickenfoot", 2, {}, "facade")
    assert E.opening_events(cf) == cf.opening
    assert E.opening_events(cf)[0]["type"] == "round_started"
