"""The quick chat's socket frames: the phrases a seat's player is shown, read from the database
after the last one the socket read (games/chat/reading.py), each as a ``chat`` frame."""

from __future__ import annotations

from typing import Any

from games.chat.reading import chat_last_seq, chat_read_all
from games.models import Player


def chat_start(*, match_id: int) -> int:
    """Where a socket that asked for no earlier phrase starts: the chat's last phrase now."""
    return chat_last_seq(match_id=match_id)


def chat_frames(
    *, match_id: int, viewer: Player, after: int, language: str
) -> tuple[list[dict[str, Any]], int]:
    """The ``chat`` frames after phrase ``after`` that ``viewer`` is shown, in ``language``, and
    the last phrase read (shown or left out): where the next read starts."""
    page = chat_read_all(match_id=match_id, viewer=viewer, after=after, language=language)
    return [_frame(message) for message in page.messages], page.last_seq


def _frame(message: dict[str, Any]) -> dict[str, Any]:
    """A phrase as a frame: its ``seq`` is ``chat_seq`` (a frame's ``seq`` is a move's)."""
    shown = dict(message)
    return {"type": "chat", "chat_seq": shown.pop("seq"), **shown}
