"""Tasks round-trip through the real broker and a real worker (CI: ``CELERY_WORKER_EXPECTED=1``).

The worker must use the database the tests write to (in CI, pytest-django's ``test_<name>``), so
a task that reads rows sees what a ``transactional_db`` test committed.
"""

from __future__ import annotations

import os

import pytest
import redis
from celery.result import AsyncResult, EagerResult
from django.conf import settings
from django.contrib.auth.models import User

from chickenfoot.celery import app as celery_app
from games.tasks import ping, user_count

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(
        os.environ.get("CELERY_WORKER_EXPECTED") != "1",
        reason="no worker expected: set REDIS_URL, start a worker, and CELERY_WORKER_EXPECTED=1",
    ),
]

RESULT_TIMEOUT = 20


@pytest.fixture
def broker() -> None:
    """Fails (never skips) when a worker is expected but the broker is missing or down."""
    if not settings.REDIS_URL:
        pytest.fail("CELERY_WORKER_EXPECTED=1 but REDIS_URL is not set")
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.fail(f"the broker at {settings.REDIS_URL} is unreachable: {exc}")
    finally:
        client.close()
    assert celery_app.conf.task_always_eager is False


def test_ping_round_trips_through_the_worker(broker: None) -> None:
    # when
    result = ping.delay()

    # then
    assert isinstance(result, AsyncResult)
    assert not isinstance(result, EagerResult)
    assert result.get(timeout=RESULT_TIMEOUT) == "pong"


@pytest.mark.django_db(transaction=True)
def test_worker_reads_the_database_the_tests_write(broker: None) -> None:
    # given: rows committed by the test
    User.objects.create_user(username="seat-1")
    User.objects.create_user(username="seat-2")

    # when
    counted = user_count.delay().get(timeout=RESULT_TIMEOUT)

    # then
    assert counted == User.objects.count() == 2
