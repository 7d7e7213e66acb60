"""The shared engine core (docs/rules.md §1): C-SET, C-PIPS, C-ROUNDS, C-SEATS, C-SHUFFLE, C-WIN,
C-HIDDEN, and option validation."""

from __future__ import annotations

import hashlib
import random

import pytest

from games import engine as E
from games.engine import shuffle
from games.engine.errors import MalformedMove, NotYourTurn, OptionError
from games.engine.moves import Move, parse_move
from games.engine.options import round_doubles
from games.engine.scoring import final_order, match_totals, round_scores
from games.engine.shuffle import commitment, deal, new_match_seed, round_seed, shuffled
from games.engine.tiles import full_set, hand_points, parse_tile, pips, set_size

CF = "chickenfoot"

# --------------------------------------------------------------------------- C-SET


@pytest.mark.parametrize(("top", "count"), [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_C_SET_sizes(top: int, count: int) -> None:
    tiles = full_set(top)
    assert len(tiles) == set_size(top) == count == (top + 1) * (top + 2) // 2
    assert len(set(tiles)) == count
    assert all(0 <= a <= b <= top for a, b in tiles)
    assert tiles == sorted(tiles)


def test_C_SET_tiles_parse_in_either_order_and_stay_in_the_set() -> None:
    assert parse_tile([5, 3], 9) == (3, 5)
    for bad in ([3, 10], [-1, 2], [1], "3-5", [1.0, 2], [True, 2]):
        with pytest.raises(MalformedMove):
            parse_tile(bad, 9)


# --------------------------------------------------------------------------- C-PIPS


def test_C_PIPS_tile_points_and_the_double_blank() -> None:
    assert pips((3, 5)) == 8
    assert pips((0, 0)) == 50
    assert pips((0, 0), 0) == 0
    assert pips((6, 6)) == 12
    assert hand_points([(0, 0), (1, 2), (0, 3)]) == 56
    assert hand_points([(0, 0)], 25) == 25
    assert hand_points([]) == 0
    assert round_scores([[(0, 0)], [], [(4, 4)]], 50) == [50, 0, 8]


# --------------------------------------------------------------------------- C-ROUNDS


def test_C_ROUNDS_from_the_highest_double_down_to_blank() -> None:
    options = E.resolve_options(CF, 4)
    assert round_doubles(options) == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert round_doubles(E.resolve_options(CF, 4, {"rounds": 3})) == [9, 8, 7]


def test_C_ROUNDS_a_match_plays_every_round_in_order() -> None:
    s = E.new_match(CF, 2, {"max_pip": 6, "hand_size": 5}, "rounds")
    doubles = [s.start_double]
    while s.status == "playing":
        _, events = E.apply_move(s, s.turn, E.legal_moves(s, s.turn)[-1])
        doubles += [e["start_double"][0] for e in events if e["type"] == "round_started"]
    assert doubles == [6, 5, 4, 3, 2, 1, 0]
    assert len(s.scores) == 7
    assert match_totals(s.scores) == [sum(r[0] for r in s.scores), sum(r[1] for r in s.scores)]


# --------------------------------------------------------------------------- C-SEATS


def test_C_SEATS_turns_go_in_seat_order_and_wrap() -> None:
    s = E.new_match(CF, 5, {"rounds": 1}, "seats")
    seen = []
    while s.status == "playing" and len(seen) < 30:
        seat = s.turn
        seen.append(seat)
        for other in range(5):
            if other != seat:
                assert E.legal_moves(s, other) == []
        _, events = E.apply_move(s, seat, E.legal_moves(s, seat)[0])
        if s.status != "playing" or any(e["type"] == "round_ended" for e in events):
            break
        if [e["type"] for e in events] == ["drew"]:  # a drawn tile that may be played
            assert s.turn == seat
        else:
            assert s.turn == (seat + 1) % 5


def test_C_SEATS_acting_out_of_turn_is_refused() -> None:
    s = E.new_match(CF, 4, {}, "out-of-turn")
    with pytest.raises(NotYourTurn) as info:
        E.apply_move(s, (s.turn + 2) % 4, {"kind": "pass"})
    assert info.value.rule == "C-SEATS"


# --------------------------------------------------------------------------- C-SHUFFLE


def test_C_SHUFFLE_commitment_is_sha256_of_the_round_seed() -> None:
    seed = round_seed("match", 3)
    assert commitment(seed) == hashlib.sha256(seed.encode()).hexdigest()
    assert round_seed("match", 3) == seed != round_seed("match", 4) != round_seed("other", 3)
    assert len(new_match_seed()) == 64
    assert new_match_seed() != new_match_seed()


def test_C_SHUFFLE_shuffled_is_a_deterministic_permutation() -> None:
    items = list(range(100))
    a = shuffled(items, "s")
    assert a == shuffled(items, "s")
    assert sorted(a) == items
    assert a != items
    assert shuffled(items, "t") != a
    assert items == list(range(100))  # the input is untouched


def test_C_SHUFFLE_known_answer() -> None:
    # Pinned: anyone re-implementing the documented algorithm must get exactly this.
    assert shuffled(list(range(10)), "seed") == [2, 4, 3, 0, 1, 9, 8, 6, 7, 5]


def _reference_shuffle(items: list[int], seed: str, span: int = 2**32) -> list[int]:
    """The algorithm as documented in games/engine/shuffle.py, written plainly."""
    words: list[int] = []
    counter = 0
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            if not words:
                digest = hashlib.sha256(f"{seed}:{counter}".encode()).digest()
                counter += 1
                words = [int.from_bytes(digest[k : k + 4], "big") for k in range(0, 32, 4)]
            x = words.pop(0)
            if x < span - (span % n):
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def test_C_SHUFFLE_matches_the_documented_algorithm() -> None:
    for k in range(50):
        items = list(range(k * 7))
        assert shuffled(items, f"ref-{k}") == _reference_shuffle(items, f"ref-{k}")


def test_C_SHUFFLE_rejected_words_are_skipped_in_stream_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Rejections are rare with 2**32; a span of 1.5 * 2**31 makes about a quarter of the words
    # fall above the limit, exercising the rejection path (the words stay 32-bit).
    span = 3 * 2**30
    monkeypatch.setattr(shuffle, "_SPAN", span)
    for k in range(40):
        items = list(range(3 + k * 5))
        assert shuffle.shuffled(items, f"rej-{k}") == _reference_shuffle(items, f"rej-{k}", span)


def test_C_SHUFFLE_deal_and_boneyard_order() -> None:
    hands, boneyard = deal(list(range(10)), 3, 2)
    assert hands == [[0, 1], [2, 3], [4, 5]]
    assert boneyard.pop() == 6  # the boneyard is reversed: pop() draws the next tile


def test_C_SHUFFLE_a_round_is_dealt_from_its_revealed_seed() -> None:
    s = E.new_match(CF, 4, {"rounds": 2}, "fair")
    hands_at_start = E.to_json(s)["hands"]
    assert s.commitments == [commitment(round_seed("fair", 1))]
    while s.round_no == 1:
        E.apply_move(s, s.turn, E.legal_moves(s, s.turn)[0])
    revealed = s.revealed_seeds[0]
    assert commitment(revealed) == s.commitments[0]
    dealt, _ = deal(shuffled(full_set(9), revealed), 4, 11)
    # Each start hand is the deal plus any CF-START draws, minus the placed start double.
    for seat in range(4):
        assert {tuple(t) for t in hands_at_start[seat]} - {(9, 9)} >= set(dealt[seat]) - {(9, 9)}


def test_C_SHUFFLE_same_seed_same_match() -> None:
    def run(seed: str) -> list[dict[str, object]]:
        s = E.new_match(CF, 3, {"rounds": 2}, seed)
        rng = random.Random(0)
        states = []
        while s.status == "playing":
            E.apply_move(s, s.turn, rng.choice(E.legal_moves(s, s.turn)))
            states.append(E.to_json(s))
        return states

    assert run("same") == run("same")
    assert run("same") != run("different")


# --------------------------------------------------------------------------- C-WIN


def test_C_WIN_lowest_total_wins() -> None:
    order = final_order([[10, 5, 7], [1, 20, 8]])
    assert [(r["seat"], r["place"], r["total"]) for r in order] == [
        (0, 1, 11), (2, 2, 15), (1, 3, 25)
    ]  # fmt: skip
    assert order[0]["decided_by"] == "total"
    assert order[0]["tiebreak"] == ["total"]


def test_C_WIN_tie_broken_by_most_zero_rounds() -> None:
    order = final_order([[0, 5], [10, 5]])  # both 10; seat 0 has a zero round
    assert [(r["seat"], r["place"]) for r in order] == [(0, 1), (1, 2)]
    assert order[0]["zero_rounds"] == 1
    assert order[0]["decided_by"] == "zero_rounds"
    assert order[0]["tiebreak"] == ["total", "zero_rounds"]


def test_C_WIN_then_by_lowest_single_non_zero_round() -> None:
    order = final_order([[2, 5], [8, 5]])  # totals 10 and 10, no zeros; lowest rounds 2 vs 5
    assert [(r["seat"], r["place"]) for r in order] == [(0, 1), (1, 2)]
    assert order[0]["lowest_round"] == 2
    assert order[1]["lowest_round"] == 5
    assert order[0]["decided_by"] == order[1]["decided_by"] == "lowest_round"
    assert order[0]["tiebreak"] == ["total", "zero_rounds", "lowest_round"]


def test_C_WIN_players_still_tied_share_the_place() -> None:
    order = final_order([[3, 3, 1, 9], [4, 4, 9, 0]])  # seats 0 and 1 level on everything
    places = {r["seat"]: r["place"] for r in order}
    assert places == {0: 1, 1: 1, 3: 3, 2: 4}
    shared = [r for r in order if r["seat"] in (0, 1)]
    assert all(r["decided_by"] == "shared" for r in shared)
    assert all(r["tiebreak"] == ["total", "zero_rounds", "lowest_round"] for r in shared)
    assert final_order([]) == []


def test_C_WIN_all_zero_rounds_have_no_lowest_round() -> None:
    order = final_order([[0, 0], [0, 0]])
    assert [r["place"] for r in order] == [1, 1]
    assert all(r["lowest_round"] is None for r in order)


def test_C_WIN_standings_of_a_finished_match() -> None:
    s = E.new_match(CF, 3, {"rounds": 2}, "standing")
    while s.status == "playing":
        _, events = E.apply_move(s, s.turn, E.legal_moves(s, s.turn)[0])
    assert events[-1] == {"type": "match_over", "standings": final_order(s.scores)}
    assert E.standings(s) == final_order(s.scores)
    assert E.view(s, 0)["standings"] == E.standings(s)


# --------------------------------------------------------------------------- C-HIDDEN


def test_C_HIDDEN_no_view_carries_another_hand_or_the_boneyard() -> None:
    s = E.new_match(CF, 3, {}, "hidden-core")
    for seat in (0, 1, 2, None):
        view = E.view(s, seat)
        text = repr(view)
        for other in range(3):
            if other != seat:
                assert sorted(list(t) for t in s.hands[other]) != view.get("hand")
        assert "seed" not in view
        assert view["boneyard"] == len(s.boneyard)
        assert round_seed(s.seed, 1) not in text
        assert s.seed not in text


# --------------------------------------------------------------------------- moves / options


def test_moves_parse_and_print() -> None:
    move = parse_move({"kind": "play", "tile": [5, 3], "target": "arm:0"}, 9)
    assert move == Move("play", (3, 5), "arm:0")
    assert move.to_json() == {"kind": "play", "tile": [3, 5], "target": "arm:0"}
    assert parse_move({"kind": "draw"}) == Move("draw")
    bad_moves = [
        {"kind": "jump"},
        {"kind": "play", "tile": [1, 2]},
        {"kind": "pass", "tile": [1, 2]},
        "draw",
        {"kind": "play", "tile": [1, 2], "target": ""},
    ]
    for bad in bad_moves:
        with pytest.raises(MalformedMove):
            parse_move(bad, 9)


def test_options_unknown_game_and_bad_seat_counts() -> None:
    with pytest.raises(OptionError):
        E.new_match("dominoes", 4)
    with pytest.raises(OptionError):
        E.resolve_options(CF, True)  # type: ignore[arg-type]
    with pytest.raises(OptionError) as info:
        E.resolve_options(CF, 4, {"bogus": 1, "also": 2})
    assert "also, bogus" in info.value.detail
