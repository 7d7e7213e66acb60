"""The OpenAPI declarations of ``games.api.chat``'s views: what their ``extend_schema`` calls
name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import TOO_MANY_REQUESTS
from games.api.common import MATCH_ID, NOT_AUTHENTICATED, NOT_FOUND, problem, problem_example
from games.chat.phrases import PHRASE_IDS

NOT_SEATED = problem(
    "The caller has no seat at this match: its chat is its players' only (spectators, the "
    "creator and organisers without a seat neither read nor send).",
    (
        "Not seated",
        problem_example(
            403,
            "not_your_match",
            "Not your match",
            "Only the players seated at match 7 may use its chat.",
        ),
    ),
)
ALLOWED = ", ".join(PHRASE_IDS)
UNKNOWN_PHRASE = f'"shout" is not a phrase: send one of {ALLOWED}.'
MESSAGE_EXAMPLE = {
    "seq": 3,
    "seat": 1,
    "player_id": 8,
    "phrase": "good_game",
    "kind": "phrase",
    "emoji": "🤝",
    "text": "Good game!",
    "sent_at": "2026-11-30T12:09:45Z",
}
PHRASES_HELP = (
    "Every phrase and emote a seat may send, in order: `id` (what `POST "
    "/api/matches/{match_id}/chat` takes), `kind` (`phrase` or `emote`), `emoji`, and `text` "
    "in the caller's language."
)
PHRASE_EXAMPLE = {"id": "good_game", "kind": "phrase", "emoji": "🤝", "text": "Good game!"}
CHAT_SEND_HEADING = {
    "summary": "Say a phrase at the table",
    "tags": ["matches"],
    "description": (
        "The caller's seat says one phrase or emote of the fixed list (`GET /api/chat/phrases`; "
        "no free text). Every seat's socket on the match gets a `chat` frame with the phrase id "
        "and its text in that player's language; the match's chat (`GET "
        "/api/matches/{match_id}/chat`) and record keep it. Seated players only, from the lobby "
        "to 10 minutes after the match ends (409 `chat_closed` then). Limited per player and "
        "match (`THROTTLE_CHAT`, 5 in 10 seconds by default: 429 `throttled` with "
        "`Retry-After`). A chat never changes the match's `version` or move `seq`."
    ),
    "examples": [OpenApiExample("Good game", value={"phrase": "good_game"}, request_only=True)],
}


def chat_send_responses(message_serializer: Any) -> Any:
    """The answers of the send, given the view's serializer of a phrase said."""
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            message_serializer,
            description="The phrase, as said, its text in the caller's language.",
            examples=[OpenApiExample("Good game", value=MESSAGE_EXAMPLE)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "`phrase` missing or not an id of the list (the schema's enum), or an unknown field.",
            (
                "Unknown phrase",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    f"phrase: {UNKNOWN_PHRASE}",
                    errors={"phrase": [UNKNOWN_PHRASE]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_SEATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "The match ended more than 10 minutes ago.",
            (
                "Chat closed",
                problem_example(
                    409,
                    "chat_closed",
                    "Chat closed",
                    "Match 7 ended more than 10 minutes ago: its chat is closed.",
                ),
            ),
        ),
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
    }


CHAT_READ_HEADING = {
    "summary": "The table's chat, as I am shown it",
    "tags": ["matches"],
    "description": (
        "The phrases said at the match, oldest first (at most 200 a page: follow `last_seq` "
        "with `?after=`), each with its text in the caller's language; left out: phrases of "
        "players the caller blocked and, while the caller muted this chat, everyone's but their "
        "own. `muted` says whether they did. Seated players only. The match view leaves the "
        "chat out (its `ETag` is the match's version, which a chat does not change)."
    ),
}


def chat_read_responses(chat_serializer: Any) -> Any:
    """The answers of the read, given the view's serializer of the chat."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            chat_serializer,
            description="The chat after `after`, as the caller is shown it.",
            examples=[
                OpenApiExample(
                    "One phrase",
                    value={"muted": False, "last_seq": 3, "messages": [MESSAGE_EXAMPLE]},
                )
            ],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "`after` is not a whole number, or an unknown query parameter.",
            (
                "Bad after",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "after: A valid integer is required.",
                    errors={"after": ["A valid integer is required."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_SEATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }


CHAT_MUTE_HEADING = {
    "tags": ["matches"],
    "description": (
        "Mute (`POST`) or unmute (`DELETE`) this match's chat for the caller alone: while "
        "muted, their sockets get no `chat` frame but for their own phrases, and their reads of "
        "the chat and the record leave the others' out; the others are not told. Idempotent. "
        "Seated players only."
    ),
}


def chat_mute_responses(mute_serializer: Any, muted: bool) -> Any:
    """The answers of a mute or an unmute, given the view's serializer of the state."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            mute_serializer,
            description="Whether the chat is muted for the caller now.",
            examples=[OpenApiExample("Muted" if muted else "Unmuted", value={"muted": muted})],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_SEATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }


CHAT_PHRASES_HEADING = {
    "summary": "The phrases and emotes of the quick chat",
    "tags": ["matches"],
    "description": PHRASES_HELP,
}


def chat_phrases_responses(phrase_serializer: Any) -> Any:
    """The answers of the list, given the view's serializer of a phrase."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            phrase_serializer(many=True),
            description="The list, its texts in the caller's language.",
            examples=[OpenApiExample("One of them", value=PHRASE_EXAMPLE)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


__all__ = ["MATCH_ID"]
