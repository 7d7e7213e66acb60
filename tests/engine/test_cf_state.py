"""Chicken Foot state: exact JSON, hand-built positions, views (C-HIDDEN), events, replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import engine as E
from games.engine.errors import NotYourTurn, RoundOver
from games.engine.moves import Move
from games.engine.shuffle import commitment

CF = "chickenfoot"


def random_match(
    seed: str, seats: int = 4, options: dict[str, Any] | None = None, stop: int = 10**9
) -> tuple[Any, list[tuple[int, Move]], list[dict[str, Any]]]:
    """A match played with random legal moves; returns (state, moves, events)."""
    s = E.new_match(CF, seats, options or {}, seed)
    rng = random.Random(seed)
    log: list[tuple[int, Move]] = []
    events: list[dict[str, Any]] = list(s.opening)
    while s.status == "playing" and len(log) < stop:
        seat = s.turn
        move = rng.choice(E.legal_moves(s, seat))
        _, new = E.apply_move(s, seat, move)
        log.append((seat, move))
        events.extend(new)
    return s, log, events


def test_json_round_trip_is_exact_and_json_ready() -> None:
    for stop in (0, 7, 40, 150, 10**9):
        s, _, _ = random_match("json", stop=stop)
        data = E.to_json(s)
        assert json.loads(json.dumps(data)) == data
        again = E.from_json(json.loads(json.dumps(data)))
        assert E.to_json(again) == data


def test_json_round_trip_play_continues_identically() -> None:
    s, _, _ = random_match("continue", stop=60)
    copy = E.from_json(E.to_json(s))
    rng_a, rng_b = random.Random(1), random.Random(1)
    while s.status == "playing":
        a = E.legal_moves(s, s.turn)
        b = E.legal_moves(copy, copy.turn)
        assert a == b
        ea = E.apply_move(s, s.turn, rng_a.choice(a))[1]
        eb = E.apply_move(copy, copy.turn, rng_b.choice(b))[1]
        assert ea == eb
    assert E.to_json(s) == E.to_json(copy)


def test_hand_built_minimal_position() -> None:
    s = E.from_json(
        {
            "variant": CF,
            "seats": 2,
            "options": {"rounds": 1},
            "hands": [[[1, 5], [6, 6]], [[3, 8], [6, 7]]],
            "boneyard": [[2, 7], [0, 0]],  # 2|7 is drawn first
            "layout": {"start_double": 9, "chains": {"arm:0": [[9, 1]], "arm:1": [[9, 2]],
                                                      "arm:2": [[9, 3]], "arm:3": [[9, 4]]}},
            "turn": 1,
        }
    )  # fmt: skip
    assert s.options["max_pip"] == 9
    assert s.turn == 1
    assert E.legal_moves(s, 1) == [Move("play", (3, 8), "arm:2")]
    E.apply_move(s, 1, {"kind": "play", "tile": [8, 3], "target": "arm:2"})
    E.apply_move(s, 0, {"kind": "play", "tile": [1, 5], "target": "arm:0"})
    assert E.legal_moves(s, 1) == [Move("draw")]
    _, events = E.apply_move(s, 1, {"kind": "draw"})
    assert events[0]["tile"] == [2, 7]
    data = E.to_json(s)
    assert data["boneyard"] == [[0, 0]]
    assert E.to_json(E.from_json(data)) == data


@pytest.mark.parametrize(
    "layout",
    [
        {"chains": {"arm:0": [[8, 1]]}},  # does not touch the 9
        {"chains": {"arm:0": [[9, 1], [2, 3]]}},  # broken chain
        {"chains": {"arm:0": [[9, 1], [1, 1]]}},  # a double without its foot
        {"chains": {"arm:9": []}},  # no such arm
        {"chains": {"arm:0": [[9, 1]]}, "feet": [{"double": 1, "on": "arm:0"}]},
    ],
)
def test_hand_built_layout_is_checked(layout: dict[str, Any]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - the message names the broken part
        E.from_json({"variant": CF, "seats": 2, "hands": [[[5, 6]], [[3, 4]]],
                     "layout": {"start_double": 9, **layout}, "turn": 0})  # fmt: skip


_FOOT_ON_ARM0 = {
    "arm:0": [[9, 1], [1, 1]], "arm:1": [[9, 2]], "arm:2": [[9, 3]], "arm:3": [[9, 4]],
    "foot:0:toe:0": [[1, 5]],
}  # fmt: skip


@pytest.mark.parametrize(
    ("status", "extra", "message"),
    [
        ("released", {}, "CF-FOOT-DEAD"),  # 1|6 in a hand: the foot still binds
        ("completed", {}, "empty toe"),
        ("closed", {}, "status"),
        ("open", {"drawn": [3, 8]}, "drawn"),  # not in the hand of the seat on turn
    ],
)
def test_hand_built_feet_and_drawn_tile_are_checked(
    status: str, extra: dict[str, Any], message: str
) -> None:
    """A position the rules could not reach would let the engine break them (CF-FOOT)."""
    data = {
        "variant": CF,
        "seats": 2,
        "hands": [[[1, 6], [2, 8]], [[3, 8]]],
        "boneyard": [[0, 0]],
        "layout": {"start_double": 9, "chains": _FOOT_ON_ARM0,
                   "feet": [{"double": 1, "on": "arm:0", "status": status}]},
        "turn": 0,
        **extra,
    }  # fmt: skip
    with pytest.raises(ValueError, match=message):
        E.from_json(data)


def test_hand_built_released_foot_is_accepted_when_dead() -> None:
    s = E.from_json({
        "variant": CF, "seats": 2, "hands": [[[2, 8]], [[3, 8]]], "boneyard": [[0, 0]],
        "layout": {"start_double": 9, "chains": _FOOT_ON_ARM0,
                   "feet": [{"double": 1, "on": "arm:0", "status": "released"}]},
        "turn": 0,
    })  # fmt: skip
    assert E.legal_moves(s, 0) == [Move("play", (2, 8), "arm:1")]


def test_hand_built_duplicate_tiles_are_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        E.from_json({"variant": CF, "seats": 2, "hands": [[[5, 6]], [[6, 5]]], "turn": 0})
    with pytest.raises(ValueError, match="twice"):
        E.from_json({"variant": CF, "seats": 2, "hands": [[[9, 9]], [[6, 5]]], "turn": 0})


def test_C_HIDDEN_view_shows_own_hand_counts_and_sizes_only() -> None:
    s, _, _ = random_match("hidden", stop=25)
    secret = E.to_json(s)
    for seat in (0, 1, 2, 3, None):
        view = E.view(s, seat)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert s.seed not in text
        assert "revealed" not in text or view["revealed_seeds"] == []
        assert view["hand_counts"] == [len(h) for h in secret["hands"]]
        assert view["boneyard"] == len(secret["boneyard"])
        if seat is None:
            assert "hand" not in view
            assert "legal_moves" not in view
        else:
            assert view["hand"] == sorted(secret["hands"][seat])
        assert view["commitment"] == s.commitments[-1]
        assert view["round"] == s.round_no
        assert view["turn"] == s.turn


def test_C_HIDDEN_view_has_the_drawable_layout_with_target_ids() -> None:
    s, _, _ = random_match("layout", stop=80)
    view = E.view(s, s.turn)
    layout = view["layout"]
    assert [a["id"] for a in layout["arms"]] == ["arm:0", "arm:1", "arm:2", "arm:3"]
    ids = {c["id"] for c in layout["arms"]} | {t["id"] for f in layout["feet"] for t in f["toes"]}
    plays = [m for m in view["legal_moves"] if m["kind"] == "play"]
    assert {m["target"] for m in plays} <= {e["target"] for e in layout["open_ends"]} <= ids
    on_table = sum(len(c["tiles"]) for c in layout["arms"]) + sum(
        len(t["tiles"]) for f in layout["feet"] for t in f["toes"]
    )
    assert on_table + 1 + sum(view["hand_counts"]) + view["boneyard"] == 55


def test_C_HIDDEN_redact_event_hides_a_drawn_tile_from_others() -> None:
    event = {"type": "drew", "seat": 2, "tile": [3, 4], "count": 1, "boneyard": 9}
    assert E.redact_event(CF, event, 2) == event
    for seat in (0, 1, None):
        redacted = E.redact_event(CF, event, seat)
        assert redacted == {"type": "drew", "seat": 2, "count": 1, "boneyard": 9}
    played = {"type": "tile_played", "seat": 1, "tile": [3, 4], "target": "arm:0"}
    assert E.redact_event(CF, played, None) == played


def test_C_HIDDEN_round_end_reveals_hands_and_seed() -> None:
    s, _, events = random_match("reveal", options={"rounds": 2})
    ended = [e for e in events if e["type"] == "round_ended"]
    assert [e["seed"] for e in ended] == s.revealed_seeds
    assert [commitment(seed) for seed in s.revealed_seeds] == s.commitments
    assert E.view(s, None)["revealed_seeds"] == s.revealed_seeds
    assert E.view(s, None)["standings"] == E.standings(s)


def test_events_round_flow() -> None:
    s, _, events = random_match("flow", seats=3, options={"rounds": 3})
    kinds = [e["type"] for e in events]
    assert kinds.count("round_started") == 3
    assert kinds.count("start_double_placed") == 3
    assert kinds.count("round_ended") == 3
    assert kinds.count("round_scores") == 3
    assert kinds[-1] == "match_over"
    scores = [e for e in events if e["type"] == "round_scores"]
    assert scores[-1]["totals"] == [sum(r[i] for r in s.scores) for i in range(3)]
    known = {"round_started", "start_double_placed", "drew", "tile_played", "passed",
             "foot_opened", "foot_completed", "foot_released", "round_ended", "round_scores",
             "match_over"}  # fmt: skip
    assert set(kinds) <= known


def test_replay_from_seed_reproduces_every_state() -> None:
    s, log, _ = random_match("replay", seats=5)
    final = E.to_json(s)
    again = E.new_match(CF, 5, {}, "replay")
    for seat, move in log:
        E.apply_move(again, seat, move.to_json())
    assert E.to_json(again) == final


def test_move_errors_out_of_turn_and_after_the_end() -> None:
    s = E.new_match(CF, 3, {"rounds": 1}, "errors")
    other = (s.turn + 1) % 3
    assert E.legal_moves(s, other) == []
    before = E.to_json(s)
    with pytest.raises(NotYourTurn) as info:
        E.apply_move(s, other, E.legal_moves(s, s.turn)[0])
    assert info.value.rule == "C-SEATS"
    assert info.value.status == 409
    assert E.to_json(s) == before
    while s.status == "playing":
        E.apply_move(s, s.turn, E.legal_moves(s, s.turn)[0])
    with pytest.raises(RoundOver):
        E.apply_move(s, 0, {"kind": "pass"})
    assert all(E.legal_moves(s, seat) == [] for seat in range(3))
