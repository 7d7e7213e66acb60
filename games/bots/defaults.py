"""The strong bot's default move: what it plays unless its search clearly prefers another.

Better than the level-3 rule on its own (measured in play against three level-3 bots): besides
shedding pips and laying doubles, keep the hand *playable*. A move is weighed by its tile's
points (C-PIPS, so the double blank counts what it costs), plus ``FLEX`` for every tile left in
the hand that the table will still take next turn, plus a bonus for a double (a bigger one when
the hand holds a tile to follow it up).

- Chicken Foot: every open end is shared; a double opens three toes of its number.
- Mexican Train: the trains open to the seat next turn are its own (a marker there is lifted by
  playing on it), the Mexican Train and the trains with a marker; a tile matching its own
  train's end counts extra (its own train is the one nobody can take from it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import CHICKENFOOT, Move, Tile

#: Weight of each tile left playable next turn, in points.
FLEX = {CHICKENFOOT: 10, "mexican_train": 6}
#: Mexican Train: weight of each tile left that matches the seat's own train.
OWN_TRAIN = 4
#: A double: the bonus with a tile to follow it up, and without one.
DOUBLE_FOLLOWED, DOUBLE_ALONE = 200, 130


def _points(a: int, b: int, double_blank: int) -> int:
    return double_blank if a == b == 0 else a + b


def chickenfoot_choice(
    moves: Sequence[Move], hand: Sequence[Tile], ends: dict[str, int], double_blank: int
) -> int:
    """The index of the default move; ``ends`` maps every open end to the number it needs."""
    open_count: dict[int, int] = {}
    for pip in ends.values():
        open_count[pip] = open_count.get(pip, 0) + 1
    best, top = 0, -1e9
    for i, move in enumerate(moves):
        tile = move[1]
        if tile is None:
            continue
        a, b = tile
        need = ends[move[2]]  # type: ignore[index]
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
        weight = _points(a, b, double_blank) + FLEX[CHICKENFOOT] * flex
        if a == b:
            weight += DOUBLE_FOLLOWED if follow else DOUBLE_ALONE
        if weight > top:
            best, top = i, weight
    return best


def mexican_train_choice(
    moves: Sequence[Move],
    hand: Sequence[Tile],
    ends: dict[str, int],
    own: str,
    marked: Sequence[str],
    double_blank: int,
) -> int:
    """The index of the default move; ``ends`` maps every train to its open end, ``marked``
    lists the other seats' trains that carry a marker."""
    best, top = 0, -1e9
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
        if a == b:
            weight += DOUBLE_FOLLOWED if follow else DOUBLE_ALONE
        if weight > top:
            best, top = i, weight
    return best


def default_choice(view: dict[str, Any], moves: Sequence[Move]) -> int:
    """The default move for the seat of ``view`` among ``moves`` (an index)."""
    hand = [(a, b) if a <= b else (b, a) for a, b in view["hand"]]
    double_blank = view["options"]["double_blank_points"]
    layout = view["layout"]
    if view["variant"] == CHICKENFOOT:
        chains = list(layout["arms"]) + [toe for foot in layout["feet"] for toe in foot["toes"]]
        ends = {c["id"]: c["open"] for c in chains if c["open"] is not None}
        return chickenfoot_choice(moves, hand, ends, double_blank)
    seat = view["seat"]
    trains = layout["trains"]
    ends = {t["id"]: t["open_end"] for t in trains}
    marked = [t["id"] for t in trains if t["marker"] and t["owner"] not in (None, seat)]
    return mexican_train_choice(moves, hand, ends, f"seat:{seat}", marked, double_blank)
