"""Engine positions built from what a seat sees: the view's table, and hands given to the seats.

``table_from_view`` reads the public table of a seat's view in the engine's hand-built position
form (docs/engine.md, "State and positions"); ``position`` completes it with hands and a
boneyard, and ``engine.from_json`` turns it into a state that ``legal_moves`` and
``apply_move`` play on. A position keeps the round it is in as the match's last round, so a
rollout ends with the round (no next round is dealt) and ``state.scores[-1]`` is its score.
"""

from __future__ import annotations

from typing import Any

from games.engine import CHICKENFOOT, Tile
from games.engine.tiles import full_set

#: Seed and commitments of a determinised position: never a real round's (nothing to hide).
_SEED = "0" * 64


def tile_index(max_pip: int) -> tuple[list[Tile], dict[Tile, int]]:
    """The set's tiles in canonical order, and each tile's index (its bit in a tile mask)."""
    tiles = full_set(max_pip)
    return tiles, {t: i for i, t in enumerate(tiles)}


def norm(value: Any) -> Tile:
    """A tile from JSON or an oriented pair, low pip first."""
    a, b = value
    return (a, b) if a <= b else (b, a)


def table_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """The public part of a position: variant, options, round, turn, layout, drawn tile."""
    options = dict(view["options"])
    options["rounds"] = view["round"]  # the round in play is the last: a rollout ends with it
    base: dict[str, Any] = {
        "variant": view["variant"],
        "seats": view["seats"],
        "options": options,
        "seed": _SEED,
        "round_no": view["round"],
        "turn": view["turn"],
        "move_no": view["move_no"],
        "commitments": [_SEED],
        "revealed_seeds": [_SEED],
        "drawn": view.get("drawn"),
    }
    layout = view["layout"]
    if view["variant"] == CHICKENFOOT:
        chains = {arm["id"]: arm["tiles"] for arm in layout["arms"]}
        feet = []
        for foot in layout["feet"]:
            feet.append({"double": foot["double"][0], "on": foot["on"], "status": foot["status"]})
            for toe in foot["toes"]:
                chains[toe["id"]] = toe["tiles"]
        base["starter"] = view["starter"]
        base["layout"] = {
            "start_double": view["start_double"][0],
            "chains": chains,
            "feet": feet,
        }
    else:
        base["layout"] = {
            "engine": layout["engine"][0],
            "trains": {train["id"]: train["tiles"] for train in layout["trains"]},
            "markers": list(layout["markers"]),
            "open_doubles": list(layout["open_doubles"]),
        }
        base["streak"] = view["doubles_this_turn"]
    return base


def table_tiles(view: dict[str, Any]) -> list[Tile]:
    """Every tile on the table of ``view``, the start double (or engine) included."""
    layout = view["layout"]
    out: list[Tile] = [norm(view["start_double"])]
    if view["variant"] == CHICKENFOOT:
        chains = [arm["tiles"] for arm in layout["arms"]]
        chains += [toe["tiles"] for foot in layout["feet"] for toe in foot["toes"]]
    else:
        chains = [train["tiles"] for train in layout["trains"]]
    for chain in chains:
        out.extend(norm(t) for t in chain)
    return out


def position(
    table: dict[str, Any], hands: list[list[Tile]], boneyard: list[Tile]
) -> dict[str, Any]:
    """``table`` with ``hands`` (one per seat) and ``boneyard`` (draw order): a whole position."""
    return {**table, "hands": hands, "boneyard": boneyard}
