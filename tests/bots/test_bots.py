"""Bots decide from what their seat may know: legal moves, hidden information, every option."""

from __future__ import annotations

import random

import pytest

from games import bots, engine
from games.bots import search
from games.bots.knowledge import Knowledge
from games.bots.position import position, table_from_view
from tests.bots.helpers import CONFIGS, Log, play, positions, shuffle_hidden

IDS = [f"{v}-{n}-{'-'.join(f'{k}={o}' for k, o in opts.items())}" for v, n, opts in CONFIGS]
#: The configurations with hidden hands (not Mexican Train's ``open_hands``).
HIDDEN = [c for c in CONFIGS if not c[2].get("open_hands")]
HIDDEN_IDS = [i for i, c in zip(IDS, CONFIGS, strict=True) if c in HIDDEN]


def _hidden(state: object, seat: int) -> list:
    data = engine.to_json(state)
    return [h for s, h in enumerate(data["hands"]) if s != seat] + [data["boneyard"]]


@pytest.mark.parametrize(("variant", "seats", "options"), CONFIGS, ids=IDS)
def test_a_determinised_position_offers_exactly_the_engines_legal_moves(
    variant: str, seats: int, options: dict
) -> None:
    # given: positions along a match, and a deal of the unseen tiles sampled from each view
    for state, log in positions(variant, seats, options, f"legal:{variant}", 40):
        seat = state.turn
        info = bots.seat_info(state, seat, log)
        hands, boneyard = Knowledge(info.view, info.log).sample(random.Random(1))

        # when: the position is rebuilt from the view and that deal
        rebuilt = engine.from_json(position(table_from_view(info.view), hands, boneyard))

        # then: the seat has the same moves there as in the real game, and the view lists them
        expected = sorted(map(tuple, engine.legal_moves(state, seat)))
        assert sorted(map(tuple, engine.legal_moves(rebuilt, seat))) == expected
        # and the search's unchecked reading of it (trusted) builds the very same state
        deal = position(table_from_view(info.view), hands, boneyard)
        assert engine.to_json(engine.from_json(deal, trusted=True)) == engine.to_json(rebuilt)
        parsed = [engine.parse_move(m, state.options["max_pip"]) for m in info.view["legal_moves"]]
        assert sorted(map(tuple, parsed)) == expected


@pytest.mark.parametrize("variant", ["chickenfoot", "mexican_train"])
def test_the_strong_bot_does_not_see_hidden_tiles(variant: str) -> None:
    # given: positions, and for each a second game whose hidden tiles are shuffled
    options = {"max_pip": 9} if variant == "chickenfoot" else {"max_pip": 12}
    checked = 0
    for n, (state, log) in enumerate(positions(variant, 4, options, f"hidden:{variant}", 30)):
        seat = state.turn
        other = shuffle_hidden(state, seat, random.Random(n))
        assert _hidden(other, seat) != _hidden(state, seat)  # the other hands really differ

        # when: the strong bot decides in each, from what its seat sees, with the same RNG seed
        for k in range(3):
            first = bots.choose_move(bots.seat_info(state, seat, log), 4, random.Random(k), deals=3)
            second = bots.choose_move(
                bots.seat_info(other, seat, log), 4, random.Random(k), deals=3
            )

            # then: the same choice, every time
            assert first == second
            checked += 1
    assert checked >= 30


def _matches(hand: list, slots: list[int], index: dict) -> bool:
    """Can each tile of ``hand`` go to its own slot that allows it? (bipartite matching)"""
    owner: dict[int, int] = {}

    def place(t: int, seen: set[int]) -> bool:
        for j, mask in enumerate(slots):
            if j in seen or mask >> t & 1:
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = t
                return True
        return False

    return len(hand) == len(slots) and all(place(index[tuple(t)], set()) for t in hand)


@pytest.mark.parametrize(("variant", "seats", "options"), CONFIGS, ids=IDS)
def test_what_the_log_reveals_never_excludes_the_real_deal(
    variant: str, seats: int, options: dict
) -> None:
    # given: whole rounds, every seat's knowledge read before each of its moves
    constrained = 0
    for n in range(3):
        state = engine.new_match(variant, seats, {**options, "rounds": 1}, f"sound:{n}")
        log: Log = [engine.opening_events(state)]
        rng = random.Random(n)
        while state.status == "playing":
            seat = state.turn
            info = bots.seat_info(state, seat, log)
            knowledge = Knowledge(info.view, info.log)

            # then: every other seat's real hand fits its slots (what it could not hold)
            for other, hand in enumerate(engine.to_json(state)["hands"]):
                if other != seat and not knowledge.open_hands:
                    assert _matches(hand, knowledge.slots[other], knowledge.index)
                    constrained += sum(1 for m in knowledge.slots[other] if m)
            moves = engine.legal_moves(state, seat)
            log = play(state, seat, bots.policies.doubles_first(moves, rng), log)
    if not options.get("open_hands"):
        assert constrained > 0  # draws and passes did narrow the deal


@pytest.mark.parametrize(("variant", "seats", "options"), HIDDEN, ids=HIDDEN_IDS)
def test_the_opponent_model_keeps_the_real_deal_of_seats_that_play_by_it(
    variant: str, seats: int, options: dict
) -> None:
    # given: whole rounds where the last seat plays at random and the others double first,
    # heaviest next (the model), every seat's knowledge read before each of its moves
    dropped = modelled = 0
    for n in range(3):
        state = engine.new_match(variant, seats, {**options, "rounds": 1}, f"model:{n}")
        log: Log = [engine.opening_events(state)]
        rng = random.Random(n)
        while state.status == "playing":
            seat = state.turn
            info = bots.seat_info(state, seat, log)
            knowledge = Knowledge(info.view, info.log)

            # then: a seat that plays by the model keeps it, and its real hand fits the
            # model's masks; the random seat loses its model sooner or later
            for other, hand in enumerate(engine.to_json(state)["hands"]):
                prefs = knowledge.prefs[other]
                if other == seat:
                    continue
                if other == seats - 1:
                    dropped += prefs is None
                    continue
                assert prefs is not None
                assert _matches(hand, prefs, knowledge.index)
                modelled += sum(
                    1 for m, r in zip(prefs, knowledge.slots[other], strict=True) if m != r
                )
            moves = engine.legal_moves(state, seat)
            policy = bots.policies.random_move if seat == seats - 1 else bots.policies.doubles_first
            log = play(state, seat, policy(moves, rng), log)
    assert modelled > 0  # the model narrowed the deal beyond the rules
    assert dropped > 0


def test_a_seat_that_drew_on_open_numbers_is_dealt_none_of_them() -> None:
    # given: Chicken Foot with hands of 2; seat 1 placed the 9|9, then seat 0 played 9|1 on an
    # arm (the others still need a 9), and seat 1 drew a tile that did not fit either
    state = engine.from_json(
        {
            "variant": "chickenfoot",
            "seats": 2,
            "options": {"max_pip": 9, "rounds": 1, "hand_size": 2},
            "hands": [[[2, 3]], [[4, 5], [1, 2]]],
            "boneyard": [[5, 6], [3, 3]],
            "layout": {"chains": {"arm:0": [[9, 1]]}},
            "turn": 0,
        }
    )
    log: Log = [
        [
            {
                "type": "round_started",
                "round": 1,
                "start_double": [9, 9],
                "commitment": "c",
                "starter": 1,
                "turn": 0,
            },
            {"type": "start_double_placed", "seat": 1, "tile": [9, 9]},
        ],
        [{"type": "tile_played", "seat": 0, "tile": [9, 1], "target": "arm:0"}],
        [
            {"type": "drew", "seat": 1, "tile": [1, 2], "count": 1, "boneyard": 2},
            {"type": "passed", "seat": 1},
        ],
    ]
    info = bots.seat_info(state, 0, log)
    assert "tile" not in info.log[2][0]  # seat 0 does not see what seat 1 drew

    # when
    knowledge = Knowledge(info.view, info.log)
    samples = [knowledge.sample(random.Random(k))[0][1] for k in range(60)]

    # then: no sampled hand of seat 1 holds a 9 (it would have played it on an empty arm)
    assert all(9 not in t for hand in samples for t in hand)
    assert len({tuple(sorted(hand)) for hand in samples}) > 1  # still a sample, not a copy


@pytest.mark.parametrize(("variant", "seats", "options"), CONFIGS, ids=IDS)
def test_the_strong_bot_plays_legal_moves_under_every_option(
    variant: str, seats: int, options: dict
) -> None:
    # given: a round of strong bots in every seat (a fixed, small search per move)
    state = engine.new_match(variant, seats, {**options, "rounds": 1}, f"every:{variant}")
    log: Log = [engine.opening_events(state)]
    rng = random.Random(7)
    moves = 0
    while state.status == "playing":
        seat = state.turn
        # when
        move = bots.choose_move(bots.seat_info(state, seat, log), 4, rng, deals=2)
        # then
        assert move in engine.legal_moves(state, seat)
        log = play(state, seat, move, log)
        moves += 1
    assert moves > 0
    assert state.scores


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_every_level_decides_from_the_view(level: int) -> None:
    state = engine.from_json(
        {
            "variant": "mexican_train",
            "seats": 2,
            "options": {"max_pip": 12},
            "hands": [[[12, 3], [5, 5], [12, 10], [0, 1]], [[4, 6]]],
            "boneyard": [[6, 7], [2, 9]],
            "layout": {"trains": {"seat:0": [[12, 5]]}},
            "turn": 0,
        }
    )
    info = bots.SeatInfo(view=engine.view(state, 0))

    move = bots.choose_move(info, level, random.Random(3), deals=4)

    assert move in engine.legal_moves(state, 0)
    if level == 2:
        assert move.tile == (10, 12)  # 22 pips, the heaviest
    if level == 3:
        assert move.tile == (5, 5)  # the double first
    with pytest.raises(ValueError, match="not their turn"):
        bots.choose_move(bots.SeatInfo(view=engine.view(state, 1)), level, random.Random(3))


def test_move_values_values_every_legal_move_from_the_seats_knowledge() -> None:
    # given: positions of a Chicken Foot match, and Mexican Train with a hand of one tile that
    # goes out on either of two trains
    for state, log in positions("chickenfoot", 4, {"max_pip": 9}, "values", 6):
        seat = state.turn
        info = bots.seat_info(state, seat, log)
        moves = engine.legal_moves(state, seat)

        # when
        values = search.move_values(info.view, info.log, moves, random.Random(5), deals=4)

        # then: one value per move, moves leading to the same game alike, reproducible
        assert len(values) == len(moves)
        assert all(-1 < v <= 1 for v in values)
        key = search._same_game(info.view)
        for move, value in zip(moves, values, strict=True):
            assert value == values[[key(m) for m in moves].index(key(move))]
        again = search.move_values(info.view, info.log, moves, random.Random(5), deals=4)
        assert again == values
    state = engine.from_json(
        {
            "variant": "mexican_train",
            "seats": 2,
            "options": {"max_pip": 12},
            "hands": [[[12, 3]], [[4, 6], [5, 7]]],
            "boneyard": [[6, 7], [2, 9]],
            "turn": 0,
        }
    )
    view = engine.view(state, 0)
    moves = engine.legal_moves(state, 0)
    assert len(moves) == 2
    assert search.move_values(view, [], moves, random.Random(1), deals=3) == [1.0, 1.0]
    with pytest.raises(ValueError, match="deals or a time budget"):
        search.move_values(view, [], moves, random.Random(1))


def test_in_mexican_train_rollouts_the_seat_keeps_its_own_trains_chain_for_last() -> None:
    # given: seat 0's own train ends in 5, its hand lays 5|9 then 9|8 there; 1|2 fits the
    # Mexican Train
    state = engine.from_json(
        {
            "variant": "mexican_train",
            "seats": 2,
            "options": {"max_pip": 12},
            "hands": [[[5, 9], [9, 8], [1, 2]], [[4, 6], [3, 7]]],
            "boneyard": [[6, 7], [2, 9]],
            "layout": {"trains": {"seat:0": [[12, 5]], "mexican": [[12, 1]]}},
            "turn": 0,
        }
    )
    moves = engine.legal_moves(state, 0)
    assert bots.policies.doubles_first(moves, random.Random(1)).tile == (5, 9)  # level 3

    # when: the seat's own rollout policy chooses
    choose = search.own_policy(state, 0)
    move = moves[choose(moves)]

    # then: the tile off its chain goes first, the chain stays for its own train
    assert (move.tile, move.target) == ((1, 2), "mexican")
    assert bots.defaults.chain(5, [(1, 2), (8, 9), (5, 9)]) == [(5, 9), (8, 9)]
    engine.apply_move(state, 0, move)
    engine.apply_move(state, 1, engine.legal_moves(state, 1)[0])
    moves = engine.legal_moves(state, 0)
    assert moves[choose(moves)].tile == (5, 9)  # then the chain, in its order
