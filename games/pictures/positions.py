"""Which position a picture shows: the table now, a finished round's end, or the table after a move.

Past positions are rebuilt from the round's stored snapshot and its logged moves (the snapshot
holds the round's secrets, which stay on the server: only ``engine.view`` of the rebuilt state,
for the caller's seat, leaves this module).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.models import Match, Move, Round
from games.problems import MatchNotStarted, MoveNotFound, RoundNotFound


@dataclass(frozen=True)
class BoardPosition:
    """A seat's view of one position, what to call it, and the hands its round's end revealed."""

    view: dict[str, Any]
    caption: str
    revealed_hands: list[list[list[int]]] | None = None


def position_round(*, match: Match, round_no: int | None, seq: int | None) -> Round | None:
    """The round the position asked for lies in (``None``: the table now), or the problem with
    the question: the match has not started, or has no such round or move.

    Without ``round_no`` and ``seq``: the table now. With ``round_no``: that round's final
    position once it has ended (the table now while it runs). With ``seq``: the table right
    after move ``seq`` (which must belong to ``round_no`` when both are given).
    """
    if match.state is None:
        raise MatchNotStarted(
            _("Match %(match)s has not started: there is no table yet.") % {"match": match.pk}
        )
    row: Round | None = None
    if seq is not None:
        move = Move.objects.filter(match=match, seq=seq).select_related("round").first()
        if move is None:
            raise MoveNotFound(
                _("Match %(match)s has no move %(seq)s.") % {"match": match.pk, "seq": seq}
            )
        row = move.round
        if round_no is not None and row.number != round_no:
            raise MoveNotFound(
                _("Move %(seq)s of match %(match)s is in round %(number)s.")
                % {"seq": seq, "match": match.pk, "number": row.number}
            )
    elif round_no is not None:
        row = Round.objects.filter(match=match, number=round_no).first()
        if row is None:
            raise RoundNotFound(
                _("Match %(match)s has no round %(round_no)s (yet).")
                % {"match": match.pk, "round_no": round_no}
            )
    return row


def board_position_in(
    *, match: Match, seat: int | None, row: Round | None, seq: int | None
) -> BoardPosition:
    """The position in round ``row`` (from ``position_round``) after ``seq``, or at its end."""
    state = engine.from_json(match.state, trusted=True)
    if row is None or (seq is None and row.status == Round.Status.PLAYING):
        return BoardPosition(view=engine.view(state, seat), caption="")
    return _replayed(match=match, row=row, seat=seat, seq=seq)


def _replayed(*, match: Match, row: Round, seat: int | None, seq: int | None) -> BoardPosition:
    """Replay round ``row`` from its snapshot up to ``seq`` (its end without one).

    The round is replayed as if it were the match's last, so the move that ends it leaves its
    table in place instead of dealing the next round.
    """
    data = copy.deepcopy(row.snapshot)
    data["options"]["rounds"] = row.number
    state = engine.from_json(data)
    moves = (
        Move.objects.filter(round=row).order_by("seq").only("seq", "seat", "kind", "tile", "target")
    )
    if seq is not None:
        moves = moves.filter(seq__lte=seq)
    revealed = None
    ended: dict[str, Any] | None = None
    for move in moves:
        sent: dict[str, Any] = {"kind": move.kind}
        if move.tile is not None:
            sent |= {"tile": move.tile, "target": move.target}
        state, events = engine.apply_move(state, move.seat, sent)
        ended = next((e for e in events if e.get("type") == "round_ended"), ended)
    view = engine.view(state, seat)
    view["rounds"] = view["options"]["rounds"] = match.options["rounds"]
    view.pop("standings", None)  # the order over this round alone means nothing
    if ended is not None:
        revealed = ended["hands"]
        caption = (
            _("Round %(number)s: final position (blocked)")
            if ended["reason"] == "blocked"
            else _("Round %(number)s: final position (went out)")
        ) % {"number": row.number}
        view["turn"] = None
    else:
        caption = (
            _("Round %(number)s, after move %(seq)s") % {"number": row.number, "seq": seq}
            if seq
            else _("Round %(number)s") % {"number": row.number}
        )
    return BoardPosition(view=view, caption=caption, revealed_hands=revealed)
