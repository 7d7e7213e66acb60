"""Chicken Foot edge cases: the corners of docs/rules.md §2 where rules meet (spinner with six arms,
feet on toes, dead feet, the boneyard emptying, the start double found by drawing, declined
draws, going out on a toe, the double-blank, short matches, views)."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

from games import engine as E
from games.engine.scoring import final_order
from games.engine.tiles import hand_points
from tests.engine.cf_positions import ARMS, CF, DRAW, PASS, moves, play, refused, types
from tests.engine.cf_positions import pos as _pos

#: The edge cases' positions carry their own match seed.
pos = partial(_pos, seed="edge-seed")


# --------------------------------------------------------------------------- CF-SPINNER


def test_CF_SPINNER_six_arms_one_tile_each_before_any_second() -> None:
    hands = [[[9, 0], [9, 2], [9, 4], [0, 5]], [[9, 1], [9, 3], [9, 5], [1, 6]]]
    s = pos(hands, options={"spinner_arms": 6}, boneyard=[[7, 8]])
    for i in range(6):
        seat = s.turn
        targets = {m["target"] for m in moves(s)}
        assert targets == {f"arm:{j}" for j in range(i, 6)}
        if i:
            refused(s, seat, play([9, 5 if seat else 4], f"arm:{i - 1}"), "CF-SPINNER")
            refused(s, seat, play([0, 5] if seat == 0 else [1, 6], f"arm:{i - 1}"), "CF-SPINNER")
        tile = s.hands[seat][0]
        E.apply_move(s, seat, play(list(tile), f"arm:{i}"))
    assert not s.arms_left
    # Every arm's end is open now: 0|5 goes on arm:0 (its 0) or arm:5 (its 5).
    assert {m["target"] for m in moves(s)} == {"arm:0", "arm:5"}
    assert E.view(s, 0)["spinner_complete"] is True


def test_CF_SPINNER_six_arms_json_round_trip_mid_phase() -> None:
    s = pos([[[9, 0], [9, 2], [0, 5]], [[9, 1], [9, 3], [1, 6]]],
            options={"spinner_arms": 6}, boneyard=[[7, 8]])  # fmt: skip
    E.apply_move(s, 0, play([9, 0], "arm:0"))
    E.apply_move(s, 1, play([9, 1], "arm:1"))
    data = E.to_json(s)
    again = E.from_json(data)
    assert E.to_json(again) == data
    assert E.legal_moves(again, 0) == E.legal_moves(s, 0)
    assert {m.target for m in E.legal_moves(again, 0)} == {"arm:2", "arm:3", "arm:4", "arm:5"}


# --------------------------------------------------------------------------- CF-FOOT


def test_CF_FOOT_a_double_on_a_completed_toe_opens_a_new_foot_that_binds() -> None:
    chains = {
        **ARMS,
        "arm:0": [[9, 1], [1, 1]],
        "foot:0:toe:0": [[1, 5]],
        "foot:0:toe:1": [[1, 6]],
        "foot:0:toe:2": [[1, 7]],
    }
    s = pos(
        [[[5, 5], [2, 8]], [[5, 8], [5, 0], [4, 6]]],
        chains=chains,
        feet=[{"double": 1, "on": "arm:0", "status": "completed"}],
        boneyard=[[3, 3]],
    )
    _, events = E.apply_move(s, 0, play([5, 5], "foot:0:toe:0"))
    assert types(events) == ["tile_played", "foot_opened"]
    assert events[1]["toes"] == ["foot:1:toe:0", "foot:1:toe:1", "foot:1:toe:2"]
    # Seat 1's 4|6 would fit arm:3 (4), but the new foot binds; 5|8 and 5|0 go on its toes.
    assert {(tuple(m["tile"]), m["target"]) for m in moves(s)} == {
        (t, f"foot:1:toe:{j}") for t in ((5, 8), (0, 5)) for j in range(3)
    }
    refused(s, 1, play([4, 6], "arm:3"), "CF-FOOT")
    refused(s, 1, play([5, 8], "foot:0:toe:0"), "CF-FOOT")  # closed by the double


def test_CF_FOOT_toes_go_to_whoever_is_on_turn_and_the_third_can_go_out() -> None:
    s = pos(
        [[[2, 2], [2, 5]], [[2, 6], [0, 1]], [[2, 7], [4, 8]]],
        chains=ARMS,
        boneyard=[[3, 3]],
    )
    E.apply_move(s, 0, play([2, 2], "arm:1"))
    E.apply_move(s, 1, play([2, 6], "foot:0:toe:1"))
    E.apply_move(s, 2, play([2, 7], "foot:0:toe:2"))
    refused(s, 0, play([2, 5], "arm:1"), "CF-FOOT")
    _, events = E.apply_move(s, 0, play([2, 5], "foot:0:toe:0"))
    assert types(events)[:4] == ["tile_played", "foot_completed", "round_ended", "round_scores"]
    assert events[2]["reason"] == "out"
    assert events[2]["seat"] == 0


def test_CF_FOOT_completed_after_the_third_toe_then_open_ends_everywhere() -> None:
    s = pos(
        [[[2, 2], [2, 5], [1, 8]], [[2, 6], [0, 1], [5, 7]], [[2, 7], [4, 8]]],
        chains=ARMS,
        boneyard=[[3, 3]],
    )
    E.apply_move(s, 0, play([2, 2], "arm:1"))
    E.apply_move(s, 1, play([2, 6], "foot:0:toe:0"))
    E.apply_move(s, 2, play([2, 7], "foot:0:toe:1"))
    _, events = E.apply_move(s, 0, play([2, 5], "foot:0:toe:2"))
    assert types(events) == ["tile_played", "foot_completed"]
    # Every toe is an ordinary open end now (on 6, 7 and 5), like arm:0 (on 1).
    assert {(tuple(m["tile"]), m["target"]) for m in moves(s)} == {
        ((0, 1), "arm:0"),
        ((5, 7), "foot:0:toe:1"),
        ((5, 7), "foot:0:toe:2"),
    }
    E.apply_move(s, 1, play([0, 1], "arm:0"))
    assert moves(s) == [play([4, 8], "arm:3")]
    # Seat 0's 1|8 goes nowhere now (arm:0 is on 0); seat 1's 5|7 goes on the toes on 7 and 5.
    assert {m.target for m in E.legal_moves(s, 2)} == {"arm:3"}


def test_CF_END_going_out_on_a_toe_ends_the_round_with_the_foot_unfinished() -> None:
    s = pos(
        [[[2, 2], [2, 5]], [[2, 6], [0, 1], [2, 8]]],
        chains=ARMS,
        boneyard=[[3, 3]],
        options={"rounds": 1},
    )
    E.apply_move(s, 0, play([2, 2], "arm:1"))
    E.apply_move(s, 1, play([2, 6], "foot:0:toe:0"))
    _, events = E.apply_move(s, 0, play([2, 5], "foot:0:toe:2"))
    assert types(events) == ["tile_played", "round_ended", "round_scores", "match_over"]
    assert events[1]["reason"] == "out"
    assert events[1]["seat"] == 0
    assert events[2]["scores"] == [0, 11]
    assert s.status == "over"
    assert s.feet[0]["status"] == "open"


def test_CF_END_going_out_on_a_double_opens_its_foot_and_ends_the_round() -> None:
    s = pos([[[2, 2]], [[2, 6], [3, 8]]], chains=ARMS, boneyard=[[3, 3]], options={"rounds": 1})
    _, events = E.apply_move(s, 0, play([2, 2], "arm:1"))
    assert types(events) == ["tile_played", "foot_opened", "round_ended", "round_scores",
                             "match_over"]  # fmt: skip
    assert events[3]["scores"] == [0, 19]


# --------------------------------------------------------------------------- CF-FOOT-DEAD


def test_CF_FOOT_DEAD_number_left_only_in_the_boneyard_still_binds_so_seats_draw() -> None:
    # The 1s not on the table: 1|6 and 1|7, both in the boneyard, behind other tiles.
    s = pos(
        [[[1, 5], [5, 8]], [[3, 8], [2, 7]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[0, 8], [1, 6], [0, 0], [1, 7]],
    )
    E.apply_move(s, 0, play([1, 5], "foot:0:toe:0"))
    assert s.foot == 0
    assert moves(s) == [DRAW]  # 2|7 and 3|8 fit arms, but the foot binds
    _, events = E.apply_move(s, 1, DRAW)  # 0|8: no toe takes it
    assert types(events) == ["drew", "passed"]
    assert moves(s) == [DRAW]  # 5|8 fits nothing open now either
    _, events = E.apply_move(s, 0, DRAW)  # 1|6 fits the two empty toes
    assert moves(s) == [play([1, 6], "foot:0:toe:1"), play([1, 6], "foot:0:toe:2"), PASS]


@pytest.mark.parametrize("release", [True, False])
def test_CF_FOOT_DEAD_when_the_last_tile_of_the_number_is_played(release: bool) -> None:
    s = pos(
        [[[1, 5], [5, 8], [1, 6]], [[3, 8], [2, 7]]],
        chains={**ARMS, "arm:0": [[9, 1], [1, 1]]},
        feet=[{"double": 1, "on": "arm:0"}],
        boneyard=[[0, 8], [0, 0]],
        options={"release_dead_foot": release, "rounds": 1},
    )
    E.apply_move(s, 0, play([1, 5], "foot:0:toe:0"))
    assert types(E.apply_move(s, 1, DRAW)[1]) == ["drew", "passed"]  # 0|8 fits no toe
    _, events = E.apply_move(s, 0, play([1, 6], "foot:0:toe:2"))
    if release:
        assert types(events) == ["tile_played", "foot_released"]
        assert s.feet[0]["status"] == "released"
        # The foot restricts nobody: 2|7, 3|8, 0|8 go on the arms.
        assert {(tuple(m["tile"]), m["target"]) for m in moves(s)} == {
            ((2, 7), "arm:1"),
            ((3, 8), "arm:2"),
        }
        assert E.view(s, 1)["open_foot"] is None
    else:
        assert types(events) == ["tile_played", "round_ended", "round_scores", "match_over"]
        assert events[1]["reason"] == "blocked"
        assert events[2]["scores"] == [13, 28]


# --------------------------------------------------------------------------- CF-END / CF-DRAW


def test_CF_END_blocked_the_moment_the_last_boneyard_tile_is_drawn_unplayable() -> None:
    s = pos([[[6, 7]], [[0, 7]], [[0, 6]]], chains=ARMS, boneyard=[[5, 8]], options={"rounds": 1})
    _, events = E.apply_move(s, 0, DRAW)
    assert types(events) == ["drew", "passed", "round_ended", "round_scores", "match_over"]
    assert events[2]["reason"] == "blocked"
    assert events[3]["scores"] == [26, 7, 6]


def test_CF_END_not_blocked_while_the_boneyard_has_tiles_even_if_none_fits() -> None:
    s = pos([[[6, 7]], [[0, 7]]], chains=ARMS, boneyard=[[5, 8], [6, 8]])
    _, events = E.apply_move(s, 0, DRAW)
    assert types(events) == ["drew", "passed"]
    assert moves(s) == [DRAW]
    _, events = E.apply_move(s, 1, DRAW)
    assert types(events)[:3] == ["drew", "passed", "round_ended"]


def test_CF_DRAW_declined_drawn_tile_then_the_next_player_plays_as_usual() -> None:
    s = pos([[[6, 7]], [[2, 8], [0, 8]]], chains=ARMS, boneyard=[[1, 6], [5, 5]])
    E.apply_move(s, 0, DRAW)
    assert s.turn == 0
    _, events = E.apply_move(s, 0, PASS)
    assert types(events) == ["passed"]
    assert s.turn == 1
    assert s.drawn is None
    assert moves(s) == [play([2, 8], "arm:1")]
    assert E.view(s, 1)["drawn"] is None
    assert E.view(s, 0)["has_drawn"] is False
    E.apply_move(s, 1, play([2, 8], "arm:1"))
    # The declined 1|6 is now an ordinary tile of seat 0's hand: it must be played (CF-MUST).
    assert moves(s, 0) == [play([1, 6], "arm:0")]
    refused(s, 0, DRAW, "CF-MUST")


def test_option_must_play_drawn_with_a_drawn_tile_fitting_several_ends() -> None:
    chains = {"arm:0": [[9, 1]], "arm:1": [[9, 2]], "arm:2": [[9, 0], [0, 1]],
              "arm:3": [[9, 5], [5, 2]]}  # fmt: skip
    s = pos(
        [[[6, 7], [3, 4]], [[5, 8]]],
        chains=chains,
        boneyard=[[1, 2], [0, 0]],
        options={"must_play_drawn": True},
    )
    E.apply_move(s, 0, DRAW)
    assert {m["target"] for m in moves(s)} == {"arm:0", "arm:1", "arm:2", "arm:3"}
    assert PASS not in moves(s)
    refused(s, 0, PASS, "CF-DRAW")
    refused(s, 0, DRAW, "CF-ONE")
    refused(s, 0, play([3, 4], "arm:0"), "CF-DRAW")
    E.apply_move(s, 0, play([1, 2], "arm:2"))
    assert s.turn == 1
    assert s.drawn is None


def test_CF_DRAW_json_round_trip_after_a_draw_keeps_the_drawn_tile() -> None:
    s = pos([[[6, 7]], [[2, 7]]], chains=ARMS, boneyard=[[1, 6], [5, 5]])
    E.apply_move(s, 0, DRAW)
    data = E.to_json(s)
    again = E.from_json(data)
    assert E.to_json(again) == data
    assert E.legal_moves(again, 0) == E.legal_moves(s, 0)
    refused(again, 0, DRAW, "CF-ONE")


# --------------------------------------------------------------------------- CF-START


def _find(predicate: Any, seats: int, options: dict[str, Any], tries: int = 3000) -> Any:
    for i in range(tries):
        s = E.new_match(CF, seats, options, f"edge-start-{i}")
        if predicate(s):
            return s
    raise AssertionError("no seed found")  # pragma: no cover


def test_CF_START_start_double_is_the_last_tile_of_the_boneyard() -> None:
    # 2 seats of 13 from 28 tiles: 2 in the boneyard; find a deal where 6|6 is the last one.
    s = _find(lambda s: sum(e["type"] == "drew" for e in s.opening) == 2, 2,
              {"max_pip": 6, "hand_size": 13})  # fmt: skip
    assert s.boneyard == []
    draws = [e for e in s.opening if e["type"] == "drew"]
    assert [e["seat"] for e in draws] == [0, 1]
    assert draws[-1]["tile"] == [6, 6]
    assert draws[-1]["boneyard"] == 0
    assert s.starter == 1
    assert s.turn == 0
    assert s.status == "playing"
    assert len(s.scores) == 0
    # Not blocked: the six other 6s are in the hands, and the seat on turn plays or passes.
    legal = moves(s)
    assert legal == [PASS] or all(m["kind"] == "play" for m in legal)


def test_CF_START_round_two_draws_start_after_the_previous_starter() -> None:
    """Round 2's automatic draws begin with the seat after round 1's starter, whoever that was."""
    found = 0
    for i in range(400):
        s = E.new_match(CF, 3, {"max_pip": 6, "hand_size": 4, "rounds": 2}, f"r2-{i}")
        first_starter = s.starter
        while s.round_no == 1 and s.status == "playing":
            _, _events = E.apply_move(s, s.turn, E.legal_moves(s, s.turn)[0])
        if s.status != "playing":
            continue
        draws = [e for e in s.opening if e["type"] == "drew"]
        if draws and first_starter != 2:
            assert [e["seat"] for e in draws] == [
                (first_starter + 1 + k) % 3 for k in range(len(draws))
            ]
            assert s.starter == draws[-1]["seat"]
            assert s.turn == (s.starter + 1) % 3
            found += 1
        if found >= 3:
            break
    assert found >= 3


# --------------------------------------------------------------------------- C-PIPS / options


@pytest.mark.parametrize("points", [0, 50, 100])
def test_option_double_blank_points_at_round_end(points: int) -> None:
    s = pos(
        [[[1, 5]], [[0, 0], [3, 8]], [[0, 0 + 6]]],
        chains=ARMS,
        boneyard=[[2, 6]],
        options={"double_blank_points": points, "rounds": 1},
    )
    _, events = E.apply_move(s, 0, play([1, 5], "arm:0"))
    assert events[2]["scores"] == [0, points + 11, 6]


def test_option_rounds_shortens_the_match_to_the_highest_doubles() -> None:
    s = E.new_match(CF, 3, {"max_pip": 6, "rounds": 3}, "short")
    seen = [s.start_double]
    rng = random.Random(5)
    while s.status == "playing":
        _, events = E.apply_move(s, s.turn, rng.choice(E.legal_moves(s, s.turn)))
        seen += [e["start_double"][0] for e in events if e["type"] == "round_started"]
    assert seen == [6, 5, 4]
    assert len(s.scores) == 3
    assert len(s.revealed_seeds) == 3


# --------------------------------------------------------------------------- C-WIN / C-HIDDEN


def test_C_WIN_standings_of_real_matches_follow_the_tie_breaks() -> None:
    for i in range(6):
        s = E.new_match(CF, 4, {"max_pip": 6, "hand_size": 5}, f"win-{i}")
        rng = random.Random(i)
        while s.status == "playing":
            _, events = E.apply_move(s, s.turn, rng.choice(E.legal_moves(s, s.turn)))
        standings = events[-1]["standings"]
        assert standings == final_order(s.scores) == E.view(s, 0)["standings"]

        def key(seat: int, scores: list[list[int]] = s.scores) -> tuple[int, int, float]:
            col = [r[seat] for r in scores]
            non_zero = [x for x in col if x]
            return (sum(col), -col.count(0), min(non_zero) if non_zero else float("inf"))

        for row in standings:
            better = sum(1 for other in range(4) if key(other) < key(row["seat"]))
            assert row["place"] == better + 1
            assert row["total"] == sum(r[row["seat"]] for r in s.scores)


def _tiles_in(value: Any) -> set[tuple[int, int]]:
    """Every [a, b] pair anywhere in a JSON value."""
    out: set[tuple[int, int]] = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= _tiles_in(v)
    elif isinstance(value, list):
        if len(value) == 2 and all(isinstance(x, int) for x in value):
            out.add((min(value), max(value)))
        for v in value:
            out |= _tiles_in(v)
    return out


def test_C_HIDDEN_views_never_show_another_hand_or_the_boneyard_during_a_round() -> None:
    for i in range(4):
        s = E.new_match(CF, 4, {"max_pip": 9, "hand_size": 8, "rounds": 2}, f"hidden-{i}")
        rng = random.Random(i)
        while s.status == "playing":
            table = {(min(x, y), max(x, y)) for c in s.chains.values() for x, y in c}
            table.add((s.start_double, s.start_double))
            for seat in (*range(4), None):
                v = E.view(s, seat)
                # Tile-shaped pairs outside the layout and the seat's own hand and moves:
                # scores/totals/commitments carry no pairs of a hidden tile.
                shown = _tiles_in({k: v[k] for k in ("hand", "drawn", "legal_moves", "layout",
                                                     "start_double") if k in v})  # fmt: skip
                own = set(s.hands[seat]) if seat is not None else set()
                hidden = {t for h in s.hands for t in h} | set(s.boneyard)
                assert shown & hidden <= own
                assert v["boneyard"] == len(s.boneyard)
                assert v["hand_counts"] == [len(h) for h in s.hands]
                assert s.seed not in repr(v)
                assert E.round_seed(s.seed, s.round_no) not in repr(v)
                if seat is None:
                    assert "hand" not in v
                    assert "legal_moves" not in v
            seat = s.turn
            _, events = E.apply_move(s, seat, rng.choice(E.legal_moves(s, seat)))
            for e in events:
                for other in range(4):
                    shown_e = E.redact_event(s, e, other)
                    if e["type"] == "drew" and e["seat"] != other:
                        assert "tile" not in shown_e
            ended = [e for e in events if e["type"] == "round_ended"]
            if ended:  # C-HIDDEN: hands left at the end of a round are revealed, seed too
                assert ended[0]["seed"] == s.revealed_seeds[len(s.scores) - 1]
                scores = next(e for e in events if e["type"] == "round_scores")["scores"]
                assert scores == [hand_points([tuple(t) for t in h]) for h in ended[0]["hands"]]


def test_C_SEATS_no_legal_moves_for_anyone_once_the_match_is_over() -> None:
    s = pos([[[1, 5]], [[3, 8]]], chains=ARMS, boneyard=[[2, 6]], options={"rounds": 1})
    E.apply_move(s, 0, play([1, 5], "arm:0"))
    assert s.status == "over"
    assert s.turn is None
    # ``legal_moves(state, state.turn)`` is what a client (or a bot) asks: nothing, not an error.
    assert E.legal_moves(s, s.turn) == []
    for seat in range(2):
        assert E.legal_moves(s, seat) == []
    assert E.view(s, None)["turn"] is None
