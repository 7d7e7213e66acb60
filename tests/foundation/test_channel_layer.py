"""Production's channel layer (chickenfoot/channel_layer.py): channels_redis's publish/subscribe
layer, what a moment asks of Redis sent together, against a redis-server of the test's own.

Each test runs on an event loop of its own, in a thread of its own: these tests need no
database, so they may run after the browser tests, whose Playwright keeps a loop running on the
main thread for the whole session."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from chickenfoot.channel_layer import BatchedRedisPubSubChannelLayer
from tests.own_loop import on_own_loop
from tests.processes import RedisServer, refusing_port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    own = RedisServer(tmp_path)
    own.start()
    try:
        yield own
    finally:
        own.kill()


def calls(server: RedisServer, command: str) -> int:
    """How many times the server ran ``command``."""
    stats = redis.Redis.from_url(server.url).info("commandstats")
    return int(stats.get(f"cmdstat_{command}", {}).get("calls", 0))


def test_a_moments_subscriptions_are_one_command_and_its_publishes_arrive_in_order(
    server: RedisServer,
) -> None:
    on_own_loop(lambda: _subscriptions_and_publishes(server))


async def _subscriptions_and_publishes(server: RedisServer) -> None:
    layer = BatchedRedisPubSubChannelLayer(hosts=[server.url], prefix="test")
    try:
        channels = await asyncio.gather(*(layer.new_channel() for _ in range(50)))
        await asyncio.gather(*(layer.group_add("table", channel) for channel in channels))
        assert calls(server, "subscribe") == 2  # the 50 channels in one, the group in another

        await asyncio.gather(
            *(layer.group_send("table", {"type": "t", "n": n}) for n in range(100))
        )
        for channel in (channels[0], channels[-1]):
            got = [(await layer.receive(channel))["n"] for _ in range(100)]
            assert got == list(range(100))
        assert calls(server, "publish") == 100

        # left and taken again before anything was sent: nothing to send either way
        await asyncio.gather(
            *(layer.group_discard("table", channel) for channel in channels),
            layer.group_add("table", channels[0]),
        )
        assert calls(server, "unsubscribe") == 0
        await layer.group_send("table", {"type": "t", "n": 100})
        assert (await layer.receive(channels[0]))["n"] == 100
    finally:
        await layer.flush()


def test_a_redis_out_of_reach_fails_each_caller_and_subscribes_nothing() -> None:
    on_own_loop(_out_of_reach)


async def _out_of_reach() -> None:
    with refusing_port() as port:
        layer = BatchedRedisPubSubChannelLayer(
            hosts=[{"address": f"redis://127.0.0.1:{port}/0", "socket_connect_timeout": 1}]
        )
        failed = await asyncio.gather(
            layer.new_channel(), layer.group_send("table", {"type": "t"}), return_exceptions=True
        )
        assert all(isinstance(error, redis.ConnectionError) for error in failed), failed
        shard = layer._get_layer()._shards[0]
        assert shard._subscribed_to == set()
        await layer.flush()
