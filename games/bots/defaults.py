"""The strong bot's default move: what it plays unless its search clearly prefers another.

Better than the level-3 rule on its own (measured in play against three level-3 bots): besides
shedding pips and laying doubles, keep the hand *playable*. A move is weighed by its tile's
points (C-PIPS, so the double blank counts what it costs), plus ``FLEX`` for every tile left in
the hand that the table will still take next turn, plus a bonus for a double (a bigger one when
the hand holds a tile to follow it up).

- Chicken Foot: every open end is shared; a double opens three toes of its number. An end
  left needing a number the other seats may still hold (tiles carrying it neither on the table
  nor in this hand) costs ``SCARCE`` per such tile: ends only this seat can follow block the
  others.
- Mexican Train: the trains open to the seat next turn are its own (a marker there is lifted by
  playing on it), the Mexican Train and the trains with a marker; a tile matching its own
  train's end counts extra, and above all the longest chain the hand can still lay on its own
  train (``CHAIN`` per tile): the own train is the one nobody can take from it, so the tiles
  that do not fit that chain go elsewhere first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import CHICKENFOOT, Move, Tile

from .position import table_tiles

#: Weight of each tile left playable next turn, in points.
FLEX = {CHICKENFOOT: 15, "mexican_train": 6}
#: Chicken Foot: cost of each unseen tile carrying the number an end is left needing.
SCARCE = 8
#: Mexican Train: weight of each tile left that matches the seat's own train ...
OWN_TRAIN = 4
#: ... and of each tile of the longest chain the hand can lay on it.
CHAIN = 40
#: The chain search stops after this many steps (its best so far is then the answer).
CHAIN_STEPS = 4000
#: A double: the bonus with a tile to follow it up, and without one.
DOUBLE_FOLLOWED, DOUBLE_ALONE = 200, 130


def _points(a: int, b: int, double_blank: int) -> int:
    return double_blank if a == b == 0 else a + b


def chickenfoot_weights(
    moves: Sequence[Move],
    hand: Sequence[Tile],
    ends: dict[str, int],
    unseen: Sequence[int],
    double_blank: int,
) -> list[float]:
    """Each move's weight (the default is the heaviest); ``ends`` maps every open end to the
    number it needs,
    ``unseen[n]`` counts the tiles carrying ``n`` in other hands or the boneyard."""
    open_count: dict[int, int] = {}
    for pip in ends.values():
        open_count[pip] = open_count.get(pip, 0) + 1
    weights = [-1e9] * len(moves)
    known: dict[tuple[Tile, int], float] = {}  # a tile on ends needing the same number
    for i, move in enumerate(moves):
        tile = move[1]
        if tile is None:
            continue
        a, b = tile
        need = ends[move[2]]  # type: ignore[index]
        weight = known.get((tile, need))
        if weight is not None:
            weights[i] = weight
            continue
        outer = b if a == need else a
        after = dict(open_count)
        after[need] -= 1
        after[outer] = after.get(outer, 0) + (3 if a == b else 1)
        flex = 0
        follow = False
        for t in hand:
            if t == tile:
                continue
            x, y = t
            if after.get(x) or after.get(y):
                flex += 1
            if a == b and a in t:
                follow = True
        weight = _points(a, b, double_blank) + FLEX[CHICKENFOOT] * flex - SCARCE * unseen[outer]
        if a == b:
            weight += DOUBLE_FOLLOWED if follow else DOUBLE_ALONE
        weights[i] = known[tile, need] = weight
    return weights


def mexican_train_weights(
    moves: Sequence[Move],
    hand: Sequence[Tile],
    ends: dict[str, int],
    own: str,
    marked: Sequence[str],
    double_blank: int,
) -> list[float]:
    """Each move's weight (the default is the heaviest); ``ends`` maps every train to its open
    end, ``marked`` lists the other seats' trains that carry a marker."""
    weights = [-1e9] * len(moves)
    for i, move in enumerate(moves):
        tile = move[1]
        if tile is None:
            continue
        a, b = tile
        target = move[2]
        need = ends[target]  # type: ignore[index]
        outer = b if a == need else a
        own_end = outer if target == own else ends[own]
        open_to_me = {own_end, outer if target == "mexican" else ends["mexican"]}
        for t in marked:
            open_to_me.add(outer if t == target else ends[t])
        flex = on_own = 0
        follow = False
        for t in hand:
            if t == tile:
                continue
            x, y = t
            if x in open_to_me or y in open_to_me:
                flex += 1
            if x == own_end or y == own_end:
                on_own += 1
            if outer in (x, y):
                follow = True
        weight = _points(a, b, double_blank) + FLEX["mexican_train"] * flex + OWN_TRAIN * on_own
        weight += CHAIN * longest_chain(own_end, [t for t in hand if t != tile])
        if a == b:
            weight += DOUBLE_FOLLOWED if follow else DOUBLE_ALONE
        weights[i] = weight
    return weights


def longest_chain(end: int, tiles: list[Tile]) -> int:
    """How many of ``tiles`` the longest chain from ``end`` lays (see ``chain``)."""
    return len(chain(end, tiles))


def chain(end: int, tiles: list[Tile]) -> list[Tile]:
    """The longest chain of ``tiles`` from ``end``, in laying order (depth first, bounded by
    ``CHAIN_STEPS``: the longest found by then)."""
    steps = [CHAIN_STEPS]

    def walk(end: int, tiles: list[Tile]) -> list[Tile]:
        best: list[Tile] = []
        for i, tile in enumerate(tiles):
            if steps[0] <= 0:
                break
            x, y = tile
            if x == end or y == end:
                steps[0] -= 1
                rest = walk(y if x == end else x, tiles[:i] + tiles[i + 1 :])
                if len(rest) + 1 > len(best):
                    best = [tile, *rest]
                    if len(best) == len(tiles):
                        break
        return best

    return walk(end, tiles)


def unseen_counts(max_pip: int, seen: Sequence[Tile]) -> list[int]:
    """Per number, the tiles carrying it that are not in ``seen`` (the table and the hand)."""
    counts = [max_pip + 1] * (max_pip + 1)  # a double-N set has N + 1 tiles per number
    for a, b in seen:
        counts[a] -= 1
        if b != a:
            counts[b] -= 1
    return counts


def best(weights: Sequence[float]) -> int:
    """The index of the heaviest (the first of ties)."""
    return max(range(len(weights)), key=lambda i: (weights[i], -i))


def default_weights(view: dict[str, Any], moves: Sequence[Move]) -> list[float]:
    """The default's weight of each of ``moves`` for the seat of ``view``."""
    hand = [(a, b) if a <= b else (b, a) for a, b in view["hand"]]
    double_blank = view["options"]["double_blank_points"]
    layout = view["layout"]
    if view["variant"] == CHICKENFOOT:
        chains = list(layout["arms"]) + [toe for foot in layout["feet"] for toe in foot["toes"]]
        ends = {c["id"]: c["open"] for c in chains if c["open"] is not None}
        unseen = unseen_counts(view["options"]["max_pip"], [*table_tiles(view), *hand])
        return chickenfoot_weights(moves, hand, ends, unseen, double_blank)
    seat = view["seat"]
    trains = layout["trains"]
    ends = {t["id"]: t["open_end"] for t in trains}
    marked = [t["id"] for t in trains if t["marker"] and t["owner"] not in (None, seat)]
    return mexican_train_weights(moves, hand, ends, f"seat:{seat}", marked, double_blank)
