"""``/ws/me/``: a player's own socket gets each new notification of theirs after commit, and
nobody else's; it opens with the token or a one-use ticket, and refuses anything else."""

from __future__ import annotations

import random
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from chickenfoot.asgi import application
from games.live.access import CLOSE_BAD_REQUEST, CLOSE_UNAUTHENTICATED
from games.models import Match, Player
from games.notifications.services import notify
from tests.games.factories import token_for
from tests.games.helpers import play_turn
from tests.games.live import TIMEOUT, close_code, drain, frames_until, next_frame

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


async def me_socket(
    player: Player | None = None, *, ticket: str | None = None, authorization: str | None = None
) -> WebsocketCommunicator:
    headers = []
    if authorization is None and player is not None:
        authorization = f"Token {await db(token_for)(player)}"
    if authorization is not None:
        headers.append((b"authorization", authorization.encode()))
    path = "/ws/me/" + (f"?ticket={ticket}" if ticket else "")
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    return socket


async def test_a_notification_reaches_its_players_socket_only(players: list[Player]) -> None:
    await db(notify)(player_id=players[0].pk, kind="match_over", payload={"match_id": 3})
    ada, grace = await me_socket(players[0]), await me_socket(players[1])
    assert await next_frame(ada) == {"type": "hello", "player": players[0].pk, "unread": 1}
    assert (await next_frame(grace))["unread"] == 0

    row = await db(notify)(player_id=players[1].pk, kind="invited", payload={"match_id": 4})

    frame = await next_frame(grace)
    assert frame == {
        "type": "notification",
        "notification": {
            "id": row.pk,
            "kind": "invited",
            "payload": {"match_id": 4},
            "created_at": frame["notification"]["created_at"],
            "read": False,
        },
    }
    assert await drain(ada) == []
    await ada.disconnect()
    await grace.disconnect()


async def test_the_next_seat_is_told_on_its_socket_after_a_move(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 2)
    sockets = [await me_socket(players[0]), await me_socket(players[1])]
    for socket in sockets:
        assert (await next_frame(socket))["type"] == "hello"
    rng = random.Random(2)

    for _ in range(10):  # until a move passes the turn to the other seat
        await db(match.refresh_from_db)()
        mover = match.state["turn"]
        await db(play_turn)(clients[:2], match.pk, rng)
        await db(match.refresh_from_db)()
        waiting = match.state["turn"]
        if waiting != mover:
            break
    assert waiting != mover

    frames = await frames_until(sockets[waiting], lambda f: f["type"] == "notification")
    assert frames[-1]["notification"]["kind"] == "your_turn"
    assert frames[-1]["notification"]["payload"] == {"match_id": match.pk, "seat": waiting}
    told = [f["notification"] for f in await drain(sockets[mover]) if f["type"] == "notification"]
    assert [n for n in told if n["kind"] == "your_turn" and n["payload"]["seat"] == mover] == []
    for socket in sockets:
        await socket.disconnect()


async def test_a_ticket_opens_one_socket_and_nothing_else_opens_one(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    answer = await db(clients[0].post)("/api/notifications/ticket")
    assert answer.status_code == HTTPStatus.CREATED
    ticket = answer.json()["ticket"]
    assert answer.json()["url"] == f"/ws/me/?ticket={ticket}"

    opened = await me_socket(ticket=ticket)
    assert (await next_frame(opened))["player"] == players[0].pk
    await opened.disconnect()

    assert await close_code(await me_socket(ticket=ticket)) == CLOSE_UNAUTHENTICATED  # used
    assert await close_code(await me_socket()) == CLOSE_UNAUTHENTICATED
    assert await close_code(await me_socket(authorization="Token nope")) == CLOSE_UNAUTHENTICATED
    match = await db(started_match)("chickenfoot", 2)
    match_ticket = (await db(clients[0].post)(f"/api/matches/{match.pk}/ticket")).json()
    refused = await me_socket(ticket=match_ticket["ticket"])  # a match's ticket: not this one
    assert await close_code(refused) == CLOSE_UNAUTHENTICATED

    chatty = await me_socket(players[0])
    await next_frame(chatty)
    await chatty.send_json_to({"type": "hello"})
    assert await close_code(chatty) == CLOSE_BAD_REQUEST
