"""What each kind of notification says: public facts only (ids, a seat, a round number).

No payload carries tiles, hands, seeds, scores or anything a player wrote: a ``your_turn`` says
whose turn it is (the seat) in which match, nothing else. The builders here are the only place
a payload is made, so a test of them covers every payload there is.
"""

from __future__ import annotations

from typing import Any

#: kind -> who gets it and when (docs/api.md, "Notifications and push").
DESCRIPTIONS = {
    "your_turn": "A match you play waits for your move (after a move by someone else).",
    "invited": "Someone invited you to a match.",
    "match_started": "A match you have a seat at started.",
    "match_over": "A match you played is over.",
    "table_assigned": "A stage of an event seated you at a table.",
    "round_disputed": "A seat disputed a round's scores of a table match you created.",
    "result_corrected": "A round's scores of a table match you played were corrected.",
    "friend_request": "Someone asked you to be friends.",
    "friend_accepted": "Someone accepted your friend request (or sent you one as you did).",
}


def your_turn(*, match_id: int, seat: int) -> dict[str, Any]:
    return {"match_id": match_id, "seat": seat}


def invited(*, match_id: int, by_player_id: int) -> dict[str, Any]:
    return {"match_id": match_id, "by_player_id": by_player_id}


def match_started(*, match_id: int) -> dict[str, Any]:
    return {"match_id": match_id}


def match_over(*, match_id: int) -> dict[str, Any]:
    return {"match_id": match_id}


def table_assigned(*, match_id: int) -> dict[str, Any]:
    return {"match_id": match_id}


def round_disputed(*, match_id: int, round_number: int, seat: int) -> dict[str, Any]:
    return {"match_id": match_id, "round": round_number, "seat": seat}


def result_corrected(*, match_id: int, round_number: int) -> dict[str, Any]:
    return {"match_id": match_id, "round": round_number}


def friend_request(*, request_id: int, by_player_id: int) -> dict[str, Any]:
    return {"request_id": request_id, "by_player_id": by_player_id}


def friend_accepted(*, request_id: int, by_player_id: int) -> dict[str, Any]:
    return {"request_id": request_id, "by_player_id": by_player_id}
