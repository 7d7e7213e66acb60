"""The Celery queues' depth, read from Redis when Prometheus scrapes (``LLEN`` of each queue's
list: the messages waiting for a worker)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import redis
from django.conf import settings
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)


class QueueDepthCollector(Collector):
    """``chickenfoot_celery_queue_depth{queue}``: nothing at all when Redis does not answer."""

    def __init__(self, url: str, queues: list[str]) -> None:
        self.url = url
        self.queues = queues

    @staticmethod
    def _family() -> GaugeMetricFamily:
        return GaugeMetricFamily(
            "chickenfoot_celery_queue_depth",
            "Tasks waiting in each Celery queue (Redis LLEN), read at scrape time.",
            labels=["queue"],
        )

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """What it collects, without asking Redis (when it is registered)."""
        yield self._family()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = self._family()
        try:
            client = redis.Redis.from_url(self.url, socket_connect_timeout=1, socket_timeout=1)
            with client:
                for queue in self.queues:
                    family.add_metric([queue], float(client.llen(queue)))
        except redis.RedisError as exc:
            logger.warning("Queue depth not read: %s", type(exc).__name__)
            return
        yield family


def queue_depth_collector() -> QueueDepthCollector | None:
    """The collector for the broker's queues, or ``None`` without ``REDIS_URL``."""
    if not settings.REDIS_URL:
        return None
    return QueueDepthCollector(
        settings.REDIS_URL, [settings.CELERY_TASK_DEFAULT_QUEUE, settings.BOTS_QUEUE]
    )
