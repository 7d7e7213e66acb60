"""The Mexican Train state and the deal (MT-ENGINE, MT-DEAL, MT-FIRST, MT-TRAINS).

Trains are numbered: ``0 … n-1`` are the personal trains of seats ``0 … n-1`` (0-based seats:
as in the API), and ``n`` is the shared Mexican Train. Their ids in moves and
views are ``"seat:<i>"`` and ``"mexican"``.

Everything a move touches is kept ready for O(1) work, and updated in place:

* ``ends[t]``: the open end of train ``t`` (the engine's number while the train is empty);
* ``trains[t]``: the tiles of train ``t`` *oriented*, ``(touching, open)``, hub side first;
* ``by_pip[seat][p]``: the sorted tiles of that seat's hand carrying ``p`` (a double once);
* ``left[p]``: how many tiles carrying ``p`` are not on the table (hands and boneyard), so an
  open double ``d|d`` is dead (MT-OPEN-DEAD) exactly when ``left[d] == 0``, and a round with an
  empty boneyard is blocked (MT-END) exactly when ``left[ends[t]] == 0`` for every train;
* ``markers[seat]`` and ``avail[seat]``: the seat's marker, and the trains it may play on;
* ``open``: the trains whose last tile is an open (unsatisfied, live) double, in play order;
* ``streak``: doubles played so far in this turn (MT-DOUBLE); ``drawn``: the tile drawn since
  the last play of this turn, if any;
* ``opening``: the events of the current round's automatic start (``round_started``,
  ``engine_placed``), as emitted.
"""

from __future__ import annotations

from typing import Any

from ..moves import PLAY, Move
from ..options import MEXICAN_TRAIN
from ..shuffle import commitment, deal, round_seed, shuffled
from ..state_base import MatchStateBase
from ..tiles import Tile, full_set

MEXICAN = "mexican"


class MTState(MatchStateBase):
    """A Mexican Train match: mutable, updated in place by ``apply_move``."""

    __slots__ = (
        "avail",
        "boneyard",
        "by_pip",
        "drawn",
        "ends",
        "engine",
        "hands",
        "left",
        "markers",
        "moves",
        "open",
        "opening",
        "own_double",
        "reverse",
        "streak",
        "target_index",
        "target_names",
        "trains",
    )

    def __init__(self, seats: int, options: dict[str, Any], seed: str) -> None:
        super().__init__(MEXICAN_TRAIN, seats, options, seed)
        self.reverse: bool = options["close_doubles_reverse"]
        self.own_double: bool = options["satisfy_own_double"]
        self.target_names, self.target_index, self.moves = tables(seats, options["max_pip"])
        self.engine = 0
        self.hands: list[list[Tile]] = []
        self.by_pip: list[list[list[Tile]]] = []
        self.boneyard: list[Tile] = []
        self.trains: list[list[Tile]] = []
        self.ends: list[int] = []
        self.markers: list[bool] = []
        self.avail: list[tuple[int, ...]] = []
        self.open: list[int] = []
        self.streak = 0
        self.drawn: Tile | None = None
        self.left: list[int] = []
        self.opening: list[dict[str, Any]] = []

    def first_seat(self) -> int:
        """MT-FIRST: round ``r`` starts at seat ``(r - 1) mod n``."""
        return (self.round_no - 1) % self.seats

    def round_seed(self) -> str:
        """This round's secret seed (C-SHUFFLE)."""
        return round_seed(self.seed, self.round_no)


_TABLES: dict[tuple[int, int], tuple[list[str], dict[str, int], dict[Tile, list[Move]]]] = {}


def tables(seats: int, max_pip: int) -> tuple[list[str], dict[str, int], dict[Tile, list[Move]]]:
    """Train ids, their index, and one shared ``Move`` per (tile, train), built once per shape."""
    key = (seats, max_pip)
    if key not in _TABLES:
        names = [f"seat:{i}" for i in range(seats)] + [MEXICAN]
        index = {name: i for i, name in enumerate(names)}
        moves = {t: [Move(PLAY, t, name) for name in names] for t in full_set(max_pip)}
        _TABLES[key] = (names, index, moves)
    return _TABLES[key]


_AVAIL: dict[tuple[int, int], list[tuple[int, ...]]] = {}


def set_markers(state: MTState, markers: list[bool]) -> None:
    """Install the markers and, for each seat, its available trains (MT-AVAILABLE), in order.

    ``avail[seat]``: own train, trains carrying a marker, the Mexican Train, by train index.
    Markers change only on a pass or a play on one's own train; the per-seat lists for each set
    of markers are built once per seat count and shared (they are never mutated).
    """
    n = state.seats
    state.markers = markers
    mask = 0
    for seat, up in enumerate(markers):
        if up:
            mask |= 1 << seat
    avail = _AVAIL.get((n, mask))
    if avail is None:
        avail = [(*(t for t in range(n) if t == seat or markers[t]), n) for seat in range(n)]
        _AVAIL[(n, mask)] = avail
    state.avail = avail


def setup_round(
    state: MTState,
    hands: list[list[Tile]],
    boneyard_draw_order: list[Tile],
    trains: list[list[Tile]] | None = None,
) -> None:
    """Install a round's hands, boneyard (first tile drawn first) and trains; derive the rest."""
    n = state.seats
    top = state.options["max_pip"]
    state.hands = [list(h) for h in hands]
    state.boneyard = list(reversed(boneyard_draw_order))
    state.trains = [list(t) for t in trains] if trains is not None else [[] for _ in range(n + 1)]
    state.ends = [t[-1][1] if t else state.engine for t in state.trains]
    state.by_pip = []
    for hand in state.hands:
        pips: list[list[Tile]] = [[] for _ in range(top + 1)]
        for a, b in sorted(hand):
            pips[a].append((a, b))
            if b != a:
                pips[b].append((a, b))
        state.by_pip.append(pips)
    left = [0] * (top + 1)
    for group in (*state.hands, state.boneyard):
        for a, b in group:
            left[a] += 1
            if b != a:
                left[b] += 1
    state.left = left


def start_round(state: MTState, round_no: int) -> list[dict[str, Any]]:
    """Deal round ``round_no`` and put its engine in the hub (MT-ENGINE, MT-DEAL, MT-FIRST).

    Returns the opening events, which the state also keeps as ``opening``.
    """
    n = state.seats
    state.round_no = round_no
    state.engine = state.options["max_pip"] - (round_no - 1)
    engine = (state.engine, state.engine)
    seed = state.round_seed()
    tiles = [t for t in full_set(state.options["max_pip"]) if t != engine]
    hands, boneyard = deal(shuffled(tiles, seed), n, state.options["hand_size"])
    setup_round(state, hands, boneyard[::-1])
    set_markers(state, [False] * n)
    state.open = []
    state.streak = 0
    state.drawn = None
    state.turn = state.first_seat()
    digest = commitment(seed)
    state.commitments.append(digest)
    state.opening = [
        {
            "type": "round_started",
            "round": round_no,
            "start_double": [state.engine, state.engine],
            "commitment": digest,
            "starter": state.turn,
            "turn": state.turn,
        },
        {"type": "engine_placed", "tile": [state.engine, state.engine]},
    ]
    return list(state.opening)


def new_match(seats: int, options: dict[str, Any], seed: str) -> MTState:
    """A new match (options already resolved), round 1 dealt, the engine in the hub."""
    state = MTState(seats, options, seed)
    start_round(state, 1)
    return state
