"""The public wall's socket: no token, read-only, a frame after each round entered and when the
results come in; refused (4404) for a competition that is not public."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from chickenfoot.asgi import application
from games.models import Player
from scoring.models import Competition
from tests.games.live import Closed, next_frame
from tests.games.wall_world import HOSTILE, enter_round, wall_world

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


async def _open(competition_id: int) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, f"/ws/public/competitions/{competition_id}/")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


async def test_the_wall_socket_gets_a_frame_after_each_round_and_the_results(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = await db(wall_world)(players, clients[0])
    socket = await _open(wall.competition.pk)
    hello = await next_frame(socket)
    assert hello["type"] == "hello"
    assert hello["wall"]["stages"][0]["tables"][0]["seats"] == ["Ada", "Grace", HOSTILE]

    await db(enter_round)(clients[0], wall.match_id, 1, 0)
    frame = await next_frame(socket)
    assert frame == {
        "type": "table_updated",
        "table": {
            "stage": 1,
            "table": 1,
            "status": "playing",
            "results_in": False,
            "seats": ["Ada", "Grace", HOSTILE],
            "rounds": {"entered": 1, "total": 2},
        },
    }

    await db(enter_round)(clients[0], wall.match_id, 2, 1)  # the last: the results come in
    kinds = {}
    for _ in range(3):
        frame = await next_frame(socket)
        kinds.setdefault(frame["type"], frame)
        if "standings_changed" in kinds:
            break
    changed = kinds["standings_changed"]
    assert set(changed) == {"type", "competition", "final", "standings", "stages", "now"}
    assert changed["stages"][0]["status"] == "finished"  # its one table is done
    standings = changed["standings"]
    assert [(row["name"], row["placement_points"]) for row in standings] == [
        ("Ada", 4.0),
        ("Grace", 2.0),
    ]
    assert "player_id" not in json.dumps(standings)
    await socket.disconnect()


async def test_a_private_competition_s_socket_is_closed_with_4404(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = await db(wall_world)(players, clients[0], public=False)
    socket = await _open(wall.competition.pk)
    closing = await next_frame(socket)
    assert closing["type"] == "closing"
    assert closing["code"] == 4404
    with pytest.raises(Closed) as closed:
        await next_frame(socket)
    assert closed.value.code == 4404


async def test_a_client_that_sends_is_closed_with_4400(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = await db(wall_world)(players, clients[0])
    socket = await _open(wall.competition.pk)
    assert (await next_frame(socket))["type"] == "hello"
    await socket.send_to(text_data='{"type": "move"}')
    assert (await next_frame(socket))["code"] == 4400
    with pytest.raises(Closed) as closed:
        await next_frame(socket)
    assert closed.value.code == 4400


async def test_unpublishing_closes_the_wall_s_sockets_with_4404(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = await db(wall_world)(players, clients[0])
    socket = await _open(wall.competition.pk)
    assert (await next_frame(socket))["type"] == "hello"
    response = await db(clients[0].post)(f"/api/competitions/{wall.competition.pk}/unpublish")
    assert response.status_code == 200
    closing = await next_frame(socket)
    assert closing == {
        "type": "closing",
        "code": 4404,
        "detail": "The competition is no longer public.",
    }
    with pytest.raises(Closed) as closed:
        await next_frame(socket)
    assert closed.value.code == 4404


async def test_without_a_channel_layer_the_wall_s_socket_says_try_again_later(
    players: list[Player], clients: list[APIClient], settings: Any
) -> None:
    wall = await db(wall_world)(players, clients[0])
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:9/0"]},  # nothing listens there
        }
    }
    socket = await _open(wall.competition.pk)
    closing = await next_frame(socket)
    assert closing["type"] == "closing"
    assert closing["code"] == 1013


async def test_a_correction_of_a_finished_match_sends_the_corrected_table_and_standings(
    players: list[Player], clients: list[APIClient]
) -> None:
    # given: a finished stage-1 match of a public two-stage event (stage 2 not seated yet)
    wall = await db(wall_world)(players, clients[0])
    await db(Competition.objects.filter(pk=wall.competition.pk).update)(stage_count=2)
    await db(enter_round)(clients[0], wall.match_id, 1, 0)
    await db(enter_round)(clients[0], wall.match_id, 2, 1)
    socket = await _open(wall.competition.pk)
    hello = await next_frame(socket)
    assert [row["name"] for row in hello["wall"]["standings"]] == ["Ada", "Grace"]

    # when: round 2 is corrected: Grace went out, Ada holds 40
    fixed = [
        {"seat": 0, "points": 40},
        {"seat": 1, "points": 0, "went_out": True},
        {"seat": 2, "points": 12},
    ]
    url = f"/api/matches/{wall.match_id}/rounds/2/scores"
    body = {"version": 2, "scores": fixed, "reason": f"Recounted {HOSTILE}"}
    response = await db(clients[0].put)(url, body, format="json")
    assert response.status_code == 200, response.content

    # then: the table's frame, then the standings as recomputed
    frames = []
    while not any(frame["type"] == "standings_changed" for frame in frames):
        frames.append(await next_frame(socket))
    assert frames[0]["type"] == "table_updated"
    assert frames[0]["table"]["rounds"] == {"entered": 2, "total": 2}
    standings = frames[-1]["standings"]
    assert [(row["name"], row["placement_points"]) for row in standings] == [
        ("Grace", 4.0),
        ("Ada", 1.0),  # 40 points: behind the guest now
    ]
    sent = json.dumps(frames)
    assert "player_id" not in sent
    assert "Recounted" not in sent  # the reason is the score log's, not the wall's
    assert "tiles" not in sent
    await socket.disconnect()
