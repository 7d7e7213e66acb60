"""Production's channel layer: channels_redis's publish/subscribe layer, sending what a moment
asks of Redis together.

channels_redis's ``RedisPubSubChannelLayer`` sends each SUBSCRIBE, UNSUBSCRIBE and PUBLISH of a
process one at a time under one lock, a PUBLISH holding it until Redis answers. A serving
process with thousands of sockets asks many at once: a socket's channel and groups as it opens,
and again as it closes, its presence to the match's other seats and their answers. One at a
time, each waiting for its answer through an event loop busy with every other socket, they
queued for tens of seconds when ten thousand phones reconnected at once, and a socket's
handshake waited behind them (its channel is subscribed before it is accepted): docs/
operations.md, "Sockets at scale".

Here what is asked queues, and one task per Redis sends whatever has queued when it gets to
it: the subscriptions in one SUBSCRIBE and the unsubscriptions in one UNSUBSCRIBE on the
subscriber connection, the publishes in one pipeline (one round trip), in the order they were
asked; while Redis answers, the next batch queues. As before, a subscription returns once it
is sent, a publish once Redis took it, and either raises what sending raised. Receiving is
channels_redis's own.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)


class _Batch:
    """What has queued for one send: publishes, channels to subscribe and to unsubscribe, and
    the callers waiting on each kind."""

    def __init__(self) -> None:
        self.publishes: list[tuple[str, bytes]] = []
        self.subscribe: set[str] = set()
        self.unsubscribe: set[str] = set()
        self.published: list[asyncio.Future[None]] = []
        self.subscribed: list[asyncio.Future[None]] = []

    def __bool__(self) -> bool:
        return bool(self.published or self.subscribed)


class BatchedShard(RedisSingleShardConnection):
    """One Redis of the layer, its commands sent in batches (``_send``)."""

    def __init__(self, host: Any, channel_layer: RedisPubSubLoopLayer) -> None:
        super().__init__(host, channel_layer)
        self._queued = _Batch()
        self._sending = _Batch()
        self._sender: asyncio.Task[None] | None = None

    async def publish(self, channel: str, message: bytes) -> None:
        self._queued.publishes.append((channel, message))
        await self._wait(self._queued.published)

    async def subscribe(self, channel: str) -> None:
        if channel in self._subscribed_to:
            return
        self._subscribed_to.add(channel)
        if channel in self._queued.unsubscribe:  # still subscribed at Redis: nothing to send
            self._queued.unsubscribe.discard(channel)
            return
        self._queued.subscribe.add(channel)
        await self._wait(self._queued.subscribed)

    async def unsubscribe(self, channel: str) -> None:
        if channel not in self._subscribed_to:
            return
        self._subscribed_to.discard(channel)
        if channel in self._queued.subscribe:  # never sent: nothing to undo
            self._queued.subscribe.discard(channel)
            return
        self._queued.unsubscribe.add(channel)
        await self._wait(self._queued.subscribed)

    async def flush(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            self._sender = None
        for batch in (self._sending, self._queued):
            _settle([*batch.published, *batch.subscribed], ConnectionError("the layer was flushed"))
        self._sending, self._queued = _Batch(), _Batch()
        await super().flush()

    async def _wait(self, waiters: list[asyncio.Future[None]]) -> None:
        future = asyncio.get_running_loop().create_future()
        waiters.append(future)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.ensure_future(self._send())
        await future

    async def _send(self) -> None:
        while self._queued:
            batch = self._sending = self._queued
            self._queued = _Batch()
            await self._send_subscriptions(batch)
            await self._send_publishes(batch)

    async def _send_subscriptions(self, batch: _Batch) -> None:
        if not batch.subscribed:
            return
        try:
            async with self._lock:
                self._ensure_redis()
                self._ensure_receiver()
                if batch.subscribe:
                    await self._pubsub.subscribe(*batch.subscribe)
                if batch.unsubscribe:
                    await self._pubsub.unsubscribe(*batch.unsubscribe)
        except Exception as error:  # noqa: BLE001 - each caller gets it, as one at a time would
            self._subscribed_to -= batch.subscribe  # as if never asked
            _settle(batch.subscribed, error)
        else:
            _settle(batch.subscribed)

    async def _send_publishes(self, batch: _Batch) -> None:
        if not batch.published:
            return
        try:
            async with self._lock:
                self._ensure_redis()
                pipeline = self._redis.pipeline(transaction=False)
                for channel, message in batch.publishes:
                    pipeline.publish(channel, message)
                await pipeline.execute()
        except Exception as error:  # noqa: BLE001 - each caller gets it, as one at a time would
            _settle(batch.published, error)
        else:
            _settle(batch.published)


def _settle(waiters: list[asyncio.Future[None]], error: BaseException | None = None) -> None:
    for future in waiters:
        if future.done():  # its caller was cancelled: what it asked was sent all the same
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


class BatchedRedisPubSubChannelLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` whose Redis connections send in batches (``BatchedShard``)."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        layer = super()._get_layer()
        if not isinstance(layer._shards[0], BatchedShard):
            layer._shards = [BatchedShard(shard.host, layer) for shard in layer._shards]
        return layer


__all__ = ["BatchedRedisPubSubChannelLayer", "BatchedShard"]
