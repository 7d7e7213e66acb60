"""Chicken Foot properties over many random matches (random legal move every turn)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine as E
from games.engine.errors import EngineError, MalformedMove, RuleViolation
from games.engine.moves import Move
from games.engine.options import round_doubles
from games.engine.tiles import full_set, hand_points, set_size

CF = "chickenfoot"
CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (4, {}),
    (2, {}),
    (3, {"must_play_drawn": True}),
    (5, {"release_dead_foot": False}),
    (4, {"spinner_arms": 6}),
    (8, {"max_pip": 12, "rounds": 4}),
    (2, {"max_pip": 6, "hand_size": 4}),
    (6, {"double_blank_points": 0}),
    (3, {"hand_size": 2, "rounds": 5}),
]


def table_tiles(s: Any) -> list[tuple[int, int]]:
    return [(min(x, y), max(x, y)) for chain in s.chains.values() for x, y in chain]


def assert_conserved(s: Any) -> None:
    """Hands + boneyard + table + centre double = the whole set, each tile once."""
    tiles = [t for h in s.hands for t in h] + list(s.boneyard) + table_tiles(s)
    tiles.append((s.start_double, s.start_double))
    assert sorted(tiles) == full_set(s.options["max_pip"])


def candidates(s: Any, seat: int, rng: random.Random) -> list[Move]:
    """Plays of every hand tile on every end (open or not), a few foreign tiles, draw, pass."""
    targets = [*s.chains, "arm:7", "foot:9:toe:0"]
    hand = list(s.hands[seat])
    others = [t for h in s.hands for t in h if t not in hand] + list(s.boneyard)
    tiles = hand + rng.sample(others, min(3, len(others)))
    out = [Move("play", t, target) for t in tiles for target in targets]
    return [*out, Move("draw"), Move("pass")]


def assert_exactly_legal(s: Any, seat: int, rng: random.Random) -> None:
    """Every move of legal_moves applies; any other candidate is refused, changing nothing."""
    legal = E.legal_moves(s, seat)
    assert len(set(legal)) == len(legal)
    before = E.to_json(s)
    for move in legal:
        copy = E.from_json(before)
        E.apply_move(copy, seat, move)
        assert_conserved(copy)
    rules = []
    for move in candidates(s, seat, rng):
        if move in legal:
            continue
        try:
            E.apply_move(s, seat, move)
        except RuleViolation as exc:
            rules.append(exc.rule)
        except MalformedMove:
            pass
        else:  # pragma: no cover - a failure
            raise AssertionError(f"{move} was accepted but is not in legal_moves {legal}")
    assert all(rule and rule.startswith(("CF-", "C-")) for rule in rules), rules
    assert E.to_json(s) == before


def check_round_end(s: Any, events: list[dict[str, Any]]) -> int:
    """Round scores are the pips left (0|0 = the option's value). Returns rounds ended."""
    ended = 0
    dbp = s.options["double_blank_points"]
    for i, e in enumerate(events):
        if e["type"] == "round_ended":
            ended += 1
            scores = events[i + 1]
            assert scores["type"] == "round_scores"
            assert scores["scores"] == [hand_points([tuple(t) for t in h], dbp) for h in e["hands"]]
            if e["reason"] == "out":
                assert e["hands"][e["seat"]] == []
            else:
                assert e["seat"] is None
    return ended


def test_thousands_of_random_rounds() -> None:
    """Conservation, refusals, termination, scores = pips, rounds high to low, no played-out
    passes, over 2,000+ random rounds across the option sets."""
    rounds = matches = 0
    while rounds < 2000:
        seats, options = CONFIGS[matches % len(CONFIGS)]
        s = E.new_match(CF, seats, options, f"prop-{matches}")
        rng = random.Random(matches)
        doubles = round_doubles(s.options)
        bound = 3 * set_size(s.options["max_pip"]) + seats
        assert s.start_double == doubles[0]
        actions = passes = step = 0
        while s.status == "playing":
            seat = s.turn
            moves = E.legal_moves(s, seat)
            assert moves
            assert E.legal_moves(s, (seat + 1) % seats) == []
            if step % 97 == 0:
                assert_exactly_legal(s, seat, rng)
            step += 1
            move = moves[rng.randrange(len(moves))]
            _, events = E.apply_move(s, seat, move)
            actions += 1
            passes = passes + 1 if events[-1]["type"] == "passed" and not s.boneyard else 0
            assert passes <= seats  # CF-END: blocked rounds end without a circle of passes
            assert sum(map(len, s.hands)) + len(s.boneyard) + len(table_tiles(s)) + 1 == set_size(
                s.options["max_pip"]
            )
            ended = check_round_end(s, events)
            if ended:
                rounds += ended
                actions = passes = 0
                assert_conserved(s)
                if s.status == "playing":
                    assert s.start_double == doubles[s.round_no - 1]
            assert actions <= bound
        assert len(s.scores) == s.options["rounds"]
        assert s.turn is None
        matches += 1


OPTION_SETS = st.sampled_from(CONFIGS)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**31), config=OPTION_SETS, stop=st.integers(0, 300))
def test_random_position_moves_are_exactly_legal_and_json_exact(
    seed: int, config: tuple[int, dict[str, Any]], stop: int
) -> None:
    seats, options = config
    s = E.new_match(CF, seats, options, str(seed))
    rng = random.Random(seed)
    for _ in range(stop):
        if s.status != "playing":
            break
        E.apply_move(s, s.turn, rng.choice(E.legal_moves(s, s.turn)))
    data = E.to_json(s)
    assert E.to_json(E.from_json(data)) == data
    assert_conserved(s)
    if s.status == "playing":
        assert_exactly_legal(s, s.turn, rng)
        if not s.boneyard:  # not blocked: somebody can still play
            assert (
                any(any(a in s.avail or b in s.avail for a, b in hand) for hand in s.hands)
                or s.drawn is not None
            )


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), config=OPTION_SETS)
def test_replaying_a_match_from_its_seed_reproduces_every_state(
    seed: int, config: tuple[int, dict[str, Any]]
) -> None:
    seats, options = config
    s = E.new_match(CF, seats, options, f"replay-{seed}")
    rng = random.Random(seed)
    log: list[tuple[int, Move]] = []
    states = [E.to_json(s)]
    while s.status == "playing":
        seat = s.turn
        move = rng.choice(E.legal_moves(s, seat))
        E.apply_move(s, seat, move)
        log.append((seat, move))
        states.append(E.to_json(s))
    again = E.new_match(CF, seats, options, f"replay-{seed}")
    assert E.to_json(again) == states[0]
    for i, (seat, move) in enumerate(log, start=1):
        E.apply_move(again, seat, move.to_json())
        assert E.to_json(again) == states[i]


def test_errors_are_engine_errors() -> None:
    assert issubclass(RuleViolation, EngineError)
    assert issubclass(MalformedMove, EngineError)
