"""Quick chat over the match's socket: a ``chat`` frame to every seat, in each player's own
language, none to spectators, none to a player who muted it but their own; resuming with
``?chat_after=`` sends each phrase once (docs/api.md, "Live" and "Quick chat")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async as db
from django.utils import translation

from games.chat.models import ChatMessage
from games.chat.services import chat_mute, chat_send
from games.models import Match, Player
from tests.games.factories import PlayerFactory
from tests.games.live import close_code, drain, frames_until, next_frame, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

#: What a chat frame carries: no more (docs/api.md, "Live").
CHAT_KEYS = {"type", "chat_seq", "seat", "player_id", "phrase", "kind", "emoji", "text", "sent_at"}


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def in_language(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


def chats(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "chat"]


async def languages(players: list[Player], *codes: str) -> None:
    for player, code in zip(players, codes, strict=False):
        player.language = code
        await db(player.save)(update_fields=["language"])


async def test_every_seat_gets_the_phrase_in_its_language_and_a_spectator_none(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    # given: three seats reading Thai, Armenian and Lao, and an organiser watching
    await languages(players, "th", "hy", "lo")
    match = await db(started_match)()
    organiser = await db(PlayerFactory)(display_name="Org", is_organiser=True)
    sockets = [await open_socket(match.pk, p) for p in [*players[:3], organiser]]
    hellos = [await next_frame(s) for s in sockets]
    assert [h["chat_seq"] for h in hellos] == [0, 0, 0, None]
    for socket in sockets:
        await drain(socket)

    # when: Grace says "good game"
    await db(chat_send)(match_id=match.pk, player=players[1], phrase="good_game")

    # then
    for seat, language in enumerate(("th", "hy", "lo")):
        frame = (await frames_until(sockets[seat], lambda f: f["type"] == "chat"))[-1]
        assert set(frame) == CHAT_KEYS
        assert (frame["chat_seq"], frame["seat"], frame["player_id"], frame["phrase"]) == (
            1,
            1,
            players[1].pk,
            "good_game",
        )
        assert frame["text"] == in_language(language, "Good game!") != "Good game!"
        assert frame["emoji"] == "🤝"
    assert chats(await drain(sockets[3], quiet=0.5)) == []  # the spectator
    for socket in sockets:
        await socket.disconnect()


async def test_resuming_with_chat_after_sends_each_phrase_once(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)()
    for phrase in ("hello", "good_luck", "thinking"):
        await db(chat_send)(match_id=match.pk, player=players[0], phrase=phrase)

    # a socket that saw phrase 1 resumes from it: 2 and 3, once, then the live ones
    socket = await open_socket(match.pk, players[1], query="chat_after=1")
    hello = await next_frame(socket)
    assert (hello["chat_seq"], hello["seq"]) == (3, 0)  # the chat leaves the move seq alone
    first = chats(await drain(socket))
    assert [f["chat_seq"] for f in first] == [2, 3]
    await db(chat_send)(match_id=match.pk, player=players[2], phrase="oops")
    live = chats(await frames_until(socket, lambda f: f["type"] == "chat"))
    assert [f["chat_seq"] for f in live] == [4]
    assert chats(await drain(socket, quiet=0.7)) == []  # the heartbeat's read adds none
    await socket.disconnect()

    # without chat_after: from now on, nothing said before
    fresh = await open_socket(match.pk, players[1])
    assert (await next_frame(fresh))["chat_seq"] == 4
    assert chats(await drain(fresh)) == []
    await fresh.disconnect()

    # past the chat's last phrase, or not a number: refused (4400)
    for query in ("chat_after=5", "chat_after=x"):
        refused = await open_socket(match.pk, players[1], query=query)
        assert await close_code(refused) == 4400


async def test_a_player_who_muted_the_chat_gets_only_their_own_phrases(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)()
    await db(chat_mute)(match_id=match.pk, player=players[0], muted=True)
    socket = await open_socket(match.pk, players[0])
    await drain(socket)

    await db(chat_send)(match_id=match.pk, player=players[1], phrase="oops")
    await db(chat_send)(match_id=match.pk, player=players[0], phrase="thanks")

    frames = chats(await frames_until(socket, lambda f: f["type"] == "chat"))
    assert [(f["chat_seq"], f["phrase"]) for f in frames] == [(2, "thanks")]
    # unmuted: the next phrases come, not the one said while muted
    await db(chat_mute)(match_id=match.pk, player=players[0], muted=False)
    await db(chat_send)(match_id=match.pk, player=players[2], phrase="hello")
    frames = chats(await frames_until(socket, lambda f: f["type"] == "chat"))
    assert [(f["chat_seq"], f["phrase"]) for f in frames] == [(3, "hello")]
    await socket.disconnect()
    assert await db(ChatMessage.objects.filter(match=match).count)() == 3


async def test_what_was_said_before_the_end_is_sent_before_the_socket_closes(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    from games.services import match_abandon

    match = await db(started_match)()
    socket = await open_socket(match.pk, players[1])
    await drain(socket)
    # a phrase whose nudge never came (written without one), then the end
    await db(ChatMessage.objects.create)(
        match=match, seq=1, seat=0, player=players[0], phrase="bye"
    )
    await db(match_abandon)(match_id=match.pk, player=players[0])

    frames = await frames_until(socket, lambda f: f["type"] == "closing")
    assert await close_code(socket) == 4000
    kinds = [f["type"] for f in frames]
    assert kinds.index("chat") < kinds.index("closing")
    assert [f["phrase"] for f in chats(frames)] == ["bye"]
