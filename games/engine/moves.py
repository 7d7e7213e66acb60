"""What a client sends (docs/rules.md §5): ``play``, ``draw`` or ``pass``."""

from __future__ import annotations

from typing import Any, NamedTuple

from games.engine.text import N_

from .errors import MalformedMove
from .tiles import Tile, parse_tile, tile_json

PLAY = "play"
DRAW = "draw"
PASS = "pass"
KINDS = (PLAY, DRAW, PASS)


class Move(NamedTuple):
    """One move. ``tile`` and ``target`` are set for ``play`` only."""

    kind: str
    tile: Tile | None = None
    target: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The move as JSON, as clients send it."""
        if self.kind == PLAY:
            return {"kind": PLAY, "tile": tile_json(self.tile), "target": self.target}  # type: ignore[arg-type]
        return {"kind": self.kind}


def parse_move(data: Any, max_pip: int | None = None) -> Move:
    """Read a move from JSON (or pass a ``Move`` through); raise ``MalformedMove`` if malformed."""
    if isinstance(data, Move):
        return data
    if not isinstance(data, dict):
        raise MalformedMove(
            N_('A move is an object like {"kind": "play", "tile": [3, 5], "target": "arm:0"}.')
        )
    kind = data.get("kind")
    if kind not in KINDS:
        raise MalformedMove(
            N_(
                "Move kind must be one of %(kinds)s; got %(kind)r.",
                kinds=", ".join(KINDS),
                kind=kind,
            ),
            field="kind",
        )
    if kind != PLAY:
        extra = sorted(k for k in data if k != "kind" and data[k] is not None)
        if extra:
            raise MalformedMove(
                N_("A %(kind)s move takes no %(extra)s.", kind=kind, extra=", ".join(extra)),
                field=extra[0],
                errors={
                    name: [N_("A %(kind)s move takes no %(name)s.", kind=kind, name=name)]
                    for name in extra
                },
            )
        return Move(kind)
    found: list[MalformedMove] = []
    target = data.get("target")
    if not isinstance(target, str) or not target:
        found.append(
            MalformedMove(
                N_('A play needs a target: an end id from the legal-moves list (e.g. "arm:0").'),
                field="target",
            )
        )
    try:
        played = parse_tile(data.get("tile"), max_pip)
    except MalformedMove as error:
        found.append(error)
    if found:
        raise MalformedMove.combined(found)
    return Move(PLAY, played, target)


def move_error(data: Any, max_pip: int | None = None) -> MalformedMove | None:
    """What ``parse_move`` finds wrong with ``data`` (its ``errors`` by field), or ``None``."""
    try:
        parse_move(data, max_pip)
    except MalformedMove as error:
        return error
    return None
