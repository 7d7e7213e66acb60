"""Chicken Foot: one test (or more) per CF-* rule id of docs/rules.md §2.

Positions are built with ``from_json`` (see docs/engine.md): tiles mentioned nowhere are out of
the game; chains list their tiles oriented ``[touching, outer]`` from the centre or the foot.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import engine as E
from games.engine.errors import MalformedMove, OptionError, RuleViolation
from games.engine.moves import Move
from games.engine.options import resolve_options
from tests.engine.cf_positions import ARMS, CF, DRAW, PASS, moves, play, pos, refused, types

# --------------------------------------------------------------------------- CF-PLAYERS


@pytest.mark.parametrize(
    ("seats", "top"), [(2, 9), (6, 9), (7, 12), (10, 12), (11, 15), (15, 15), (16, 18), (22, 18)]
)
def test_CF_PLAYERS_default_set_by_player_count(seats: int, top: int) -> None:
    assert resolve_options(CF, seats)["max_pip"] == top
    s = E.new_match(CF, seats, {}, "seed")
    assert s.start_double == top


@pytest.mark.parametrize(("seats", "options"), [(0, {}), (1, {}), (178, {}), (16, {"max_pip": 6})])
def test_CF_PLAYERS_refuses_too_few_or_more_than_the_set_can_deal(
    seats: int, options: dict[str, Any]
) -> None:
    with pytest.raises(OptionError) as info:
        E.new_match(CF, seats, options, "seed")
    assert info.value.rule == "CF-PLAYERS"


@pytest.mark.parametrize(("seats", "size"), [(23, 7), (88, 2), (177, 1)])
def test_CF_PLAYERS_two_or_more_beyond_the_table_on_the_largest_set(seats: int, size: int) -> None:
    options = resolve_options(CF, seats)
    assert (options["max_pip"], options["hand_size"]) == (18, size)
    s = E.new_match(CF, seats, {}, "seed")
    assert sum(len(h) for h in s.hands) + len(s.boneyard) + 1 == 190


# --------------------------------------------------------------------------- CF-DEAL


@pytest.mark.parametrize(("seats", "size"), [(2, 21), (3, 14), (4, 11), (5, 8), (6, 7)])
def test_CF_DEAL_double_nine_table(seats: int, size: int) -> None:
    assert resolve_options(CF, seats)["hand_size"] == size
    s = E.new_match(CF, seats, {}, "deal")
    opening = s.opening
    drawn = [0] * seats
    for e in opening:
        if e["type"] == "drew":
            drawn[e["seat"]] += 1
    for seat in range(seats):
        placed = 1 if seat == s.starter else 0
        assert len(s.hands[seat]) == size + drawn[seat] - placed


@pytest.mark.parametrize(
    ("top", "seats", "size"), [(12, 8, 9), (12, 7, 11), (15, 11, 11), (18, 22, 8)]
)
def test_CF_DEAL_other_sets_keep_a_yard_of_about_13(top: int, seats: int, size: int) -> None:
    tiles = (top + 1) * (top + 2) // 2
    assert size == (tiles - 13) // seats
    assert resolve_options(CF, seats, {"max_pip": top})["hand_size"] == size


def test_CF_DEAL_hand_size_must_leave_a_boneyard() -> None:
    assert resolve_options(CF, 2, {"hand_size": 27})["hand_size"] == 27
    with pytest.raises(OptionError) as info:
        resolve_options(CF, 2, {"hand_size": 28})  # 56 > 55 tiles
    assert info.value.rule == "CF-DEAL"
    with pytest.raises(OptionError):
        resolve_options(CF, 5, {"hand_size": 11})  # exactly 55: no boneyard


# --------------------------------------------------------------------------- CF-START


def _seed_where(predicate: Any, seats: int = 4, options: dict[str, Any] | None = None) -> Any:
    for i in range(2000):
        s = E.new_match(CF, seats, options or {}, f"start-{i}")
        if predicate(s):
            return s
    raise AssertionError("no seed found")  # pragma: no cover


def test_CF_START_holder_places_the_start_double_and_the_next_seat_plays() -> None:
    s = _seed_where(lambda s: not any(e["type"] == "drew" for e in s.opening))
    assert types(s.opening) == ["round_started", "start_double_placed"]
    starter = s.opening[1]["seat"]
    assert s.opening[0]["starter"] == starter == s.starter
    assert s.opening[1]["tile"] == [9, 9]
    assert s.turn == (starter + 1) % 4
    assert len(s.hands[starter]) == 10
    assert (9, 9) not in [t for h in s.hands for t in h]
    assert all(chain == [] for chain in s.chains.values())


def test_CF_START_nobody_holds_it_so_seats_draw_in_turn_from_seat_0() -> None:
    s = _seed_where(lambda s: s.opening[1]["type"] == "drew")
    draws = [e for e in s.opening if e["type"] == "drew"]
    assert [e["seat"] for e in draws] == [i % 4 for i in range(len(draws))]
    assert draws[-1]["tile"] == [9, 9]
    assert all(e["tile"] != [9, 9] for e in draws[:-1])
    placed = {"type": "start_double_placed", "seat": draws[-1]["seat"], "tile": [9, 9]}
    assert s.opening[-1] == placed
    assert s.turn == (draws[-1]["seat"] + 1) % 4
    # The drawn tiles stay in the drawers' hands.
    for e in draws[:-1]:
        assert tuple(e["tile"]) in s.hands[e["seat"]]


def test_CF_START_later_rounds_draw_from_the_seat_after_the_previous_starter() -> None:
    checked = 0
    for i in range(60):
        s = E.new_match(CF, 3, {"rounds": 4}, f"later-{i}")
        starter = s.starter
        while s.status == "playing":
            ms = E.legal_moves(s, s.turn)
            _, events = E.apply_move(s, s.turn, ms[0])
            if any(e["type"] == "round_started" for e in events):
                draws = [e for e in events if e["type"] == "drew"]
                if draws:
                    assert draws[0]["seat"] == (starter + 1) % 3
                    checked += 1
                starter = s.starter
    assert checked >= 3


def test_CF_START_round_started_event_carries_round_double_and_commitment() -> None:
    s = E.new_match(CF, 4, {}, "opening")
    first = s.opening[0]
    assert first["type"] == "round_started"
    assert first["round"] == 1
    assert first["start_double"] == [9, 9]
    assert first["commitment"] == s.commitments[0]
    assert first["turn"] == s.turn


# --------------------------------------------------------------------------- CF-SPINNER


def test_CF_SPINNER_no_second_tile_before_every_arm_has_its_first() -> None:
    s = pos(
        [[[9, 5], [2, 9], [1, 5]], [[3, 4]]],
        chains={"arm:0": [[9, 1]]},
        boneyard=[[0, 0]],
    )
    assert moves(s) == [
        play([5, 9], "arm:1"), play([5, 9], "arm:2"), play([5, 9], "arm:3"),
        play([2, 9], "arm:1"), play([2, 9], "arm:2"), play([2, 9], "arm:3"),
    ]  # fmt: skip
    refused(s, 0, play([1, 5], "arm:0"), "CF-SPINNER")


def test_CF_SPINNER_first_tile_on_an_arm_carries_the_centre_number() -> None:
    s = pos([[[9, 1], [1, 5]], [[3, 4]]], boneyard=[[0, 0]])
    refused(s, 0, play([1, 5], "arm:2"), "CF-SPINNER")
    _, events = E.apply_move(s, 0, play([1, 9], "arm:2"))
    assert events == [{"type": "tile_played", "seat": 0, "tile": [1, 9], "target": "arm:2"}]
    assert s.chains["arm:2"] == [(9, 1)]  # oriented: the 9 touches the centre


def test_CF_SPINNER_arms_open_up_once_all_have_their_first_tile() -> None:
    s = pos(
        [[[9, 4], [1, 5]], [[2, 6], [0, 8]]],
        chains={"arm:0": [[9, 1]], "arm:1": [[9, 2]], "arm:2": [[9, 3]]},
        boneyard=[[0, 0]],
    )
    assert moves(s) == [play([4, 9], "arm:3")]
    E.apply_move(s, 0, play([4, 9], "arm:3"))
    assert moves(s) == [play([2, 6], "arm:1")]


def test_CF_SPINNER_six_arms_option() -> None:
    s = E.new_match(CF, 4, {"spinner_arms": 6}, "six")
    assert sorted(s.chains) == [f"arm:{i}" for i in range(6)]
    view = E.view(s, s.turn)
    assert [a["id"] for a in view["layout"]["arms"]] == [f"arm:{i}" for i in range(6)]
    assert {m.target for m in E.legal_moves(s, s.turn) if m.kind == "play"} <= {
        f"arm:{i}" for i in range(6)
    }


# --------------------------------------------------------------------------- CF-MATCH


def test_CF_MATCH_touching_ends_must_be_equal() -> None:
    s = pos([[[1, 5], [6, 7]], [[3, 8]]], chains=ARMS, boneyard=[[0, 0]])
    refused(s, 0, play([6, 7], "arm:0"), "CF-MATCH")
    _, events = E.apply_move(s, 0, play([5, 1], "arm:0"))
    assert events[0] == {"type": "tile_played", "seat": 0, "tile": [1, 5], "target": "arm:0"}
    assert s.chains["arm:0"] == [(9, 1), (1, 5)]
    assert s.ends["arm:0"] == 5


def test_CF_MATCH_only_chains_on_the_table_are_targets() -> None:
    s = pos([[[1, 5]], [[3, 8]]], chains=ARMS, boneyard=[[0, 0]])
    before = E.to_json(s)
    # an arm this spinner lacks, a foot nobody opened, and no id at all are not targets
    for target in ("arm:4", "foot:0:toe:0", "the left one"):
        with pytest.raises(MalformedMove) as refusal:
            E.apply_move(s, 0, play([1, 5], target))
        assert refusal.value.field == "target"
        assert refusal.value.status == 400
    assert E.to_json(s) == before


def test_CF_MATCH_a_tile_matching_two_ends_has_a_move_for_each() -> None:
    s = pos([[[1, 2]], [[3, 8]]], chains=ARMS, boneyard=[[0, 0]])
    assert moves(s) == [play([1, 2], "arm:0"), play([1, 2], "arm:1")]


# --------------------------------------------------------------------------- CF-ONE


def test_CF_ONE_a_play_is_one_tile_from_your_own_hand_then_the_turn_passes() -> None:
    s = pos([[[1, 5], [2, 7]], [[3, 8], [4, 6]]], chains=ARMS, boneyard=[[0, 0]])
    refused(s, 0, play([3, 8], "arm:2"), "CF-ONE")
    E.apply_move(s, 0, play([1, 5], "arm:0"))
    assert s.turn == 1
    with pytest.raises(RuleViolation) as info:
        E.apply_move(s, 0, play([2, 7], "arm:1"))
    assert info.value.rule == "C-SEATS"


def test_CF_ONE_one_draw_per_turn() -> None:
    s = pos([[[5, 6]], [[3, 8]]], chains=ARMS, boneyard=[[1, 7], [0, 0]])
    E.apply_move(s, 0, DRAW)  # 1|7 is playable on arm:0
    assert s.turn == 0
    refused(s, 0, DRAW, "CF-ONE")


# --------------------------------------------------------------------------- CF-MUST


def test_CF_MUST_no_draw_or_pass_while_a_play_exists() -> None:
    s = pos([[[1, 5], [6, 7]], [[3, 8]]], chains=ARMS, boneyard=[[0, 0]])
    assert [m["kind"] for m in moves(s)] == ["play"]
    refused(s, 0, DRAW, "CF-MUST")
    refused(s, 0, PASS, "CF-MUST")


def test_CF_MUST_with_an_empty_boneyard_too() -> None:
    s = pos([[[1, 5]], [[3, 8]]], chains=ARMS)
    refused(s, 0, PASS, "CF-MUST")


# --------------------------------------------------------------------------- CF-DRAW


def test_CF_DRAW_without_a_play_the_only_move_is_draw() -> None:
    s = pos([[[5, 6]], [[3, 8]]], chains=ARMS, boneyard=[[1, 7], [0, 0]])
    assert moves(s) == [DRAW]
    refused(s, 0, PASS, "CF-DRAW")


def test_CF_DRAW_a_playable_drawn_tile_may_be_played_or_declined() -> None:
    s = pos([[[5, 6], [0, 5]], [[3, 8]]], chains=ARMS, boneyard=[[1, 7], [0, 0]])
    _, events = E.apply_move(s, 0, DRAW)
    assert events == [{"type": "drew", "seat": 0, "tile": [1, 7], "count": 1, "boneyard": 1}]
    assert s.turn == 0
    assert moves(s) == [play([1, 7], "arm:0"), PASS]
    assert E.view(s, 0)["drawn"] == [1, 7]
    assert E.view(s, 1)["drawn"] is None
    _, events = E.apply_move(s, 0, PASS)
    assert events == [{"type": "passed", "seat": 0}]
    assert s.turn == 1
    assert (1, 7) in s.hands[0]


def test_CF_DRAW_only_the_drawn_tile_may_be_played() -> None:
    # 5|6 matches no open end (1, 2, 3, 4); the drawn 1|7 does, and only it may be played.
    s = pos([[[5, 6]], [[3, 8]]], chains=ARMS, boneyard=[[1, 7], [0, 0]])
    E.apply_move(s, 0, DRAW)
    refused(s, 0, play([5, 6], "arm:0"), "CF-DRAW")
    _, events = E.apply_move(s, 0, play([7, 1], "arm:0"))
    assert types(events) == ["tile_played"]
    assert s.turn == 1


def test_CF_DRAW_an_unplayable_drawn_tile_passes_the_turn() -> None:
    s = pos([[[5, 6]], [[3, 8]]], chains=ARMS, boneyard=[[6, 7], [0, 0]])
    _, events = E.apply_move(s, 0, DRAW)
    assert events == [
        {"type": "drew", "seat": 0, "tile": [6, 7], "count": 1, "boneyard": 1},
        {"type": "passed", "seat": 0},
    ]
    assert s.turn == 1
    assert s.hands[0] == [(5, 6), (6, 7)]


def test_CF_DRAW_empty_boneyard_without_a_play_passes() -> None:
    s = pos([[[5, 6]], [[3, 8]], [[1, 2]]], chains=ARMS)
    assert moves(s) == [PASS]
    refused(s, 0, DRAW, "CF-DRAW")
    _, events = E.apply_move(s, 0, PASS)
    assert events == [{"type": "passed", "seat": 0}]
    assert s.turn == 1


# --------------------------------------------------------------------------- CF-FOOT


def test_CF_FOOT_a_double_opens_a_foot() -> None:
    s = pos([[[1, 1], [2, 7]], [[1, 5], [1, 6], [3, 8]]], chains=ARMS, boneyard=[[0, 0]])
    _, events = E.apply_move(s, 0, play([1, 1], "arm:0"))
    assert events == [
        {"type": "tile_played", "seat": 0, "tile": [1, 1], "target": "arm:0"},
        {"type": "foot_opened", "foot": "foot:0", "seat": 0, "target": "arm:0", "tile": [1, 1],
         "toes": ["foot:0:toe:0", "foot:0:toe:1", "foot:0:toe:2"]},
    ]  # fmt: skip
    assert s.chains["arm:0"] == [(9, 1), (1, 1)]
    assert "arm:0" not in s.ends
    view = E.view(s, 1)
    assert view["open_foot"] == {
        "id": "foot:0", "double": [1, 1], "on": "arm:0",
        "toes_left": ["foot:0:toe:0", "foot:0:toe:1", "foot:0:toe:2"],
    }  # fmt: skip


def test_CF_FOOT_next_three_must_be_toes() -> None:
    s = pos(
        [[[1, 2], [4, 1]], [[1, 5], [1, 6], [3, 8]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[0, 0]],
        turn=1,
    )
    toes = ["foot:0:toe:0", "foot:0:toe:1", "foot:0:toe:2"]
    assert moves(s) == [play([1, 5], t) for t in toes] + [play([1, 6], t) for t in toes]
    refused(s, 1, play([3, 8], "arm:2"), "CF-FOOT")
    E.apply_move(s, 1, play([1, 5], "foot:0:toe:1"))
    # Seat 0 may not play 2|1 on arm:1 (it matches 2) nor on the filled toe.
    assert moves(s) == [play([1, 2], "foot:0:toe:0"), play([1, 2], "foot:0:toe:2"),
                        play([1, 4], "foot:0:toe:0"), play([1, 4], "foot:0:toe:2")]  # fmt: skip
    refused(s, 0, play([1, 2], "arm:1"), "CF-FOOT")
    refused(s, 0, play([4, 1], "arm:3"), "CF-FOOT")


def test_CF_FOOT_toes_carry_the_double_number_against_it() -> None:
    s = pos(
        [[[5, 2], [1, 2]], [[3, 8]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[0, 0], [1, 6], [1, 7]],
    )
    refused(s, 0, play([2, 5], "foot:0:toe:0"), "CF-FOOT")
    E.apply_move(s, 0, play([2, 1], "foot:0:toe:0"))
    assert s.chains["foot:0:toe:0"] == [(1, 2)]


def test_CF_FOOT_the_double_closes_its_chain() -> None:
    s = pos(
        [[[1, 5]], [[3, 8]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[0, 0], [1, 6], [1, 7]],
    )
    refused(s, 0, play([1, 5], "arm:0"), "CF-FOOT")


def test_CF_FOOT_completed_then_toes_are_open_ends_like_any_other() -> None:
    s = pos(
        [[[1, 7], [5, 6]], [[2, 2], [3, 8]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]], "foot:0:toe:0": [[1, 5]],
                "foot:0:toe:1": [[1, 6]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[0, 0], [2, 5]],
    )  # fmt: skip
    _, events = E.apply_move(s, 0, play([1, 7], "foot:0:toe:2"))
    assert events[1] == {"type": "foot_completed", "foot": "foot:0", "seat": 0}
    assert s.feet[0]["status"] == "completed"
    assert E.view(s, 1)["open_foot"] is None
    assert moves(s, 1) == [play([2, 2], "arm:1"), play([3, 8], "arm:2")]
    # A second foot: seat 0 could play 5|6 on toe 0, but the new foot binds it first.
    E.apply_move(s, 1, play([2, 2], "arm:1"))
    assert s.foot == 1
    assert s.turn == 0
    assert E.legal_moves(s, 0) == [Move("draw")]
    refused(s, 0, play([5, 6], "foot:0:toe:0"), "CF-FOOT")


def test_CF_FOOT_a_foot_on_a_toe() -> None:
    s = pos(
        [[[5, 5], [2, 8]], [[3, 8], [5, 0]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]], "foot:0:toe:0": [[1, 5]],
                "foot:0:toe:1": [[1, 6]], "foot:0:toe:2": [[1, 7]]},
        feet=[{"double": 1, "on": "arm:0", "status": "completed"}],
        boneyard=[[5, 4]],
    )  # fmt: skip
    _, events = E.apply_move(s, 0, play([5, 5], "foot:0:toe:0"))
    assert events[1]["foot"] == "foot:1"
    assert events[1]["target"] == "foot:0:toe:0"
    assert moves(s) == [play([0, 5], f"foot:1:toe:{j}") for j in range(3)]
    view = E.view(s, None)
    assert view["layout"]["feet"][1]["on"] == "foot:0:toe:0"


# --------------------------------------------------------------------------- CF-FOOT-DEAD


def test_CF_FOOT_DEAD_foot_released_when_no_tile_of_its_number_is_left() -> None:
    # Only 1|5 still carries a 1: after it, the foot can never be completed.
    s = pos(
        [[[1, 5], [6, 6]], [[3, 8], [2, 7]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[0, 0]],
    )
    _, events = E.apply_move(s, 0, play([1, 5], "foot:0:toe:0"))
    assert types(events) == ["tile_played", "foot_released"]
    assert events[1] == {"type": "foot_released", "foot": "foot:0"}
    assert s.feet[0]["status"] == "released"
    assert moves(s, 1) == [play([2, 7], "arm:1"), play([3, 8], "arm:2")]


def test_CF_FOOT_DEAD_released_at_once_when_the_double_is_the_last_of_its_number() -> None:
    s = pos([[[1, 1], [6, 6]], [[3, 8], [2, 7]]], chains=ARMS, boneyard=[[0, 0]])
    _, events = E.apply_move(s, 0, play([1, 1], "arm:0"))
    assert types(events) == ["tile_played", "foot_opened", "foot_released"]
    assert moves(s, 1) == [play([2, 7], "arm:1"), play([3, 8], "arm:2")]


def test_CF_FOOT_DEAD_literal_rule_ends_the_round_blocked() -> None:
    s = pos(
        [[[1, 5], [6, 6]], [[3, 8], [2, 7]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[0, 0]],
        options={"release_dead_foot": False, "rounds": 1},
    )
    _, events = E.apply_move(s, 0, play([1, 5], "foot:0:toe:0"))
    assert types(events) == ["tile_played", "round_ended", "round_scores", "match_over"]
    assert events[1]["reason"] == "blocked"
    assert events[1]["seat"] is None
    assert events[2]["scores"] == [12, 20]


def test_CF_FOOT_DEAD_a_live_foot_still_binds() -> None:
    s = pos(
        [[[1, 5], [2, 7]], [[3, 8]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[1, 6], [0, 0]],
    )
    _, events = E.apply_move(s, 0, play([1, 5], "foot:0:toe:0"))
    assert types(events) == ["tile_played"]  # 1|6 in the boneyard can still come
    assert moves(s, 1) == [DRAW]


# --------------------------------------------------------------------------- CF-END


def test_CF_END_playing_the_last_tile_ends_the_round_at_once() -> None:
    s = pos([[[1, 5]], [[3, 8], [0, 0]]], chains=ARMS, boneyard=[[2, 6]], options={"rounds": 2})
    _, events = E.apply_move(s, 0, play([1, 5], "arm:0"))
    assert types(events)[:3] == ["tile_played", "round_ended", "round_scores"]
    ended = events[1]
    assert ended["reason"] == "out"
    assert ended["seat"] == 0
    assert ended["hands"] == [[], [[0, 0], [3, 8]]]
    assert ended["seed"] == s.revealed_seeds[0]
    assert events[2] == {"type": "round_scores", "round": 1, "scores": [0, 61], "totals": [0, 61]}
    assert events[3]["type"] == "round_started"
    assert events[3]["round"] == 2
    assert events[3]["start_double"] == [8, 8]
    assert s.round_no == 2


def test_CF_END_blocked_is_detected_without_playing_out_passes() -> None:
    # Empty boneyard; after seat 0 plays 1|5 nobody holds a 2, 3, 4 or 5.
    s = pos([[[1, 5], [6, 6]], [[7, 8]], [[0, 7]]], chains=ARMS, options={"rounds": 1})
    _, events = E.apply_move(s, 0, play([1, 5], "arm:0"))
    assert types(events) == ["tile_played", "round_ended", "round_scores", "match_over"]
    assert events[1]["reason"] == "blocked"
    assert events[2]["scores"] == [12, 15, 7]
    assert s.status == "over"
    assert s.turn is None
    assert E.legal_moves(s, 0) == []


def test_CF_END_not_blocked_while_some_seat_can_play() -> None:
    s = pos([[[6, 7]], [[1, 8], [0, 7]], [[0, 6]]], chains=ARMS)
    _, events = E.apply_move(s, 0, PASS)
    assert types(events) == ["passed"]
    assert s.turn == 1


def test_CF_END_a_declined_drawn_tile_keeps_the_round_going() -> None:
    # Seat 0 draws the last tile (playable 1|6) and declines it: seat 1 cannot play, but seat 0
    # can on its next turn, so the round goes on.
    s = pos([[[6, 7]], [[0, 7]]], chains=ARMS, boneyard=[[1, 6]], options={"rounds": 1})
    E.apply_move(s, 0, DRAW)
    _, events = E.apply_move(s, 0, PASS)
    assert types(events) == ["passed"]
    assert moves(s, 1) == [PASS]


# --------------------------------------------------------------------------- CF-SCORE


def test_CF_SCORE_pips_left_in_every_hand_double_blank_50() -> None:
    s = pos(
        [[[1, 5]], [[0, 0], [3, 8]], [[0, 6], [7, 7]]], chains=ARMS, boneyard=[[2, 6]],
        options={"rounds": 1},
    )  # fmt: skip
    _, events = E.apply_move(s, 0, play([1, 5], "arm:0"))
    assert events[2]["scores"] == [0, 61, 20]
    assert s.scores == [[0, 61, 20]]
    assert events[3] == {"type": "match_over", "standings": E.standings(s)}
