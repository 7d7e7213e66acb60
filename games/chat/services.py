"""Sending a phrase and muting a match's chat: one short transaction each.

A phrase is written under the match's row lock (the one writer of a match at a time, as a
move is), so its ``seq`` follows the last one without a gap and phrases commit in ``seq``
order: a socket reading "after ``seq``" never skips one committed later with a smaller seq.
After commit the match's sockets are told (``games.live.publish``); each reads what it has
not sent from the database, as it does moves.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from games.chat.access import OPEN_AFTER_END, chat_open, seated_match
from games.chat.models import ChatMessage, ChatMute
from games.live.publish import on_commit_chat
from games.models import Player
from games.problems import ChatClosed


def chat_send(*, match_id: int, player: Player, phrase: str) -> ChatMessage:
    """``player``'s seat says ``phrase`` (an id of ``games.chat.phrases``, checked by the
    caller) at match ``match_id``.

    Refuses a player without a seat there (403 ``not_your_match``) and a match that ended more
    than ``OPEN_AFTER_END`` ago (409 ``chat_closed``).
    """
    with transaction.atomic():
        match, seat = seated_match(match_id=match_id, player=player, lock=True)
        if not chat_open(match):
            minutes = int(OPEN_AFTER_END.total_seconds() // 60)
            raise ChatClosed(
                _("Match %(match)s ended more than %(minutes)s minutes ago: its chat is closed.")
                % {"match": match_id, "minutes": minutes}
            )
        last = ChatMessage.objects.filter(match_id=match_id).aggregate(last=Max("seq"))["last"]
        message = ChatMessage.objects.create(
            match_id=match_id, seq=(last or 0) + 1, seat=seat, player=player, phrase=phrase
        )
        on_commit_chat(match_id=match_id, seq=message.seq)
    return message


def chat_mute(*, match_id: int, player: Player, muted: bool) -> bool:
    """Mute (or unmute) match ``match_id``'s chat for ``player`` alone; idempotent. Seated
    players only (403 ``not_your_match``). Returns ``muted``."""
    seated_match(match_id=match_id, player=player)
    if muted:
        ChatMute.objects.get_or_create(match_id=match_id, player=player)
    else:
        ChatMute.objects.filter(match_id=match_id, player=player).delete()
    return muted
