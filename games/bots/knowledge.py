"""What a seat knows of the hidden tiles, read from its view and the public move log.

The tiles a seat cannot see (the other hands and the boneyard) are *unseen*. The log narrows
where they can be: a seat that draws, or passes without drawing, holds no tile it could have
played then (CF-MUST, MT-MUST); a drawn tile that passes the turn in the same move could not
be played either. Each unseen tile of a hand is a *slot* with a mask of the tiles it cannot be
(bit ``i`` = tile ``i`` of the set in canonical order). A slot gets the seat's voids from the
moment it joined the hand: a tile drawn later is not bound by an earlier pass.

Which tiles a seat "could have played" is asked of the engine itself: the public table at that
moment, with every tile off the table given to that seat, and ``legal_moves``.

Besides those certainties (the rules), an *opponent model*: a seat is assumed to play as most
players and the heuristic bots do, the double first, else the heaviest tile (``preference``).
A seat that played a tile then held none it would have preferred among those it could play:
each slot of its hand gets those tiles in a second mask (``prefs``). The model is only a
likelihood: a seat whose plays contradict it (a tile every slot's model excludes) loses its
model masks for the round, and a deal is sampled under the model when one fits, else under the
rules alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from games import engine
from games.engine import CHICKENFOOT, PLAY, Tile

from .position import norm, position, table_from_view, table_tiles, tile_index

Event = dict[str, Any]

#: ``PublicTable.playable`` by table (each decision reads the round's log again: the tables
#: met at earlier decisions are answered from here), cleared when it holds this many.
PLAYABLE_CACHE = 4096
_PLAYABLE: dict[str, frozenset[Tile]] = {}


class PublicTable:
    """The table as the log builds it up, event by event, from a round's ``round_started``."""

    def __init__(self, view: dict[str, Any], start: Event) -> None:
        self.view = view
        self.variant = view["variant"]
        self.double = start["start_double"][0]
        table = table_from_view(view)
        if self.variant == CHICKENFOOT:
            arms = view["options"]["spinner_arms"]
            table["layout"] = {
                "start_double": self.double,
                "chains": {f"arm:{i}": [] for i in range(arms)},
                "feet": [],
            }
            table["starter"] = start["starter"]
        else:
            names = [f"seat:{i}" for i in range(view["seats"])] + ["mexican"]
            table["layout"] = {
                "engine": self.double,
                "trains": {name: [] for name in names},
                "markers": [],
                "open_doubles": [],
            }
            table["streak"] = 0
        table["drawn"] = None
        table["move_no"] = 0  # not the view's: the same table then reads the same (the cache)
        self.table = table
        self.played: set[Tile] = {(self.double, self.double)}

    def _base(self, target: str) -> int:
        if target.startswith("foot:"):
            k = int(target.split(":")[1])
            return self.table["layout"]["feet"][k]["double"]
        return self.double

    def apply(self, event: Event) -> None:
        """Record a public event's effect on the table."""
        kind = event["type"]
        layout = self.table["layout"]
        if kind == "tile_played":
            a, b = event["tile"]
            chains = layout["chains" if self.variant == CHICKENFOOT else "trains"]
            chain = chains[event["target"]]
            end = chain[-1][1] if chain else self._base(event["target"])
            chain.append((end, b if a == end else a))
            self.played.add(norm((a, b)))
            if self.variant != CHICKENFOOT:
                self.table["streak"] = self.table["streak"] + 1 if a == b else 0
        elif kind == "foot_opened":
            layout["feet"].append(
                {"double": event["tile"][0], "on": event["target"], "status": "open"}
            )
            for toe in event["toes"]:
                layout["chains"][toe] = []
        elif kind in ("foot_completed", "foot_released"):
            k = int(event["foot"].split(":")[1])
            layout["feet"][k]["status"] = "completed" if kind == "foot_completed" else "released"
        elif kind == "marker_put":
            layout["markers"].append(event["seat"])
        elif kind == "marker_lifted":
            layout["markers"].remove(event["seat"])
        elif kind == "double_opened":
            layout["open_doubles"].append(event["target"])
        elif kind in ("double_satisfied", "double_released"):
            if event["target"] in layout["open_doubles"]:
                layout["open_doubles"].remove(event["target"])
        elif kind == "passed" and self.variant != CHICKENFOOT:
            self.table["streak"] = 0

    def playable(self, seat: int, tiles: list[Tile]) -> set[Tile]:
        """The tiles ``seat`` could play now if it held every tile off the table (the engine's
        ``legal_moves`` on that position)."""
        table = {**self.table, "turn": seat}
        key = json.dumps(table, sort_keys=True)
        found = _PLAYABLE.get(key)
        if found is None:
            if len(_PLAYABLE) >= PLAYABLE_CACHE:
                _PLAYABLE.clear()
            hands: list[list[Tile]] = [[] for _ in range(self.view["seats"])]
            hands[seat] = [t for t in tiles if t not in self.played]
            # built here from the public table and tiles off it: consistent, so ``trusted``
            state = engine.from_json(position(table, hands, []), trusted=True)
            moves = engine.legal_moves(state, seat)
            found = _PLAYABLE[key] = frozenset(m.tile for m in moves if m.kind == PLAY)  # type: ignore[misc]
        return set(found)


def preference(tile: Tile) -> int:
    """The opponent model's order of tiles: doubles first, then by pips (as level 3 plays)."""
    a, b = tile
    return a + b + 100 if a == b else a + b


class Knowledge:
    """The unseen tiles and, per other seat, its hand's slots (masks of excluded tiles: by the
    rules in ``slots``, by the opponent model in ``prefs``)."""

    def __init__(self, view: dict[str, Any], log: Sequence[Sequence[Event]]) -> None:
        self.view = view
        self.me: int = view["seat"]
        self.seats: int = view["seats"]
        self.tiles, self.index = tile_index(view["options"]["max_pip"])
        hand = [norm(t) for t in view["hand"]]
        self.open_hands = bool(view["options"].get("open_hands"))
        seen = set(table_tiles(view)) | set(hand)
        if self.open_hands:  # MT open_hands: every hand lies face up, only the boneyard is hidden
            seen |= {norm(t) for h in view["hands"] for t in h}
        #: Unseen tiles, in canonical order (so a sample depends on the RNG alone).
        self.unseen: list[Tile] = [t for t in self.tiles if t not in seen]
        self.hand = hand
        #: Per seat: the masks of its unseen tiles (empty for this seat, or face-up hands).
        self.slots: list[list[int]] = [[] for _ in range(self.seats)]
        #: Per seat, slot by slot: the masks by the rules and the opponent model together
        #: (``None``: the seat contradicted the model).
        self.prefs: list[list[int] | None] = [[] for _ in range(self.seats)]
        if self.open_hands:
            return
        self._read(log)
        self._reconcile()

    # ----------------------------------------------------------------- reading the log

    def _mask(self, tiles: set[Tile]) -> int:
        mask = 0
        for t in tiles:
            mask |= 1 << self.index[t]
        return mask

    def _read(self, log: Sequence[Sequence[Event]]) -> None:
        round_no = self.view["round"]
        moves: list[Sequence[Event]] = []
        start: Event | None = None
        for events in log:
            for i, event in enumerate(events):
                if event.get("type") == "round_started" and event.get("round") == round_no:
                    start, moves = event, [events[i + 1 :]]
                    break
            else:
                if start is not None:
                    moves.append(events)
        hand_size = self.view["options"]["hand_size"]
        self.slots = [[0] * hand_size if s != self.me else [] for s in range(self.seats)]
        self.prefs = [[0] * hand_size if s != self.me else [] for s in range(self.seats)]
        if start is None:
            return  # no log of this round: nothing narrows the deal
        table = PublicTable(self.view, start)
        placed = self.view["variant"] != CHICKENFOOT
        pending = [False] * self.seats  # drew a tile it may still play (it stayed on turn)
        for events in moves:
            skip = -1
            for i, event in enumerate(events):
                kind = event["type"]
                seat = event.get("seat")
                if i == skip:
                    pass
                elif kind == "start_double_placed":
                    placed = True
                    self._remove(seat, norm(event["tile"]), pending)
                elif kind == "drew" and seat != self.me:
                    if not placed:  # CF-START: drawing for the start double
                        self._add(seat, 0)
                        continue
                    void = self._mask(table.playable(seat, self.tiles))
                    slots = self.slots[seat]
                    slots[:] = [m | void for m in slots]
                    nxt = events[i + 1] if i + 1 < len(events) else None
                    if nxt is not None and nxt["type"] == "passed" and nxt["seat"] == seat:
                        self._add(seat, void)  # the drawn tile did not fit either
                        skip = i + 1
                        pending[seat] = False
                    else:
                        self._add(seat, 0)
                        pending[seat] = True
                elif kind == "passed" and seat != self.me:
                    if pending[seat]:
                        pending[seat] = False  # CF: declined a drawn tile that fits
                    else:
                        void = self._mask(table.playable(seat, self.tiles))
                        self.slots[seat][:] = [m | void for m in self.slots[seat]]
                elif kind == "tile_played" and seat != self.me:
                    tile = norm(event["tile"])
                    if not pending[seat] and self.prefs[seat] is not None:
                        self._prefer(seat, tile, table)
                    self._remove(seat, tile, pending)
                table.apply(event)

    def _add(self, seat: int, void: int) -> None:
        """A tile joins ``seat``'s hand, excluded from ``void`` by the rules."""
        self.slots[seat].append(void)
        prefs = self.prefs[seat]
        if prefs is not None:
            prefs.append(0)

    def _prefer(self, seat: int, tile: Tile, table: PublicTable) -> None:
        """``seat`` played ``tile``: by the model it held none it could play that it prefers."""
        key = preference(tile)
        better = {t for t in table.playable(seat, self.tiles) if preference(t) > key}
        if better:
            mask = self._mask(better)
            self.prefs[seat] = [m | mask for m in self.prefs[seat]]  # type: ignore[union-attr]

    def _remove(self, seat: int, tile: Tile, pending: list[bool]) -> None:
        """The slot ``tile`` came from leaves ``seat``'s hand (the drawn one if pending, else
        the most constrained slot that allows it: what remains is then the loosest). When no
        slot allows it by the model, the model is dropped for ``seat``."""
        if seat == self.me:
            return
        slots = self.slots[seat]
        if not slots:
            return
        prefs = self.prefs[seat]
        if pending[seat]:
            pending[seat] = False
            slots.pop()
            if prefs:
                prefs.pop()
            return
        bit = 1 << self.index[tile]
        fits = [i for i, m in enumerate(slots) if not m & bit] or list(range(len(slots)))
        if prefs is not None:
            liked = [i for i in fits if not prefs[i] & bit]
            if liked:
                fits = liked
            else:
                self.prefs[seat] = prefs = None
        i = max(fits, key=lambda i: (slots[i] | (prefs[i] if prefs else 0)).bit_count())
        slots.pop(i)
        if prefs:
            prefs.pop(i)

    def _reconcile(self) -> None:
        """Match each seat's slots to its hand count (a log cut short leaves loose slots)."""
        counts = self.view["hand_counts"]
        for seat in range(self.seats):
            if seat == self.me:
                continue
            prefs = self.prefs[seat]
            if prefs is None or len(prefs) != len(self.slots[seat]):
                prefs = [0] * len(self.slots[seat])
                self.prefs[seat] = None
            pairs = sorted(
                zip(self.slots[seat], prefs, strict=True), key=lambda p: p[0].bit_count()
            )
            want = counts[seat]
            pairs = pairs[:want] + [(0, 0)] * (want - len(pairs))
            self.slots[seat] = [m for m, _ in pairs]
            if self.prefs[seat] is not None:
                self.prefs[seat] = [m | p for m, p in pairs]

    # ----------------------------------------------------------------- sampling deals

    def sample(self, rng: Any) -> tuple[list[list[Tile]], list[Tile]]:
        """One deal of the unseen tiles consistent with the slots: hands and boneyard (draw
        order). Constraints are dropped only when repeated tries find no consistent deal."""
        view = self.view
        if self.open_hands:
            hands = [[norm(t) for t in h] for h in view["hands"]]
            pool = list(self.unseen)
            rng.shuffle(pool)
            return hands, pool[: view["boneyard"]]
        modelled = [
            (m.bit_count(), s, m)
            for s in range(self.seats)
            for m in (self.prefs[s] if self.prefs[s] is not None else self.slots[s])  # type: ignore[union-attr]
        ]
        ruled = [(m.bit_count(), s, m) for s in range(self.seats) for m in self.slots[s]]
        index = self.index
        for attempt in range(32):
            relax = attempt >= 24
            order = sorted(modelled if attempt < 8 else ruled, reverse=True)
            pool = list(self.unseen)
            rng.shuffle(pool)
            hands: list[list[Tile]] = [[] for _ in range(self.seats)]
            hands[self.me] = list(self.hand)
            for _, seat, mask in order:
                if relax:
                    mask = 0
                for i, t in enumerate(pool):
                    if not mask >> index[t] & 1:
                        hands[seat].append(pool.pop(i))
                        break
                else:
                    break
            else:
                return hands, pool[: view["boneyard"]]  # (a hand-built position may leave
                # tiles out of the game: there are then more unseen tiles than places)
        raise AssertionError("unreachable: an unconstrained deal always fits")
