"""The phrases and emotes a seat may send: each has a stable id (what the API takes and keeps),
a kind, an emoji and its text, translated into every language the service speaks.

The list is fixed: a client sends an id, never text, so there is nothing to moderate. Adding a
phrase is adding a row here (with its translations); an id is never renamed or reused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: A phrase is said in words; an emote is shown as a gesture (its text describes it).
PHRASE_KINDS: list[tuple[str, str]] = [("phrase", "Phrase"), ("emote", "Emote")]


@dataclass(frozen=True)
class Phrase:
    """One entry of the list: ``id`` as the API spells it, ``kind`` (``phrase`` or ``emote``),
    the ``emoji`` shown with it and its ``text`` (translated when read)."""

    id: str
    kind: str
    emoji: str
    text: Promise


PHRASES: tuple[Phrase, ...] = (
    Phrase("hello", "phrase", "👋", _("Hello!")),
    Phrase("good_luck", "phrase", "🍀", _("Good luck!")),
    Phrase("nice_move", "phrase", "👍", _("Nice move!")),
    Phrase("well_played", "phrase", "👏", _("Well played!")),
    Phrase("good_game", "phrase", "🤝", _("Good game!")),
    Phrase("oops", "phrase", "😅", _("Oops!")),
    Phrase("thinking", "phrase", "🤔", _("Thinking…")),
    Phrase("thanks", "phrase", "🙏", _("Thanks!")),
    Phrase("bye", "phrase", "👋", _("Bye!")),
    Phrase("laugh", "emote", "😂", _("Laughs")),
    Phrase("wow", "emote", "😮", _("Is amazed")),
    Phrase("sad", "emote", "😢", _("Is sad")),
)

PHRASE_IDS: tuple[str, ...] = tuple(phrase.id for phrase in PHRASES)
_BY_ID: dict[str, Phrase] = {phrase.id: phrase for phrase in PHRASES}


def phrase_get(phrase_id: str) -> Phrase | None:
    """The phrase with ``phrase_id``, or ``None`` when the list has none."""
    return _BY_ID.get(phrase_id)


def phrase_json(phrase: Phrase) -> dict[str, Any]:
    """``phrase`` as the API shows it, its text in the active language."""
    return {"id": phrase.id, "kind": phrase.kind, "emoji": phrase.emoji, "text": str(phrase.text)}


def phrases_json() -> list[dict[str, Any]]:
    """The whole list, in order, its texts in the active language."""
    return [phrase_json(phrase) for phrase in PHRASES]
