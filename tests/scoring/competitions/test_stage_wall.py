"""A change to a public event's seating reaches its wall's socket: the stages as they now are,
names only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from chickenfoot.asgi import application
from games.models import Player
from tests.games.live import next_frame
from tests.scoring.competitions.event_api import add, create_event, seated, start

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _seated(client: APIClient) -> tuple[int, list[list[int]]]:
    """A public table event at tables of 2, stage 1 seated."""
    cid = create_event(client)
    for n in range(4):
        add(client, cid, name=f"P{n}", check_in=True)
    client.post(f"/api/competitions/{cid}/close")
    start(client, cid, 1)
    client.post(f"/api/competitions/{cid}/publish")
    return cid, seated(client, cid, 1)


async def test_a_change_to_the_seating_reaches_the_wall(
    organiser: Player, organiser_client: APIClient
) -> None:
    # given: its wall open
    cid, tables = await db(_seated)(organiser_client)
    socket = WebsocketCommunicator(application, f"/ws/public/competitions/{cid}/")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    assert (await next_frame(socket))["type"] == "hello"

    # when: the organiser swaps two entrants of different tables
    swapped = await db(organiser_client.post)(
        f"/api/competitions/{cid}/stages/1/swap",
        {"players": [tables[0][0], tables[1][0]]},
        format="json",
        HTTP_IF_MATCH='"0"',
    )
    assert swapped.status_code == 200, swapped.content

    # then: the wall gets the stages as they now are
    frame = await next_frame(socket)
    while frame["type"] != "standings_changed":
        frame = await next_frame(socket)
    seats = [table["seats"] for table in frame["stages"][0]["tables"]]
    names = {p: f"P{n}" for n, p in enumerate(sorted(p for t in tables for p in t))}
    assert sorted(map(sorted, seats)) == sorted(
        sorted([names[tables[1][0]], names[tables[0][1]]]) if i == 0 else
        sorted([names[tables[0][0]], names[tables[1][1]]]) for i in range(2)
    )  # fmt: skip
    assert "player_id" not in json.dumps(frame)
    await socket.disconnect()
