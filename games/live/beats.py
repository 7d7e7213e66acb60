"""What every heartbeat checks, read for all the sockets of a process at once.

A socket's heartbeat checks that its token still holds (revoked, expired or its user
deactivated: the socket closes with 4401) and, on a match, whether the match or its chat moved
on without a nudge reaching it (one lost while Redis was out of reach). Ten thousand sockets
beating every 25 seconds are 400 such checks a second; each would be a few statements. Instead
the checks asked for within a second (``threads.beat_window``: a twenty-fifth of the
heartbeat) are answered together: one statement for the tokens, one for the matches and one for
their chats, whatever the number of sockets. A socket reads its match's moves or chat only when
the answer says it is behind.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Max

from games.chat.models import ChatMessage
from games.live.access import Credential, tokens_holding
from games.live.threads import Gathered, beat_window
from games.models import Match

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Mark:
    """Where a match stands: its last move, its status and its chat's last phrase."""

    seq: int
    status: str
    chat_seq: int


def match_marks(match_ids: Iterable[int]) -> dict[int, Mark]:
    """Each match's ``Mark`` (a match that is gone has none)."""
    ids = list(match_ids)
    chats = dict(
        ChatMessage.objects.filter(match_id__in=ids)
        .values("match_id")
        .annotate(last=Max("seq"))
        .values_list("match_id", "last")
    )
    return {
        pk: Mark(seq=moves_played, status=status, chat_seq=chats.get(pk) or 0)
        for pk, moves_played, status in Match.objects.filter(pk__in=ids).values_list(
            "pk", "moves_played", "status"
        )
    }


tokens = Gathered(tokens_holding, beat_window)
marks = Gathered(match_marks, beat_window)


async def token_holds(credential: Credential | None) -> bool:
    """Whether the socket's token still holds (``True`` when it cannot be told: the database
    out of reach closes no socket; the next heartbeat asks again)."""
    if credential is None:
        return False
    try:
        return bool(await tokens.get(credential))
    except Exception:  # a database out of reach closes no socket
        logger.warning("live: the sockets' tokens could not be checked", exc_info=True)
        return True


__all__ = ["Mark", "marks", "match_marks", "token_holds"]
