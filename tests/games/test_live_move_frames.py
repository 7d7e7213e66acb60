"""A move within a round reaches the sockets as frames, each audience its own (C-HIDDEN): the
same frames the log would give, with no read of the log by the sockets."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.serializers.json import DjangoJSONEncoder
from rest_framework.test import APIClient

from games.live import frames
from games.live.publish import audience_group
from games.models import Match, Player
from tests.games.helpers import play_turn
from tests.games.live import drain, frames_until, moves_in, next_frame, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async
ROUND_EVENTS = ("round_ended", "round_started", "match_ended")


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _within_a_round(body: dict[str, Any]) -> bool:
    return not any(event["type"] in ROUND_EVENTS for event in body["move"]["events"])


async def test_c_hidden_each_audience_is_sent_only_the_frames_the_log_gives_it(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # given: a started match of three, a socket open (this process serves sockets), and a
    # listener on each seat's group and the watchers'
    match = await db(started_match)("chickenfoot", 3, {"rounds": 2})
    socket = await open_socket(match.pk, players[0], after=0)
    await drain(socket)
    layer = get_channel_layer()
    listeners = {}
    for seat in (0, 1, 2, None):
        listeners[seat] = await layer.new_channel()
        await layer.group_add(audience_group(match.pk, seat), listeners[seat])

    # when: moves are played until one drew a tile within a round
    rng, drawn, checked = random.Random(3), 0, 0
    for _ in range(80):
        body = await db(play_turn)(clients, match.pk, rng)
        assert body is not None
        seq = body["move"]["seq"]
        if not _within_a_round(body):
            continue  # a round's end or start is read from the log by every socket
        for seat, channel in listeners.items():
            message = await layer.receive(channel)
            while message["seq"] < seq:  # an earlier move's, sent before a round's end
                message = await layer.receive(channel)
            assert message["type"] == "match.frames"
            assert message["seq"] == seq
            sent = [json.loads(text) for text in message["frames"]]
            # then: exactly what a socket of that audience reads from the log after seq - 1
            read = await db(frames.catch_up)(
                match_id=match.pk,
                viewer=frames.Audience(seat),
                last_seq=seq - 1,
                opening_sent=True,
            )
            assert sent == json.loads(json.dumps(read.frames, cls=DjangoJSONEncoder))
            for event in moves_in(sent)[0]["events"]:
                if event["type"] == "drew":
                    # and a drawn tile only in its drawer's group
                    assert ("tile" in event) == (seat == event["seat"]), (seat, event)
                    drawn += seat is None
            checked += 1
        if drawn:
            break
    assert drawn
    assert checked >= 8
    await socket.disconnect()


async def test_a_socket_sends_moves_within_a_round_without_reading_the_log(
    players: list[Player],
    clients: list[APIClient],
    started_match: Callable[..., Match],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given: three seats caught up from the start
    match = await db(started_match)("chickenfoot", 3, {"rounds": 2})
    sockets = [await open_socket(match.pk, players[i], after=0) for i in range(3)]
    for socket in sockets:
        assert (await next_frame(socket))["type"] == "hello"
        assert (await next_frame(socket))["type"] == "match_started"
        await drain(socket, quiet=0.7)  # past the look after joining
    reads: list[dict[str, Any]] = []
    for name in ("log_read", "catch_up"):
        real = getattr(frames, name)
        monkeypatch.setattr(frames, name, lambda real=real, **kw: reads.append(kw) or real(**kw))

    # when: 20 moves over HTTP
    rng, bodies = random.Random(1), []
    for _ in range(20):
        body = await db(play_turn)(clients, match.pk, rng)
        assert body is not None
        bodies.append(body)

    # then: each seat has every move once, in order, and the log was read only for the moves
    # that ended or began a round (at most once a socket)
    for socket in sockets:
        got = await frames_until(socket, lambda f: f.get("type") == "turn" and f["seq"] == 20)
        assert [m["seq"] for m in moves_in(got)] == list(range(1, 21))
        await socket.disconnect()
    rounds = sum(not _within_a_round(body) for body in bodies)
    assert len(reads) <= 3 * rounds
