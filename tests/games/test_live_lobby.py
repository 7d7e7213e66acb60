"""A socket opened in the lobby follows the seat its player takes: its frames, no other seat's."""

from __future__ import annotations

import random
from http import HTTPStatus
from typing import Any

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games.live.access import CLOSE_FORBIDDEN
from games.models import Match, Player
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_turn
from tests.games.live import close_code, frames_until, moves_in, next_frame, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def lobby(creator: Player) -> Match:
    """An open Chicken Foot match of three: the creator's seat and two open ones."""
    return match_create(
        creator=creator,
        variant="chickenfoot",
        seats=[SeatSpec(kind="creator"), SeatSpec(kind="open"), SeatSpec(kind="open")],
        options={"rounds": 3},
    )


def read_whole(frames: list[dict[str, Any]]) -> set[int]:
    """The seqs of the moves the socket read in the same catch-up as their round's end.

    A catch-up is one read of the database: its move frames, then the ``turn`` (or
    ``match_over``) frame it sends after them. A move read after its round ended shows every
    tile drawn in it, the round's seed being public then (C-SHUFFLE); under load a socket may
    lag behind the play and read a round only once it has ended.
    """
    whole: set[int] = set()
    read: list[dict[str, Any]] = []
    for frame in [*frames, {"type": "turn"}]:
        if frame["type"] == "move":
            read.append(frame)
        elif frame["type"] in ("turn", "match_over"):
            ended = {
                m["round"] for m in read if any(e["type"] == "round_ended" for e in m["events"])
            }
            whole |= {m["seq"] for m in read if m["round"] in ended}
            read = []
    return whole


def hidden_from(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events with every other seat's drawn tile left out (C-HIDDEN)."""
    return [
        {k: v for k, v in e.items() if k != "tile"}
        if e["type"] == "drew" and e["seat"] != seat
        else e
        for e in events
    ]


def as_read(log: list[dict[str, Any]], whole: set[int], seat: int) -> list[dict[str, Any]]:
    """Every move of the log as ``seat``'s socket should have sent it: whole if it was read
    after its round ended (``whole``), else with only the seat's own drawn tiles."""
    return [
        move if move["seq"] in whole else {**move, "events": hidden_from(move["events"], seat)}
        for move in log
    ]


async def test_a_socket_opened_before_joining_gets_its_seats_frames_after_the_start(
    players: list[Player], clients: list[APIClient]
) -> None:
    # given: grace and a stranger watch the lobby before grace takes a seat
    match = await db(lobby)(players[0])
    stranger = await db(PlayerFactory)(user__username="mallory")
    socket = await open_socket(match.pk, players[1], after=0)
    visitor = await open_socket(match.pk, stranger, after=0)
    hello = await next_frame(socket)
    assert hello["type"] == "hello"
    assert hello["your_seat"] is None
    assert (await next_frame(visitor))["type"] == "hello"

    # when: grace joins (seat 1), alan joins, and the creator starts the match
    await db(seat_join)(match_id=match.pk, player=players[1], position=1)
    frames = await frames_until(socket, lambda f: f["type"] == "view_changed")
    assert frames[-1]["your_seat"] == 1
    await db(seat_join)(match_id=match.pk, player=players[2], position=2)
    await db(match_start)(match_id=match.pk, player=players[0])
    rng = random.Random(4)
    played = 0
    for _ in range(40):
        if await db(play_turn)(clients, match.pk, rng) is None:
            break
        played += 1

    # then: the socket stays open and sends what seat 1's own log shows: its opening and moves
    frames = await frames_until(socket, lambda f: f["type"] == "turn" and f["seq"] == played)
    log = await db(clients[1].get)(f"/api/matches/{match.pk}/log?after=0&limit=200")
    assert log.status_code == HTTPStatus.OK
    started = [f for f in frames if f["type"] == "match_started"]
    assert [f["events"] for f in started] == [log.json()["opening"]]
    keys = ("seq", "round", "seat", "kind", "tile", "target", "events")
    moves = moves_in(frames)
    whole = read_whole(frames)
    assert [{k: m[k] for k in keys} for m in moves] == [
        {k: m[k] for k in keys} for m in as_read(log.json()["moves"], whole, seat=1)
    ]
    # and: while a round runs, a tile drawn reaches it for seat 1 only, never another seat's
    opening = [e for e in started[0]["events"] if e["type"] == "drew"]
    own = opening + [e for m in moves for e in m["events"] if e["type"] == "drew"]
    # (whether seat 1 drew at all in these moves depends on the deal)
    assert all("tile" in e for e in own if e["seat"] == 1)
    running = [m for m in moves if m["seq"] not in whole]
    draws = opening + [e for m in running for e in m["events"] if e["type"] == "drew"]
    assert all("tile" not in e for e in draws if e["seat"] != 1)
    await socket.disconnect()

    # and: the visitor who never took a seat is closed at the start, as before
    assert await close_code(visitor) == CLOSE_FORBIDDEN


async def test_a_socket_opened_in_the_lobby_counts_in_presence_once_seated(
    players: list[Player],
) -> None:
    # given: the creator's socket, and grace's opened before she joins
    match = await db(lobby)(players[0])
    creator = await open_socket(match.pk, players[0])
    await frames_until(creator, lambda f: f["type"] == "presence" and f["seats"] == [0])
    socket = await open_socket(match.pk, players[1])
    assert (await next_frame(socket))["your_seat"] is None

    # when: she joins seat 2
    await db(seat_join)(match_id=match.pk, player=players[1], position=2)

    # then: the others see her seat present, and her socket knows its seat
    await frames_until(creator, lambda f: f["type"] == "presence" and f["seats"] == [0, 2])
    frames = await frames_until(socket, lambda f: f["type"] == "view_changed")
    assert frames[-1]["your_seat"] == 2
    await socket.disconnect()
    await creator.disconnect()
