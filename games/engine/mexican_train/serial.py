"""JSON round trip of the Mexican Train state, and hand-built positions for tests.

``to_json`` gives everything, secrets included (store it server-side only). ``from_json``
accepts that, or a position with only the essential fields (see docs/engine.md)::

    {"variant": "mexican_train", "seats": 3, "options": {"max_pip": 12},
     "hands": [[[12, 5], [5, 5]], [[3, 4]], [[0, 0]]],
     "boneyard": [[1, 2], [2, 9]],            # draw order: [1, 2] is drawn first
     "layout": {"trains": {"seat:1": [[12, 3]]}, "markers": [2], "open_doubles": []},
     "turn": 0}

Trains list their tiles oriented ``[touching, open]`` from the hub outwards; a train left out
is empty. Tiles mentioned nowhere (hands, boneyard, trains, engine) are out of the game.
"""

from __future__ import annotations

from typing import Any

from ..options import MEXICAN_TRAIN, resolve_options
from ..shuffle import new_match_seed, round_seed
from ..state_base import PLAYING, match_json, read_match_json
from ..tiles import Tile, parse_tile
from .state import MTState, set_markers, setup_round


def _tiles(tiles: list[Tile]) -> list[list[int]]:
    return [[a, b] for a, b in tiles]


def to_json(state: MTState) -> dict[str, Any]:
    """The whole state as JSON-ready data (the match seed included)."""
    names = state.target_names
    return {
        **match_json(state),
        "hands": [_tiles(h) for h in state.hands],
        "boneyard": _tiles(state.boneyard[::-1]),
        "layout": {
            "engine": state.engine,
            "trains": {names[t]: _tiles(tiles) for t, tiles in enumerate(state.trains)},
            "markers": [s for s in range(state.seats) if state.markers[s]],
            "open_doubles": [names[t] for t in state.open],
        },
        "streak": state.streak,
        "drawn": list(state.drawn) if state.drawn is not None else None,
        "opening": [dict(e) for e in state.opening],
    }


def _oriented(value: Any, max_pip: int) -> Tile:
    a, b = value
    parse_tile(value, max_pip)
    return (a, b)


def _trusted(data: dict[str, Any], seats: int) -> MTState:
    """``from_json`` of a trusted state: what it derives, none of the checks."""
    options = dict(data["options"])
    state = MTState(seats, options, data["seed"])
    read_match_json(state, data)
    layout = data["layout"]
    state.engine = layout["engine"]
    state.revealed_seeds = list(
        data.get("revealed_seeds") or [round_seed(state.seed, r) for r in range(1, state.round_no)]
    )
    hands = [[(a, b) for a, b in hand] for hand in data["hands"]]
    boneyard = [(a, b) for a, b in data.get("boneyard", [])]
    raw_trains = layout.get("trains") or {}
    trains = [[(a, b) for a, b in raw_trains.get(name, [])] for name in state.target_names]
    setup_round(state, hands, boneyard, trains)
    markers = set(layout.get("markers", []))
    set_markers(state, [s in markers for s in range(seats)])
    state.open = [state.target_index[name] for name in layout.get("open_doubles", [])]
    state.open = [t for t in state.open if state.left[state.ends[t]]]
    state.streak = data.get("streak", 0)
    drawn = data.get("drawn")
    state.drawn = (drawn[0], drawn[1]) if drawn is not None else None
    state.opening = [dict(e) for e in data.get("opening", [])]
    state.turn = data.get("turn", state.first_seat()) if state.status == PLAYING else None
    return state


def from_json(data: dict[str, Any], *, trusted: bool = False) -> MTState:
    """A state from ``to_json`` output or a hand-built position (``ValueError`` if inconsistent).

    ``trusted``: ``data`` is ``to_json`` output the server stored itself; the checks that only
    find a position inconsistent are skipped (the replay check, ``verify_match``, compares what
    was stored with a replay), what the state derives from it is built the same.
    """
    if data.get("variant") != MEXICAN_TRAIN:
        raise ValueError("Not a Mexican Train state.")
    seats = data["seats"]
    if trusted:
        return _trusted(data, seats)
    options = resolve_options(MEXICAN_TRAIN, seats, data.get("options"))
    top = options["max_pip"]
    seed = data.get("seed") or new_match_seed()
    state = MTState(seats, options, seed)
    read_match_json(state, data)
    round_no = state.round_no
    layout = data.get("layout") or {}
    state.engine = layout.get("engine", top - (round_no - 1))
    state.revealed_seeds = list(
        data.get("revealed_seeds") or [round_seed(seed, r) for r in range(1, round_no)]
    )
    hands = [[parse_tile(t, top) for t in hand] for hand in data["hands"]]
    boneyard = [parse_tile(t, top) for t in data.get("boneyard", [])]
    names = state.target_names
    raw_trains = layout.get("trains") or {}
    unknown = set(raw_trains) - set(names)
    if unknown or len(hands) != seats:
        raise ValueError(f"Bad position: unknown trains {sorted(unknown)} or wrong hand count.")
    trains = [[_oriented(t, top) for t in raw_trains.get(name, [])] for name in names]
    for tiles in trains:
        end = state.engine
        for a, b in tiles:
            if a != end:
                raise ValueError(f"Train tile {[a, b]} does not touch open end {end}.")
            end = b
    seen = [(state.engine, state.engine)]
    seen += [t for h in hands for t in h] + boneyard
    seen += [(min(a, b), max(a, b)) for tiles in trains for a, b in tiles]
    if len(set(seen)) != len(seen):
        raise ValueError("A tile appears twice in the position.")
    setup_round(state, hands, boneyard, trains)
    markers = set(layout.get("markers", []))
    if not markers <= set(range(seats)):
        raise ValueError(f"Markers {sorted(markers)}: a marker belongs to a seat 0 … {seats - 1}.")
    set_markers(state, [s in markers for s in range(seats)])
    opened = layout.get("open_doubles", [])
    if len(set(opened)) != len(opened) or not set(opened) <= set(names):
        raise ValueError(f"Bad open doubles {opened}: each a train id, at most once.")
    state.open = [state.target_index[name] for name in opened]
    for t in state.open:
        tiles = state.trains[t]
        if not tiles or tiles[-1][0] != tiles[-1][1]:
            raise ValueError(f"Open double listed on {names[t]}, which does not end in a double.")
    # MT-OPEN-DEAD: a double that is dead already binds nobody (to_json never lists one).
    state.open = [t for t in state.open if state.left[state.ends[t]]]
    state.streak = data.get("streak", 0)
    if not isinstance(state.streak, int) or state.streak < 0:
        raise ValueError(f"Bad streak {state.streak!r}: the doubles played this turn, 0 or more.")
    drawn = data.get("drawn")
    state.drawn = parse_tile(drawn, top) if drawn is not None else None
    state.opening = [dict(e) for e in data.get("opening", [])]
    state.turn = data.get("turn", state.first_seat()) if state.status == PLAYING else None
    if state.status == PLAYING and state.turn not in range(seats):
        raise ValueError(f"Bad turn {state.turn!r}: a seat 0 … {seats - 1} must be on turn.")
    if state.drawn is not None and (
        state.status != PLAYING or state.drawn not in state.hands[state.turn]  # type: ignore[index]
    ):
        raise ValueError(f"The drawn tile {drawn} is not in the hand of the seat on turn.")
    return state
