"""What a socket sends, read from the database and redacted for its seat (C-HIDDEN).

The move log is the source of truth: a socket that is told "match X changed" reads the moves
after the last one it sent, through the same selector and redaction as ``GET /log``. A move
within a round is redacted the same way once, as it is committed, for each seat and the watchers
(``move_texts``), and sent to each audience as its frames. Frames are plain JSON objects with a
``type``; docs/api.md, "Live", lists them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from games.chat.reading import chat_last_seq
from games.log_rows import log_match, log_row
from games.models import Match
from games.results import match_final_order
from games.selectors import match_get, match_opening, match_summary, move_for_seat, move_rows

#: Moves read per query while catching up.
PAGE = 200
OVER = (Match.Status.FINISHED, Match.Status.ABANDONED)


@dataclass
class CatchUp:
    """The frames a socket owes its client, and where it stands after sending them."""

    frames: list[dict[str, Any]] = field(default_factory=list)
    last_seq: int = 0
    opening_sent: bool = False
    over: bool = False
    forbidden: bool = False


def hello(*, match_id: int, viewer: Any) -> dict[str, Any]:
    """The first frame: the match as it is now (no hands), the viewer's seat, the last seq, and
    for a seat the chat's last phrase (``chat_seq``; null for a spectator, who has no chat)."""
    return _hello_of(match_get(match_id=match_id), viewer)


def _hello_of(match: Match, viewer: Any) -> dict[str, Any]:
    summary = match_summary(match=match, viewer=viewer.player)
    return {
        "type": "hello",
        "match": summary,
        "your_seat": viewer.seat,
        "version": match.version,
        "seq": match.moves_played,
        "turn_deadline": match.turn_deadline,
        "chat_seq": chat_last_seq(match_id=match.pk) if viewer.seat is not None else None,
    }


def greeting(
    *, match_id: int, viewer: Any, after: int | None
) -> tuple[dict[str, Any], LogRead | None]:
    """The ``hello``, and for a socket resuming at ``after`` (a seq the socket has had, behind
    the hello's) the log from there: what a reconnection owes, in one trip to the threads. The
    log is read as of the hello's read of the match, up to the hello's seq."""
    match = match_get(match_id=match_id)
    said = _hello_of(match, viewer)
    if after is None or after <= 0 or after >= said["seq"]:
        return said, None
    state = match.state if isinstance(match.state, dict) else {}
    row = log_row(match, round_no=state.get("round_no"), turn=state.get("turn"))
    return said, log_read(match_id=match_id, after=after, row=row)


@dataclass(frozen=True)
class LogRead:
    """The match and its moves after ``after`` as the database holds them, whole: what any seat
    of the match is owed from there. Shared by the sockets of a process that stand at ``after``
    (games/live/consumers.py); only ``redact`` turns it into one seat's frames."""

    after: int
    row: dict[str, Any] | None
    moves: list[dict[str, Any]]
    standings: list[dict[str, Any]] | None

    @property
    def last_seq(self) -> int:
        return self.moves[-1]["seq"] if self.moves else self.after


def log_read(*, match_id: int, after: int, row: dict[str, Any] | None = None) -> LogRead:
    """The match and every move after ``after``, unredacted (``LogRead``). ``row``: the
    match's ``log_rows.log_row`` as the caller read it already."""
    # One read of the match: the moves up to its ``moves_played`` all belong to rounds up to
    # its running round, so the redaction is consistent with what it reads.
    if row is None:
        row = log_match(match_id=match_id)
    if row is None:
        return LogRead(after=after, row=None, moves=[], standings=None)
    match = _match_of(match_id, row)
    moves: list[dict[str, Any]] = []
    last = after
    while match.status != Match.Status.OPEN and last < match.moves_played:
        page = move_rows(match=match, after=last, limit=PAGE)
        if not page:
            break
        moves.extend(page)
        last = page[-1]["seq"]
    standings = None
    if match.status in OVER:
        # As HTTP shows them (games.results): each seat's player id and name.
        standings = match_final_order(match=match_get(match_id=match_id))
    return LogRead(after=after, row=row, moves=moves, standings=standings)


def _match_of(match_id: int, row: dict[str, Any]) -> Match:
    return Match(
        pk=match_id,
        variant=row["variant"],
        status=row["status"],
        version=row["version"],
        moves_played=row["moves_played"],
    )


def needs_opening(*, last_seq: int, opening_sent: bool) -> bool:
    """Whether a socket at ``last_seq`` still owes its client the match's opening."""
    return not opening_sent and last_seq == 0


def catch_up(*, match_id: int, viewer: Any, last_seq: int, opening_sent: bool) -> CatchUp:
    """Everything after ``last_seq`` as the viewer's seat may see it, oldest first.

    The match's opening (round 1's automatic start) comes first for a socket that has sent
    nothing yet; the ``match_over`` frame last, once the match has finished or was abandoned.
    """
    read = log_read(match_id=match_id, after=last_seq)
    opening = None
    if (
        read.row is not None
        and read.row["status"] != Match.Status.OPEN
        and needs_opening(last_seq=last_seq, opening_sent=opening_sent)
        and (viewer.seat is not None or viewer.watches)
    ):
        opening = match_opening(match=Match.objects.get(pk=match_id), seat=viewer.seat)
    return redact(read, viewer=viewer, opening_sent=opening_sent, opening=opening)


def redact(
    read: LogRead,
    *,
    viewer: Any,
    opening_sent: bool,
    opening: list[dict[str, Any]] | None = None,
) -> CatchUp:
    """The frames ``viewer``'s seat is owed from ``read`` (C-HIDDEN), and where the socket
    stands after them. ``opening``: the match's opening events as that seat may see them, for a
    socket that has sent nothing yet (``catch_up`` reads them)."""
    out = CatchUp(last_seq=read.after, opening_sent=opening_sent)
    row = read.row
    if row is None:
        out.over = True
        return out
    match = _match_of(0, row)
    if match.status != Match.Status.OPEN and viewer.seat is None and not viewer.watches:
        out.forbidden = True  # a lobby visitor: once play starts, seats and watchers only
        return out
    if match.status == Match.Status.OPEN:
        return out
    running = row["state__round_no"] if match.status == Match.Status.PLAYING else None
    out.frames.extend(
        {
            "type": "move",
            **move_for_seat(variant=match.variant, row=move, seat=viewer.seat, running=running),
        }
        for move in read.moves
    )
    out.last_seq = read.last_seq
    if opening is not None:
        # The start dealt round 1 in no move: its events come first, at the start's version.
        started = out.frames[0]["version"] - 1 if out.frames else match.version
        out.frames.insert(
            0, {"type": "match_started", "version": started, "seq": 0, "events": opening}
        )
        out.opening_sent = True
    if out.frames and match.status == Match.Status.PLAYING:
        # Whose turn it is once these moves are in: the cue a client acts on.
        out.frames.append(
            {
                "type": "turn",
                "version": match.version,
                "seq": match.moves_played,
                "seat": row["state__turn"],
                "deadline": row["turn_deadline"],
            }
        )
    if match.status in OVER:
        out.over = True
        out.frames.append(
            {
                "type": "match_over",
                "status": match.status,
                "version": match.version,
                "seq": match.moves_played,
                "standings": read.standings,
            }
        )
    return out


@dataclass(frozen=True)
class Audience:
    """Who sees a match one way: a seat, or (``None``) its watchers."""

    seat: int | None
    watches: bool = True


def move_texts(
    *, match: Match, move: dict[str, Any], round_no: int, turn: int
) -> dict[int | None, list[str]]:
    """A move within a round (no round ended or began), as each seat and (``None``) the
    watchers see it: the frames a socket that has sent every move before it owes its client,
    JSON-encoded, the same as ``catch_up`` would read from the log (C-HIDDEN).

    ``move``: the move as ``move_rows`` gives it; ``match``: as the move left it, its clock
    started; ``round_no``, ``turn``: the round running and the seat to move next.
    """
    read = LogRead(
        after=move["seq"] - 1,
        row={
            "variant": match.variant,
            "status": match.status,
            "version": match.version,
            "moves_played": match.moves_played,
            "turn_deadline": match.turn_deadline,
            "state__round_no": round_no,
            "state__turn": turn,
        },
        moves=[move],
        standings=None,
    )
    return {
        seat: [
            json.dumps(frame, cls=DjangoJSONEncoder)
            for frame in redact(read, viewer=Audience(seat), opening_sent=True).frames
        ]
        for seat in [*range(match.seat_count), None]
    }


__all__ = [
    "PAGE",
    "Audience",
    "CatchUp",
    "LogRead",
    "catch_up",
    "hello",
    "log_read",
    "move_texts",
    "needs_opening",
    "redact",
]
