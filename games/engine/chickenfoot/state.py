"""The Chicken Foot state: one mutable object per match, and its exact JSON form.

The table is kept as *chains*: every arm of the centre double (``arm:0`` ... ``arm:3``, or
``arm:5`` with ``spinner_arms`` 6) and every toe of a chicken foot (``foot:<k>:toe:<j>``, the
``k``-th foot of the round, ``j`` = 0, 1, 2) is a list of tiles, each oriented ``(touching pip,
outer pip)``. A chain whose last tile is a double is closed: that double opened a foot.

For speed, ``apply_move`` patches a few small derived structures in place instead of copying
anything: ``ends`` (open chain id -> the pip it needs), ``by_pip`` (pip -> open chain ids;
its order, kept exactly through JSON, is the order of ``legal_moves``), ``avail`` (pip -> the
ids that accept a tile *right now*: ``by_pip`` itself, or a small dict while CF-SPINNER or
CF-FOOT restricts play), ``pip_tiles``
(per seat, pip -> the tiles of the hand carrying it) and ``unplayed`` (pip -> how many tiles
carrying it are still in hands or the boneyard: CF-FOOT-DEAD and blocked detection in O(1)).
"""

from __future__ import annotations

import re
from typing import Any

from ..options import CHICKENFOOT, resolve_options
from ..state_base import PLAYING, MatchStateBase, match_json, read_match_json
from ..tiles import Tile, tile_json

#: Seed of a hand-built position that gives none (documented in docs/engine.md).
DEFAULT_SEED = "0" * 64

ARM_IDS: tuple[str, ...] = tuple(f"arm:{i}" for i in range(6))
_TOE_IDS: list[tuple[str, str, str]] = []
TARGET_RE = re.compile(r"^(?:arm:(\d+)|foot:(\d+):toe:(\d+))$")


def toe_ids(k: int) -> tuple[str, str, str]:
    """The three toe ids of the ``k``-th chicken foot of the round."""
    while len(_TOE_IDS) <= k:
        n = len(_TOE_IDS)
        _TOE_IDS.append((f"foot:{n}:toe:0", f"foot:{n}:toe:1", f"foot:{n}:toe:2"))
    return _TOE_IDS[k]


class ChickenFootState(MatchStateBase):
    """A Chicken Foot match. Mutable; ``apply_move`` updates it in place."""

    __slots__ = (
        "arms",
        "arms_left",
        "avail",
        "boneyard",
        "by_pip",
        "chains",
        "drawn",
        "ends",
        "feet",
        "foot",
        "hands",
        "must_play_drawn",
        "opening",
        "pip_tiles",
        "release_dead_foot",
        "start_double",
        "starter",
        "toes_left",
        "unplayed",
    )

    def __init__(self, seats: int, options: dict[str, Any], seed: str) -> None:
        super().__init__(CHICKENFOOT, seats, options, seed)
        self.arms: int = options["spinner_arms"]
        self.must_play_drawn: bool = options["must_play_drawn"]
        self.release_dead_foot: bool = options["release_dead_foot"]
        #: Per round (reset by ``reset_round``):
        self.hands: list[list[Tile]] = [[] for _ in range(seats)]
        #: Reversed: ``boneyard.pop()`` draws the next tile.
        self.boneyard: list[Tile] = []
        self.start_double = 0
        self.starter = 0
        self.chains: dict[str, list[tuple[int, int]]] = {}
        self.ends: dict[str, int] = {}
        self.by_pip: dict[int, list[str]] = {}
        self.avail: dict[int, list[str]] = {}
        self.pip_tiles: list[list[list[Tile]]] = []
        #: Each foot: {"double": n, "on": chain id, "status": "open"|"completed"|"released"}.
        self.feet: list[dict[str, Any]] = []
        #: Index of the foot that restricts play now (CF-FOOT), or None.
        self.foot: int | None = None
        self.toes_left = 0
        self.arms_left = 0
        #: The tile drawn this turn while it may still be played (CF-DRAW), else None.
        self.drawn: Tile | None = None
        self.unplayed: list[int] = []
        #: Events of the current round's automatic start (CF-START), as emitted.
        self.opening: list[dict[str, Any]] = []

    def reset_round(self, start_double: int) -> None:
        """An empty table around the centre double ``start_double``."""
        top = self.options["max_pip"]
        self.start_double = start_double
        arm_ids = ARM_IDS[: self.arms]
        self.chains = {a: [] for a in arm_ids}
        self.ends = dict.fromkeys(arm_ids, start_double)
        self.feet = []
        self.foot = None
        self.toes_left = 0
        self.arms_left = self.arms
        self.drawn = None
        self.unplayed = [top + 1] * (top + 1)
        self.opening = []


def index_ends(s: ChickenFootState) -> None:
    """Recompute ``by_pip`` from ``ends``, in ``ends`` order (``to_json`` writes the ends in
    ``by_pip`` order, so a state read back iterates exactly as the original)."""
    by_pip: dict[int, list[str]] = {}
    for end, pip in s.ends.items():
        ids = by_pip.get(pip)
        if ids is None:
            by_pip[pip] = [end]
        else:
            ids.append(end)
    s.by_pip = by_pip


def restrict(s: ChickenFootState) -> None:
    """Set ``avail``: the open foot's empty toes (CF-FOOT), else the empty arms (CF-SPINNER),
    else every open end (``by_pip`` itself)."""
    chains = s.chains
    if s.foot is not None:
        ids = [t for t in toe_ids(s.foot) if not chains[t]]
        s.avail = {s.feet[s.foot]["double"]: ids}
    elif s.arms_left:
        s.avail = {s.start_double: [a for a in ARM_IDS[: s.arms] if not chains[a]]}
    else:
        s.avail = s.by_pip


def index_hands(s: ChickenFootState) -> None:
    """Recompute ``pip_tiles`` from the hands (hand order kept within each pip)."""
    pips = range(s.options["max_pip"] + 1)
    index = []
    for hand in s.hands:
        per_pip: list[list[Tile]] = [[] for _ in pips]
        for t in hand:
            per_pip[t[0]].append(t)
            if t[1] != t[0]:
                per_pip[t[1]].append(t)
        index.append(per_pip)
    s.pip_tiles = index


def count_unplayed(s: ChickenFootState) -> list[int]:
    """Per pip, the tiles carrying it still in hands or the boneyard."""
    counts = [0] * (s.options["max_pip"] + 1)
    for group in (*s.hands, s.boneyard):
        for a, b in group:
            counts[a] += 1
            if b != a:
                counts[b] += 1
    return counts


# --------------------------------------------------------------------------- JSON


def _tiles(values: list[Any]) -> list[Tile]:
    out = []
    for v in values:
        a, b = int(v[0]), int(v[1])
        out.append((a, b) if a <= b else (b, a))
    return out


def _stored_tiles(values: list[Any]) -> list[Tile]:
    """``_tiles`` of what ``to_json`` wrote: pairs of ints, the lower first."""
    return list(map(tuple, values))  # type: ignore[arg-type]


def to_json(s: ChickenFootState) -> dict[str, Any]:
    """The whole state, secrets included (server-side storage only). Exact round trip."""
    return {
        **match_json(s),
        "hands": [[tile_json(t) for t in hand] for hand in s.hands],
        "boneyard": [tile_json(t) for t in reversed(s.boneyard)],
        "starter": s.starter,
        "drawn": tile_json(s.drawn) if s.drawn is not None else None,
        "opening": [dict(e) for e in s.opening],
        "layout": {
            "start_double": s.start_double,
            "chains": {cid: [[x, y] for x, y in chain] for cid, chain in s.chains.items()},
            "feet": [dict(f) for f in s.feet],
            "ends": [[cid, pip] for pip, ids in s.by_pip.items() for cid in ids],
        },
    }


def _derive_ends(s: ChickenFootState, feet: list[dict[str, Any]]) -> dict[str, int]:
    """Open chain ends in canonical order (arms, then each foot's toes), checking the chains."""
    ends: dict[str, int] = {}
    bases = dict.fromkeys(ARM_IDS[: s.arms], s.start_double)
    for k, foot in enumerate(feet):
        for t in toe_ids(k):
            bases[t] = foot["double"]
    unknown = set(s.chains) - set(bases)
    if unknown:
        raise ValueError(f"Layout has chains that do not exist: {sorted(unknown)}.")
    closed_by = {foot["on"]: foot["double"] for foot in feet}
    for cid, base in bases.items():
        chain = s.chains.setdefault(cid, [])
        pip = base
        for i, (x, y) in enumerate(chain):
            if x != pip:
                raise ValueError(f"Chain {cid}: tile {i} [{x}, {y}] does not touch pip {pip}.")
            pip = y
            if x == y and i != len(chain) - 1:
                raise ValueError(f"Chain {cid}: a double must end its chain (it opens a foot).")
        if chain and chain[-1][0] == chain[-1][1]:
            if closed_by.get(cid) != chain[-1][0]:
                raise ValueError(f"Chain {cid} ends in a double but no foot is recorded on it.")
            continue
        if cid in closed_by:
            raise ValueError(f"Foot on {cid} but that chain does not end in its double.")
        ends[cid] = pip
    return ends


def _feet_read(s: ChickenFootState) -> None:
    """The arms still empty, and each foot's status: the open one (``foot``, its empty toes),
    a foot stored open whose toes are all played as completed; ``ValueError`` for feet that
    cannot be (CF-FOOT)."""
    s.arms_left = sum(1 for a in ARM_IDS[: s.arms] if not s.chains[a])
    s.foot = None
    s.toes_left = 0
    for k, foot in enumerate(s.feet):
        empty = sum(1 for t in toe_ids(k) if not s.chains[t])
        status = foot["status"]
        if status == "open":
            if not empty:
                foot["status"] = "completed"
            elif s.foot is not None:
                raise ValueError("Only one chicken foot can be open at a time (CF-FOOT).")
            else:
                s.foot, s.toes_left = k, empty
        elif status == "completed":
            if empty:
                raise ValueError(f"foot:{k} is 'completed' but has an empty toe (CF-FOOT).")
        elif status != "released":
            raise ValueError(
                f"foot:{k} has status {status!r}: a foot is open, completed or released."
            )


def _trusted_rest(s: ChickenFootState, ends: dict[str, int]) -> ChickenFootState:
    """``from_json``'s derived parts of a trusted state: its open ends as stored, the feet."""
    for cid in (*ARM_IDS[: s.arms], *(t for k in range(len(s.feet)) for t in toe_ids(k))):
        s.chains.setdefault(cid, [])
    s.ends = ends
    _feet_read(s)
    s.unplayed = count_unplayed(s)
    index_hands(s)
    index_ends(s)
    restrict(s)
    return s


def from_json(data: dict[str, Any], *, trusted: bool = False) -> ChickenFootState:
    """A state from ``to_json`` output or from a hand-built position (see docs/engine.md).

    ``trusted``: ``data`` is ``to_json`` output the server stored itself; the checks that only
    find a position inconsistent are skipped (the replay check, ``verify_match``, compares what
    was stored with a replay), what the state derives from it is built the same.
    """
    seats = data["seats"]
    if trusted:
        options = dict(data["options"])
    else:
        options = resolve_options(CHICKENFOOT, seats, data.get("options"))
    s = ChickenFootState(seats, options, data.get("seed") or DEFAULT_SEED)
    read_match_json(s, data)
    s.turn = data.get("turn")
    s.revealed_seeds = list(data.get("revealed_seeds", []))
    tiles = _stored_tiles if trusted else _tiles
    s.hands = [tiles(h) for h in data["hands"]]
    if len(s.hands) != seats:
        raise ValueError(f"{seats} seats need {seats} hands; got {len(s.hands)}.")
    s.boneyard = list(reversed(tiles(data.get("boneyard", []))))
    layout = data.get("layout") or {}
    top = options["max_pip"]
    s.start_double = layout.get("start_double", top - s.round_no + 1)
    chains = layout.get("chains", {}).items()
    if trusted:
        s.chains = {cid: list(map(tuple, chain)) for cid, chain in chains}
    else:
        s.chains = {cid: [(int(x), int(y)) for x, y in chain] for cid, chain in chains}
    s.feet = [
        {"double": f["double"], "on": f["on"], "status": f.get("status", "open")}
        for f in layout.get("feet", [])
    ]
    drawn = data.get("drawn")
    s.drawn = _tiles([drawn])[0] if drawn is not None else None
    s.starter = data.get("starter", (s.turn - 1) % seats if s.turn is not None else 0)
    s.opening = [dict(e) for e in data.get("opening", [])]

    if trusted and "ends" in layout:
        return _trusted_rest(s, {cid: pip for cid, pip in layout["ends"]})  # noqa: C416
    ends = _derive_ends(s, s.feet)
    if "ends" in layout:
        given = {cid: pip for cid, pip in layout["ends"]}  # noqa: C416 - pairs in JSON order
        if given != ends:
            raise ValueError(f"Layout 'ends' {given} does not match the chains {ends}.")
        ends = given  # in ``by_pip`` order
    s.ends = ends
    _feet_read(s)

    seen: set[Tile] = set()
    on_table = [(min(x, y), max(x, y)) for chain in s.chains.values() for x, y in chain]
    for t in (*[t for h in s.hands for t in h], *s.boneyard, *on_table, (s.start_double,) * 2):
        if t in seen:
            raise ValueError(f"Tile {list(t)} appears twice.")
        if not 0 <= t[0] <= t[1] <= top:
            raise ValueError(f"Tile {list(t)} is not in a double-{top} set.")
        seen.add(t)
    s.unplayed = count_unplayed(s)
    for k, foot in enumerate(s.feet):
        if foot["status"] == "released" and (s.unplayed[foot["double"]] or not s.release_dead_foot):
            raise ValueError(
                f"foot:{k} is 'released' but tiles of its number are still in play, or "
                "release_dead_foot is off (CF-FOOT-DEAD): it would still bind."
            )
    if s.drawn is not None and (s.turn is None or s.drawn not in s.hands[s.turn]):
        raise ValueError("The drawn tile must be in the hand of the seat on turn (CF-DRAW).")
    index_hands(s)
    index_ends(s)
    restrict(s)
    if s.foot is not None and s.unplayed[s.feet[s.foot]["double"]] == 0 and s.status == PLAYING:
        raise ValueError(
            "The open foot can never be completed: the engine would already have "
            "released it or ended the round (CF-FOOT-DEAD)."
        )
    return s
