"""What a player is shown of a match's chat: the same read for the socket's ``chat`` frames,
``GET /api/matches/{id}/chat`` and the match's record.

Each phrase is shown by its id and its text in the reader's language (the active one, or the
``language`` asked for). Left out: phrases from ``hidden_senders(reader)``, and, while the reader
muted the match's chat, everyone's phrases but their own. Only seated players read a chat:
callers check the seat first (``games.chat.access``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import translation

from games import rows
from games.chat.models import ChatMessage, ChatMute
from games.chat.phrases import phrase_get
from games.models import Player
from games.social.blocks import blocked_by

#: Phrases read per query (a socket catching up, one page of ``GET .../chat``).
PAGE = 200


def hidden_senders(viewer: Player) -> set[int]:
    """The ids of the players whose phrases ``viewer`` is never shown, whatever the match.

    These are the players ``viewer`` blocked (``games.social.blocks``); the players who blocked
    ``viewer`` are still shown. Every read of a chat goes through this one set.
    """
    return blocked_by(viewer.pk)


def chat_muted(*, match_id: int, player: Player) -> bool:
    """Whether ``player`` muted match ``match_id``'s chat."""
    return ChatMute.objects.filter(match_id=match_id, player=player).exists()


def chat_last_seq(*, match_id: int) -> int:
    """The seq of the match's last phrase (0: none yet): where a reader starts from "now"."""
    # Plain SQL (games/rows.py): every seat's socket reads it on each (re)connection.
    sql = rows.statement(
        "chat_last_seq",
        lambda quote: (
            f"SELECT MAX({quote(rows.column(ChatMessage, 'seq'))}) "  # noqa: S608 - names from the models' meta
            f"FROM {quote(ChatMessage._meta.db_table)} "
            f"WHERE {quote(rows.column(ChatMessage, 'match'))} = %s"
        ),
    )
    row = rows.fetchone(sql, [match_id])
    return (row[0] if row else None) or 0


@dataclass
class ChatPage:
    """Phrases a reader is shown, and ``last_seq``: the last phrase read, shown or not (where the
    next read starts, so that a phrase left out is not read again, nor shown after an unmute)."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    last_seq: int = 0


def chat_read(
    *,
    match_id: int,
    viewer: Player,
    after: int = 0,
    limit: int = PAGE,
    language: str | None = None,
) -> ChatPage:
    """The phrases after ``after`` (at most ``limit`` read) that ``viewer`` is shown, oldest
    first.

    Each: ``seq``, ``seat``, ``player_id``, ``phrase`` (the id), ``kind``, ``emoji``, ``text``
    (in ``language``, else the active language) and ``sent_at``.
    """
    rows = list(
        ChatMessage.objects.filter(match_id=match_id, seq__gt=after)
        .order_by("seq")
        .values("seq", "seat", "player_id", "phrase", "created_at")[:limit]
    )
    page = ChatPage(last_seq=rows[-1]["seq"] if rows else after)
    hidden = hidden_senders(viewer)
    muted = chat_muted(match_id=match_id, player=viewer) if rows else False
    with translation.override(language or translation.get_language()):
        page.messages = [
            _shown(row)
            for row in rows
            if row["player_id"] not in hidden and (not muted or row["player_id"] == viewer.pk)
        ]
    return page


def _shown(row: dict[str, Any]) -> dict[str, Any]:
    phrase = phrase_get(row["phrase"])
    return {
        "seq": row["seq"],
        "seat": row["seat"],
        "player_id": row["player_id"],
        "phrase": row["phrase"],
        "kind": phrase.kind if phrase else "phrase",
        "emoji": phrase.emoji if phrase else "",
        "text": str(phrase.text) if phrase else row["phrase"],
        "sent_at": row["created_at"],
    }


def chat_read_all(
    *, match_id: int, viewer: Player, after: int = 0, language: str | None = None
) -> ChatPage:
    """Every phrase after ``after`` that ``viewer`` is shown (``chat_read``, page after page)."""
    whole = ChatPage(last_seq=after)
    while True:
        page = chat_read(match_id=match_id, viewer=viewer, after=whole.last_seq, language=language)
        whole.messages.extend(page.messages)
        read, whole.last_seq = page.last_seq - whole.last_seq, page.last_seq
        if read < PAGE:
            return whole
