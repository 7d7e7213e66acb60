"""A table match over its socket: hello, each round's scores as entered, then match_over."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games.models import Player
from tests.games.live import next_frame, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _create(client: APIClient) -> int:
    body = {
        "variant": "chickenfoot",
        "play": "table",
        "options": {"max_pip": 6, "rounds": 1},
        "seats": [{"kind": "creator"}, {"kind": "guest", "name": "Bea"}],
    }
    response = client.post("/api/matches", body, format="json")
    assert response.status_code == 201, response.content
    return int(response.json()["id"])


def _enter(client: APIClient, match_id: int) -> Any:
    scores = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "tiles": [[0, 0], [1, 2]]}]
    url = f"/api/matches/{match_id}/rounds/1/scores"
    return client.post(url, {"version": 0, "scores": scores}, format="json")


async def until(socket: Any, kind: str) -> dict[str, Any]:
    for _ in range(10):
        frame = await next_frame(socket)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def test_a_socket_follows_the_scores_to_the_end(
    players: list[Player], clients: list[APIClient]
) -> None:
    match_id = await db(_create)(clients[0])
    socket = await open_socket(match_id, players[0])
    hello = await until(socket, "hello")
    assert hello["match"]["play"] == "table"
    # the socket's catch-up is over once it has sent the opening: a round_scored notice is live
    # only, so a score entered while the socket still reads the database would reach it as
    # match_over alone
    await until(socket, "match_started")

    response = await db(_enter)(clients[0], match_id)
    assert response.status_code == 201, response.content

    scored = await until(socket, "round_scored")
    over = await until(socket, "match_over")
    assert (scored["scores"], scored["went_out"], scored["finished"]) == ([0, 53], 0, True)
    assert over["status"] == "finished"
    assert [row["seat"] for row in over["standings"]] == [0, 1]
    await socket.disconnect()
