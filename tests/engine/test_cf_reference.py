"""Chicken Foot against a slow reference written from docs/rules.md §2 alone (a differential test).

The reference below reads only the JSON form of a position (hands, boneyard in draw order,
chains, feet, turn, drawn tile) and knows nothing of the engine's indexes. For many random
positions reached by random play it computes the legal moves and the outcome of every move —
the next position, or the end of the round with its scores, and the start of the next round
(CF-START) — and the engine must agree exactly.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games import engine as E
from games.engine.errors import EngineError
from games.engine.moves import Move
from games.engine.shuffle import deal, round_seed, shuffled
from games.engine.tiles import full_set

CF = "chickenfoot"
Tile = tuple[int, int]


# --------------------------------------------------------------------------- the reference


def _norm(t: Any) -> Tile:
    a, b = int(t[0]), int(t[1])
    return (a, b) if a <= b else (b, a)


def ref_chain_bases(data: dict[str, Any]) -> dict[str, int]:
    """Every chain of the table and the number its first tile must carry."""
    layout = data["layout"]
    centre = layout["start_double"]
    bases = {f"arm:{i}": centre for i in range(data["options"]["spinner_arms"])}
    for k, foot in enumerate(layout["feet"]):
        for j in range(3):
            bases[f"foot:{k}:toe:{j}"] = foot["double"]
    return bases


def ref_open_ends(data: dict[str, Any]) -> dict[str, int]:
    """CF-MATCH / CF-FOOT: a chain's end is open unless its last tile is a double (a foot)."""
    chains = data["layout"]["chains"]
    out = {}
    for cid, base in ref_chain_bases(data).items():
        chain = chains.get(cid, [])
        if not chain:
            out[cid] = base
        elif chain[-1][0] != chain[-1][1]:
            out[cid] = chain[-1][1]
    return out


def ref_left(data: dict[str, Any], n: int) -> int:
    """Tiles carrying ``n`` still in some hand or in the boneyard."""
    return sum(
        1 for group in (*data["hands"], data["boneyard"]) for t in group if n in (t[0], t[1])
    )


def ref_binding_foot(data: dict[str, Any]) -> int | None:
    """CF-FOOT / CF-FOOT-DEAD: the foot that restricts play: the one with an empty toe whose
    number is still in a hand or the boneyard (a dead one restricts nobody when released)."""
    chains = data["layout"]["chains"]
    binding = [
        k
        for k, foot in enumerate(data["layout"]["feet"])
        if any(not chains.get(f"foot:{k}:toe:{j}") for j in range(3))
        and ref_left(data, foot["double"]) > 0
    ]
    assert len(binding) <= 1, binding
    return binding[0] if binding else None


def ref_allowed_ends(data: dict[str, Any]) -> dict[str, int]:
    """The open ends that accept a tile right now (CF-FOOT, then CF-SPINNER)."""
    ends = ref_open_ends(data)
    chains = data["layout"]["chains"]
    k = ref_binding_foot(data)
    if k is not None:
        return {
            f"foot:{k}:toe:{j}": ends[f"foot:{k}:toe:{j}"]
            for j in range(3)
            if not chains.get(f"foot:{k}:toe:{j}")
        }
    arms = [f"arm:{i}" for i in range(data["options"]["spinner_arms"])]
    empty = [a for a in arms if not chains.get(a)]
    if empty:
        return {a: ends[a] for a in empty}
    return ends


def ref_plays(data: dict[str, Any], tiles: list[Tile]) -> set[Move]:
    allowed = ref_allowed_ends(data)
    return {Move("play", t, end) for t in tiles for end, pip in allowed.items() if pip in t}


def ref_legal(data: dict[str, Any], seat: int) -> set[Move]:
    """CF-ONE, CF-MUST, CF-DRAW."""
    if data["status"] != "playing" or seat != data["turn"]:
        return set()
    if data["drawn"] is not None:
        out = ref_plays(data, [_norm(data["drawn"])])
        if not data["options"]["must_play_drawn"]:
            out.add(Move("pass"))
        return out
    out = ref_plays(data, [_norm(t) for t in data["hands"][seat]])
    if out:
        return out
    return {Move("draw")} if data["boneyard"] else {Move("pass")}


def ref_blocked(data: dict[str, Any]) -> bool:
    """CF-END: the boneyard is empty and no seat holds a tile some allowed end accepts."""
    if data["boneyard"]:
        return False
    return not any(ref_plays(data, [_norm(t) for t in hand]) for hand in data["hands"])


def ref_apply(data: dict[str, Any], seat: int, move: Move) -> dict[str, Any]:
    """The outcome of a legal ``move``: {"state": next position} or {"end": (reason, seat)}
    with ``data`` (a copy) holding the hands at the end."""
    d = copy.deepcopy(data)
    n = d["seats"]
    hands = d["hands"]
    if move.kind == "play":
        t = move.tile
        hands[seat] = [h for h in hands[seat] if _norm(h) != t]
        need = ref_open_ends(d)[move.target]
        oriented = [need, t[1] if t[0] == need else t[0]]
        d["layout"]["chains"].setdefault(move.target, []).append(oriented)
        d["drawn"] = None
        if t[0] == t[1]:  # CF-FOOT: a double anywhere but the centre opens a foot
            k = len(d["layout"]["feet"])
            d["layout"]["feet"].append({"double": t[0], "on": move.target, "status": "open"})
            for j in range(3):
                d["layout"]["chains"][f"foot:{k}:toe:{j}"] = []
        if not hands[seat]:
            return {"end": ("out", seat), "data": d}
        for k, foot in enumerate(d["layout"]["feet"]):
            if foot["status"] != "open":
                continue
            if all(d["layout"]["chains"][f"foot:{k}:toe:{j}"] for j in range(3)):
                foot["status"] = "completed"
            elif ref_left(d, foot["double"]) == 0:
                if not d["options"]["release_dead_foot"]:
                    return {"end": ("blocked", None), "data": d}
                foot["status"] = "released"
        d["turn"] = (seat + 1) % n
    elif move.kind == "draw":
        t = _norm(d["boneyard"].pop(0))
        hands[seat].append(list(t))
        if ref_plays(d, [t]):
            d["drawn"] = list(t)
        else:
            d["turn"] = (seat + 1) % n
    else:
        d["drawn"] = None
        d["turn"] = (seat + 1) % n
    if d["turn"] != seat and ref_blocked(d):
        return {"end": ("blocked", None), "data": d}
    return {"state": d}


def ref_points(hand: list[Any], dbp: int) -> int:
    return sum(dbp if (t[0], t[1]) == (0, 0) else t[0] + t[1] for t in hand)


def ref_round_start(seed: str, options: dict[str, Any], seats: int, r: int, first: int) -> dict:
    """C-ROUNDS / CF-DEAL / CF-START: deal round ``r`` and find who places its start double."""
    top = options["max_pip"]
    double = top - (r - 1)
    tiles = shuffled(full_set(top), round_seed(seed, r))
    hands = [tiles[i * options["hand_size"] : (i + 1) * options["hand_size"]] for i in range(seats)]
    boneyard = tiles[seats * options["hand_size"] :]
    assert deal(tiles, seats, options["hand_size"])[0] == hands
    holder = next((i for i, h in enumerate(hands) if (double, double) in h), None)
    seat = first
    draws = []
    while holder is None:
        t = boneyard.pop(0)
        hands[seat].append(t)
        draws.append(seat)
        if t == (double, double):
            holder = seat
        else:
            seat = (seat + 1) % seats
    hands[holder].remove((double, double))
    return {
        "double": double,
        "holder": holder,
        "hands": hands,
        "boneyard": boneyard,
        "draws": draws,
    }


# --------------------------------------------------------------------------- the comparison


def norm_state(data: dict[str, Any]) -> dict[str, Any]:
    """What the reference decides, from a ``to_json`` form."""
    return {
        "hands": [sorted(_norm(t) for t in h) for h in data["hands"]],
        "boneyard": [_norm(t) for t in data["boneyard"]],
        "chains": {c: [list(x) for x in ch] for c, ch in data["layout"]["chains"].items() if ch},
        "feet": [(f["double"], f["on"], f["status"]) for f in data["layout"]["feet"]],
        "turn": data["turn"],
        "drawn": _norm(data["drawn"]) if data["drawn"] is not None else None,
    }


def check_next_round(
    before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    """After a round ended: the next round (if any) started as CF-START says."""
    opts = before["options"]
    r = before["round_no"]
    if r >= opts["rounds"]:
        assert after["status"] == "over"
        assert after["turn"] is None
        assert events[-1]["type"] == "match_over"
        return
    first = (before["starter"] + 1) % before["seats"]
    # A round may end at its start (hand_size 1): follow every started round.
    while True:
        r += 1
        exp = ref_round_start(before["seed"], opts, before["seats"], r, first)
        started = [e for e in events if e["type"] == "round_started" and e["round"] == r]
        assert len(started) == 1
        assert started[0]["start_double"] == [exp["double"]] * 2
        assert started[0]["starter"] == exp["holder"]
        if exp["hands"][exp["holder"]]:
            break
        if r >= opts["rounds"]:
            assert after["status"] == "over"
            assert events[-1]["type"] == "match_over"
            return
        first = (exp["holder"] + 1) % before["seats"]
    assert after["round_no"] == r
    assert after["layout"]["start_double"] == exp["double"]
    assert after["starter"] == exp["holder"]
    assert after["turn"] == (exp["holder"] + 1) % before["seats"]
    assert [list(map(_norm, h)) for h in after["hands"]] == exp["hands"]
    assert [_norm(t) for t in after["boneyard"]] == exp["boneyard"]
    drew = [e["seat"] for e in after["opening"] if e["type"] == "drew"]
    assert drew == exp["draws"]
    assert not any(after["layout"]["chains"].values())


def check_move(s: Any, seat: int, move: Move) -> list[dict[str, Any]]:
    """Apply ``move`` to the engine and to the reference; compare."""
    before = E.to_json(s)
    expected = ref_apply(before, seat, move)
    _, events = E.apply_move(s, seat, move)
    after = E.to_json(s)
    ended = [e for e in events if e["type"] == "round_ended"]
    if "state" in expected:
        assert not ended, (move, events)
        assert norm_state(after) == norm_state(expected["state"]), move
        return events
    reason, who = expected["end"]
    assert ended, (move, events, expected["end"])
    first = ended[0]
    assert (first["reason"], first["seat"]) == (reason, who), (move, events)
    hands = [sorted(_norm(t) for t in h) for h in expected["data"]["hands"]]
    assert [[tuple(t) for t in h] for h in first["hands"]] == hands
    dbp = before["options"]["double_blank_points"]
    scores = next(e for e in events if e["type"] == "round_scores")
    assert scores["scores"] == [ref_points(h, dbp) for h in hands]
    assert after["scores"][len(before["scores"])] == scores["scores"]
    check_next_round(before, after, events)
    return events


def check_legal(s: Any, refusals: bool = True) -> list[Move]:
    data = E.to_json(s)
    legal = E.legal_moves(s, s.turn)
    assert len(set(legal)) == len(legal)
    assert set(legal) == ref_legal(data, s.turn), data
    for other in range(s.seats):
        if other != s.turn:
            assert E.legal_moves(s, other) == []
    if not refusals:
        return legal
    # Whatever is not legal is refused and changes nothing.
    hand = [_norm(t) for t in data["hands"][s.turn]]
    for t in hand:
        for target in ref_chain_bases(data):
            move = Move("play", t, target)
            if move not in legal:
                with pytest.raises(EngineError):
                    E.apply_move(s, s.turn, move)
    for move in (Move("draw"), Move("pass")):
        if move not in legal:
            with pytest.raises(EngineError):
                E.apply_move(s, s.turn, move)
    assert E.to_json(s) == data
    return legal


CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (2, {"max_pip": 6, "hand_size": 3}),
    (3, {"max_pip": 6, "hand_size": 5, "release_dead_foot": False}),
    (4, {"max_pip": 6, "hand_size": 2, "must_play_drawn": True}),
    (2, {"max_pip": 6, "hand_size": 6, "spinner_arms": 6}),
    (3, {"max_pip": 6, "hand_size": 4, "spinner_arms": 6, "release_dead_foot": False}),
    (4, {}),
    (5, {"spinner_arms": 6, "double_blank_points": 0}),
    (2, {"must_play_drawn": True, "double_blank_points": 100}),
    (6, {"max_pip": 9, "release_dead_foot": False}),
    (3, {"max_pip": 12, "hand_size": 8, "rounds": 3}),
    (2, {"max_pip": 6, "hand_size": 1}),
    (7, {"max_pip": 6, "hand_size": 2, "spinner_arms": 6}),
]


#: Rounds per configuration: about ten seconds in all (the bigger sets cost more per round).
ROUNDS = [28, 21, 28, 14, 21, 8, 8, 8, 8, 3, 28, 21]


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_engine_agrees_with_the_reference_over_random_matches(config: int) -> None:
    seats, options = CONFIGS[config]
    rounds = 0
    match = 0
    while rounds < ROUNDS[config]:
        s = E.new_match(CF, seats, options, f"ref-{config}-{match}")
        rng = random.Random(f"{config}-{match}")
        # A bias towards declining drawn tiles sometimes, to reach those positions too.
        decline = rng.random() < 0.5
        step = 0
        while s.status == "playing":
            step += 1
            legal = check_legal(s, refusals=step % 3 == 0)
            data = E.to_json(s)
            again = E.from_json(data)
            assert E.to_json(again) == data
            assert E.legal_moves(again, s.turn) == legal  # same order: play goes on identically
            if decline and Move("pass") in legal and rng.random() < 0.5:
                move = Move("pass")
            else:
                move = rng.choice(legal)
            events = check_move(s, s.turn if s.turn is not None else -1, move)
            rounds += sum(1 for e in events if e["type"] == "round_ended")
        match += 1
