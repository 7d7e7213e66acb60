"""A finished match played again from its seed and its move log, one move at a time."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games import bots, engine
from games.models import Match, Move, Round


@dataclass
class Step:
    """The match just before ``move``: ``state`` (updated in place once the step is left) and
    the public log of its round so far (unredacted: the round's opening, then each move's
    events)."""

    move: Move
    state: Any
    log: list[list[dict[str, Any]]]

    def seat_info(self) -> bots.SeatInfo:
        """What the seat to move knew: its view and the log redacted for it, never the rest."""
        return bots.seat_info(self.state, self.move.seat, self.log)


def sent(move: Move) -> dict[str, Any]:
    """A logged move as its seat sent it."""
    body: dict[str, Any] = {"kind": move.kind}
    if move.tile is not None:
        body |= {"tile": move.tile, "target": move.target}
    return body


def match_walk(*, match: Match, upto: int | None = None) -> Iterator[Step]:
    """Each move of ``match`` (up to seq ``upto``) with the match as it stood before it."""
    state = engine.new_match(match.variant, match.seat_count, match.options, match.seed)
    openings = dict(Round.objects.filter(match=match).values_list("number", "opening"))
    round_no = state.round_no
    log: list[list[dict[str, Any]]] = [openings.get(round_no) or engine.opening_events(state)]
    moves = Move.objects.filter(match=match).order_by("seq")
    if upto is not None:
        moves = moves.filter(seq__lte=upto)
    for move in moves.iterator():
        yield Step(move=move, state=state, log=log)
        state, events = engine.apply_move(state, move.seat, sent(move))
        if state.round_no != round_no:
            round_no = state.round_no
            log = [openings.get(round_no) or []]
        else:
            log.append(events)


def state_after(*, match: Match, seq: int) -> Any:
    """The engine state of ``match`` after move ``seq`` (0: as play began)."""
    state = engine.new_match(match.variant, match.seat_count, match.options, match.seed)
    for move in Move.objects.filter(match=match, seq__lte=seq).order_by("seq").iterator():
        state, _events = engine.apply_move(state, move.seat, sent(move))
    return state
