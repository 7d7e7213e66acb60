"""The stage clock reaches a public event's wall socket as it starts and stops: the clock and
the server's time, nothing else."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from chickenfoot.asgi import application
from games.models import Player
from tests.games.live import frames_until, next_frame, open_socket
from tests.scoring.competitions.event_api import add, create_event, start

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _public_event(client: APIClient) -> int:
    cid = create_event(client)
    for n in range(4):
        add(client, cid, name=f"P{n}", check_in=True)
    client.post(f"/api/competitions/{cid}/close")
    start(client, cid, 1)
    client.post(f"/api/competitions/{cid}/publish")
    return cid


async def _clock_frame(socket: WebsocketCommunicator) -> dict[str, Any]:
    frame = await next_frame(socket)
    while frame["type"] != "stage_clock":
        frame = await next_frame(socket)
    return dict(frame)


async def test_the_clock_s_start_and_stop_reach_the_wall(
    organiser: Player, organiser_client: APIClient
) -> None:
    # given: the wall open, its hello without a clock
    cid = await db(_public_event)(organiser_client)
    socket = WebsocketCommunicator(application, f"/ws/public/competitions/{cid}/")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    hello = await next_frame(socket)
    assert hello["wall"]["stages"][0]["clock"] is None
    assert "now" in hello["wall"]

    # when: the organiser starts the clock
    started = await db(organiser_client.post)(
        f"/api/competitions/{cid}/stages/1/clock", {"minutes": 45}, format="json"
    )
    assert started.status_code == 200, started.content

    # then: a stage_clock frame with the clock's end and the server's time
    frame = await _clock_frame(socket)
    assert set(frame) == {"type", "stage", "clock", "now"}
    assert (frame["stage"], frame["clock"]["state"], frame["clock"]["minutes"]) == (
        1,
        "running",
        45,
    )
    ends = datetime.fromisoformat(frame["clock"]["ends_at"])
    assert ends == datetime.fromisoformat(started.json()["ends_at"].replace("Z", "+00:00"))
    assert datetime.fromisoformat(frame["now"]) < ends

    # and when it stops, a frame without a clock
    await db(organiser_client.delete)(f"/api/competitions/{cid}/stages/1/clock")
    assert (await _clock_frame(socket))["clock"] is None
    await socket.disconnect()


def _private_event_tables(client: APIClient) -> tuple[int, list[int]]:
    """A table event that is not public, stage 1 seated: its id and its tables' match ids."""
    cid = create_event(client)
    for n in range(4):
        add(client, cid, name=f"P{n}", check_in=True)
    client.post(f"/api/competitions/{cid}/close")
    start(client, cid, 1)
    tables = client.get(f"/api/competitions/{cid}/stages/1").json()["tables"]
    return cid, [table["match_id"] for table in tables]


async def test_the_stage_s_tables_hear_the_clock_even_off_the_wall(
    organiser: Player, organiser_client: APIClient
) -> None:
    # given: a private event, a socket on one of its stage's tables
    cid, match_ids = await db(_private_event_tables)(organiser_client)
    socket = await open_socket(match_ids[0], organiser)
    assert (await next_frame(socket))["type"] == "hello"  # in the table's group from now on

    # when
    await db(organiser_client.post)(
        f"/api/competitions/{cid}/stages/1/clock", {"minutes": 30}, format="json"
    )

    # then: the table's socket gets the clock and the server's time
    frames = await frames_until(socket, lambda frame: frame["type"] == "stage_clock")
    frame = frames[-1]
    assert (frame["stage"], frame["clock"]["minutes"], frame["clock"]["state"]) == (
        1,
        30,
        "running",
    )
    assert "now" in frame
    await socket.disconnect()
