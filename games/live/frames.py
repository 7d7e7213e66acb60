"""What a socket sends, read from the database and redacted for its seat (C-HIDDEN).

The move log is the source of truth: a socket that is told "match X changed" reads the moves
after the last one it sent, through the same selector and redaction as ``GET /log``. Frames are
plain JSON objects with a ``type``; docs/api.md, "Live", lists them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.chat.reading import chat_last_seq
from games.models import Match
from games.results import match_final_order
from games.selectors import match_get, match_opening, match_summary, move_log

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
    match = match_get(match_id=match_id)
    summary = match_summary(match=match, viewer=viewer.player)
    return {
        "type": "hello",
        "match": summary,
        "your_seat": viewer.seat,
        "version": match.version,
        "seq": match.moves_played,
        "turn_deadline": match.turn_deadline,
        "chat_seq": chat_last_seq(match_id=match_id) if viewer.seat is not None else None,
    }


def catch_up(*, match_id: int, viewer: Any, last_seq: int, opening_sent: bool) -> CatchUp:
    """Everything after ``last_seq`` as the viewer's seat may see it, oldest first.

    The match's opening (round 1's automatic start) comes first for a socket that has sent
    nothing yet; the ``match_over`` frame last, once the match has finished or was abandoned.
    """
    # One read of the match: the moves up to its ``moves_played`` all belong to rounds up to
    # its running round, so the redaction below is consistent with what it reads.
    row = (
        Match.objects.filter(pk=match_id)
        .values(
            "variant",
            "status",
            "version",
            "moves_played",
            "standings",
            "turn_deadline",
            "state__round_no",
            "state__turn",
        )
        .first()
    )
    out = CatchUp(last_seq=last_seq, opening_sent=opening_sent)
    if row is None:
        out.over = True
        return out
    match = Match(
        pk=match_id,
        variant=row["variant"],
        status=row["status"],
        version=row["version"],
        moves_played=row["moves_played"],
        standings=row["standings"],
    )
    if match.status != Match.Status.OPEN and viewer.seat is None and not viewer.watches:
        out.forbidden = True  # a lobby visitor: once play starts, seats and watchers only
        return out
    if match.status == Match.Status.OPEN:
        return out
    running = row["state__round_no"] if match.status == Match.Status.PLAYING else None
    first_page = not opening_sent and last_seq == 0
    while out.last_seq < match.moves_played:
        moves = move_log(
            match=match, seat=viewer.seat, after=out.last_seq, limit=PAGE, running=running
        )
        if not moves:
            break
        out.frames.extend({"type": "move", **move} for move in moves)
        out.last_seq = moves[-1]["seq"]
    if first_page:
        # The start dealt round 1 in no move: its events come first, at the start's version.
        started = out.frames[0]["version"] - 1 if out.frames else match.version
        opening = match_opening(match=Match.objects.get(pk=match_id), seat=viewer.seat)
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
                # As HTTP shows them (games.results): each seat's player id and name.
                "standings": match_final_order(match=match_get(match_id=match_id)),
            }
        )
    return out


__all__ = ["PAGE", "CatchUp", "catch_up", "hello"]
