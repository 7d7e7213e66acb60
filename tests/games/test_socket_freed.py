"""A closed socket is freed as it closes, by reference counting: nothing of it waits for Python's
cyclic collector, whose full collections walk every live socket of the process
(docs/operations.md, "Sockets at scale")."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.live.consumers import MatchConsumer
from games.models import Match, Player
from games.notifications.socket import MeConsumer
from tests.games.live import next_frame, open_socket
from tests.games.test_notifications_socket import me_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def alive(kind: type) -> int:
    return sum(type(o) is kind for o in gc.get_objects())


async def test_a_closed_match_socket_and_players_socket_are_freed_without_the_collector(
    players: list[Player], started_match: Callable[..., Match], no_collector: None
) -> None:
    match = await database_sync_to_async(started_match)("chickenfoot", 2)
    sockets = [await open_socket(match.pk, players[0]), await me_socket(players[1])]
    for socket in sockets:
        assert (await next_frame(socket))["type"] == "hello"
    await asyncio.sleep(0.7)  # past the match socket's first look (its heartbeat task running)
    assert alive(MatchConsumer) == 1
    assert alive(MeConsumer) == 1
    for socket in sockets:
        await socket.disconnect()
    await asyncio.sleep(0.1)
    assert alive(MatchConsumer) == 0
    assert alive(MeConsumer) == 0
