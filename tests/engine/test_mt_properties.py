"""Mexican Train properties over many random matches (random legal move every action)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine as E
from games.engine.errors import RuleViolation
from games.engine.moves import DRAW, PASS, PLAY, Move
from games.engine.tiles import full_set, hand_points

MT = "mexican_train"
MAX_ACTIONS_PER_ROUND = 3000

options_strategy = st.fixed_dictionaries(
    {},
    optional={
        "close_doubles_reverse": st.booleans(),
        "satisfy_own_double": st.booleans(),
        "open_hands": st.booleans(),
        "double_blank_points": st.sampled_from([0, 50, 100]),
    },
)
shape_strategy = st.sampled_from([(2, 12), (4, 12), (8, 12), (3, 9), (4, 9), (9, 15)])


def _norm(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


def _check_state(s: Any) -> None:
    """Conservation (engine included), counters and open doubles agree with the tiles."""
    top = s.options["max_pip"]
    table = [_norm(a, b) for train in s.trains for a, b in train]
    off = [t for h in s.hands for t in h] + list(s.boneyard)
    everything = [(s.engine, s.engine), *table, *off]
    assert sorted(everything) == full_set(top)
    left = [0] * (top + 1)
    for a, b in off:
        left[a] += 1
        if b != a:
            left[b] += 1
    assert left == s.left
    for t in s.open:
        last = s.trains[t][-1]
        assert last[0] == last[1]
        assert left[last[0]] > 0  # MT-OPEN-DEAD: a dead double is never left open
    for t, train in enumerate(s.trains):
        assert s.ends[t] == (train[-1][1] if train else s.engine)


def _can_anyone_play_with_all_markers(s: Any) -> bool:
    ends = set(s.ends)
    return any(a in ends or b in ends for h in s.hands for a, b in h)


def _candidates(s: Any, seat: int) -> list[Move]:
    names = s.target_names
    moves = [Move(DRAW), Move(PASS)]
    for tile in s.hands[seat]:
        moves += [Move(PLAY, tile, name) for name in names]
    outside = next(t for t in full_set(s.options["max_pip"]) if t not in s.hands[seat])
    moves.append(Move(PLAY, outside, names[-1]))
    return moves


def run_match(
    seats: int,
    options: dict[str, Any],
    seed: str,
    rng: random.Random,
    deep: float = 0.0,
    every_action: bool = True,
    snapshots: list[dict[str, Any]] | None = None,
) -> tuple[Any, list[Move], list[list[dict[str, Any]]]]:
    """Play a whole match, checking the properties as it goes.

    Always: a legal move exists, markers are on exactly when the rules say (up after every pass,
    the automatic one after an unplayable draw included; down only after a play on one's own
    train), a draw is followed by the drawn tile's plays only or by the pass in the same call,
    round scores are the pips left, the rounds run from the highest double down, every round
    ends. With ``every_action``: tile conservation and counters, ``pass`` offered only with an
    empty boneyard, no play offered on an unavailable train or away from a binding open double,
    blocked rounds end at once. ``deep``: the share of actions
    at which every legal move is applied (to a copy), every other candidate is refused with a
    rule id and no change, and the JSON round trip is exact.
    """
    s = E.new_match(MT, seats, options, seed)
    log: list[Move] = []
    trail: list[list[dict[str, Any]]] = []
    markers = [False] * seats
    engines = [s.engine]
    actions = 0
    while s.status == "playing":
        seat = s.turn
        moves = E.legal_moves(s, seat)
        assert moves, "the seat to move always has a legal move"
        v = E.view(s, seat) if every_action else {"must_satisfy": None}
        bound = v["must_satisfy"]
        for m in moves if every_action else ():
            if m.kind == PASS:
                assert not s.boneyard  # a drawn tile that does not fit passes by itself
            if m.kind == PLAY:
                if bound is not None:
                    assert m.target == bound  # with an open double, nothing goes elsewhere
                elif m.target != f"seat:{seat}" and m.target != "mexican":
                    assert int(m.target.split(":")[1]) in v["layout"]["markers"]  # MT-AVAILABLE
        if rng.random() < deep:
            _deep_checks(s, seat, moves)
        move = rng.choice(moves)
        _, events = E.apply_move(s, seat, move)
        log.append(move)
        trail.append(events)
        if snapshots is not None:
            snapshots.append(E.to_json(s))
        actions += 1
        assert actions < MAX_ACTIONS_PER_ROUND * s.options["rounds"]
        kinds = [e["type"] for e in events]
        if move.kind == DRAW:  # MT-DRAW: it fits (the drawer plays it) or the turn passes now
            drawn = tuple(sorted(events[0]["tile"]))
            if "passed" in kinds:
                assert kinds[:2] == ["drew", "passed"]
            else:
                assert kinds == ["drew"]
                assert s.turn == seat
                assert {m.tile for m in E.legal_moves(s, seat)} == {drawn}
        elif move.kind == PASS:
            assert events[0]["type"] == "passed"
        for e in events:
            kind = e["type"]
            if kind == "passed":
                markers[e["seat"]] = True
            elif kind == "tile_played" and e["target"] == f"seat:{e['seat']}":
                markers[e["seat"]] = False
            elif kind == "round_ended":
                _check_round_end(s, e)
            elif kind == "round_started":
                markers = [False] * seats
                engines.append(e["start_double"][0])
        if s.status == "playing":
            assert s.markers == markers
        if s.status == "playing" and every_action:
            _check_state(s)
            if not s.boneyard:
                assert _can_anyone_play_with_all_markers(s)  # blocked rounds end at once
    top = s.options["max_pip"]
    assert engines == list(range(top, top - s.options["rounds"], -1))
    assert len(s.scores) == s.options["rounds"]
    return s, log, trail


def _check_round_end(s: Any, e: dict[str, Any]) -> None:
    dbp = s.options["double_blank_points"]
    hands = [[tuple(t) for t in h] for h in e["hands"]]
    expected = [hand_points(h, dbp) for h in hands]
    assert s.scores[e["round"] - 1] == expected
    if e["reason"] == "out":
        assert hands[e["seat"]] == []
        assert s.scores[e["round"] - 1][e["seat"]] == 0


def _deep_checks(s: Any, seat: int, moves: list[Move]) -> None:
    snapshot = E.to_json(s)
    assert E.to_json(E.from_json(snapshot)) == snapshot
    for m in moves:  # every legal move applies
        E.apply_move(E.from_json(snapshot), seat, m)
    legal = set(moves)
    for m in _candidates(s, seat):  # anything else is refused, with a rule id, changing nothing
        if m in legal:
            continue
        with pytest.raises(RuleViolation) as info:
            E.apply_move(s, seat, m)
        assert info.value.rule
        assert E.to_json(s) == snapshot
    other = (seat + 1) % s.seats
    with pytest.raises(RuleViolation) as info:
        E.apply_move(s, other, moves[0])
    assert info.value.rule == "C-SEATS"
    assert E.to_json(s) == snapshot


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    shape=shape_strategy,
    options=options_strategy,
    rounds=st.integers(1, 3),
)
def test_property_random_matches_keep_every_rule(
    seed: int, shape: tuple[int, int], options: dict[str, Any], rounds: int
) -> None:
    seats, top = shape
    run_match(
        seats,
        {**options, "max_pip": top, "rounds": rounds},
        f"s{seed}",
        random.Random(seed),
        deep=0.05,
    )


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), shape=shape_strategy, options=options_strategy)
def test_property_replay_and_json_round_trip_are_deterministic(
    seed: int, shape: tuple[int, int], options: dict[str, Any]
) -> None:
    seats, top = shape
    opts = {**options, "max_pip": top, "rounds": 2}
    snapshots: list[dict[str, Any]] = []
    s, log, trail = run_match(seats, opts, f"r{seed}", random.Random(seed), snapshots=snapshots)
    replay = E.new_match(MT, seats, opts, f"r{seed}")
    rng = random.Random(seed ^ 0x5EED)
    cut = rng.randrange(len(log))
    for i, move in enumerate(log):
        if i == cut:  # continue from a JSON copy: play goes on identically
            replay = E.from_json(E.to_json(replay))
        _, events = E.apply_move(replay, replay.turn, move)
        assert events == trail[i]
        assert E.to_json(replay) == snapshots[i]
    assert E.to_json(replay) == E.to_json(s)


def test_property_thousands_of_rounds_terminate_and_score() -> None:
    rng = random.Random(20240601)
    rounds = 0
    blocked = 0
    for i in range(500):
        seats, top = [(2, 12), (4, 12), (6, 12), (8, 12), (4, 9)][i % 5]
        s, _, trail = run_match(
            seats, {"max_pip": top, "rounds": 4}, f"k{i}", rng, every_action=False
        )
        rounds += len(s.scores)
        blocked += sum(
            1
            for events in trail
            for e in events
            if e["type"] == "round_ended" and e["reason"] == "blocked"
        )
    assert rounds == 2000
    assert blocked > 0
