"""A friend's presence in ``GET /api/friends`` comes from their sockets: ``/ws/me/`` open is
online, a match's socket at their seat of a match in play is in a match, none is offline; a
player who blocked the caller is no friend, so their presence is never shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from rest_framework.test import APIClient

from chickenfoot.asgi import application
from games.models import Match, Player
from games.social.presence import presence_of
from games.social.services import friend_request_accept, friend_request_send
from tests.games.factories import token_for
from tests.games.live import TIMEOUT, drain, next_frame, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer_and_an_empty_cache(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    cache.clear()


def befriend(a: Player, b: Player) -> None:
    sent = friend_request_send(sender=a, player_id=b.pk)
    friend_request_accept(request_id=sent.request.pk, player=b)


async def me_socket(player: Player) -> WebsocketCommunicator:
    headers = [(b"authorization", f"Token {await db(token_for)(player)}".encode())]
    socket = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    assert (await next_frame(socket))["type"] == "hello"
    return socket


async def presence_seen(client: APIClient) -> dict[int, str]:
    answer = await db(client.get)("/api/friends")
    assert answer.status_code == 200
    return {row["player"]["id"]: row["presence"] for row in answer.json()["results"]}


async def test_presence_follows_the_friends_sockets(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    ada, grace = players[0], players[1]
    await db(befriend)(ada, grace)
    match = await db(started_match)("chickenfoot", 2)
    assert await presence_seen(clients[1]) == {ada.pk: "offline"}

    me = await me_socket(ada)
    assert await presence_seen(clients[1]) == {ada.pk: "online"}

    at_table = await open_socket(match.pk, ada)
    await drain(at_table)  # hello and the catch-up: the socket has noted its seat by now
    assert await presence_seen(clients[1]) == {ada.pk: "in_match"}
    assert await presence_seen(clients[0]) == {grace.pk: "offline"}

    await at_table.disconnect()
    assert await presence_seen(clients[1]) == {ada.pk: "online"}
    await me.disconnect()
    assert await presence_seen(clients[1]) == {ada.pk: "offline"}


async def test_a_match_that_is_over_is_no_longer_in_a_match(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    ada, grace = players[0], players[1]
    await db(befriend)(ada, grace)
    match = await db(started_match)("chickenfoot", 2)
    at_table = await open_socket(match.pk, ada)
    await drain(at_table)

    await db(Match.objects.filter(pk=match.pk).update)(status=Match.Status.FINISHED)

    assert await presence_seen(clients[1]) == {ada.pk: "online"}
    await at_table.disconnect()


async def test_one_socket_closing_leaves_the_newer_ones_note(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]
    await db(befriend)(ada, grace)
    older = await me_socket(ada)
    newer = await me_socket(ada)

    await older.disconnect()

    assert await presence_seen(clients[1]) == {ada.pk: "online"}
    await newer.disconnect()
    assert await presence_seen(clients[1]) == {ada.pk: "offline"}


async def test_a_player_who_blocked_the_caller_shows_no_presence(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada, grace = players[0], players[1]
    await db(befriend)(ada, grace)
    socket = await me_socket(grace)
    assert await presence_seen(clients[0]) == {grace.pk: "online"}

    blocked = await db(clients[1].post)(f"/api/players/{ada.pk}/block")

    assert blocked.status_code == 201
    assert await presence_seen(clients[0]) == {}
    await socket.disconnect()


async def test_presence_is_offline_when_the_cache_cannot_be_read(
    players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the cache is out of reach")

    socket = await me_socket(players[0])
    monkeypatch.setattr(cache, "get_many", unreachable)

    assert await db(presence_of)([players[0].pk]) == {players[0].pk: "offline"}
    await socket.disconnect()
