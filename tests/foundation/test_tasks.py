"""Outside ``worker`` tests, tasks run in-process (the embedded default's eager mode)."""

from __future__ import annotations

import pytest
from celery.result import EagerResult
from django.contrib.auth.models import User

from games.tasks import ping, user_count


def test_ping_runs_eagerly() -> None:
    result = ping.delay()

    assert isinstance(result, EagerResult)
    assert result.get() == "pong"


@pytest.mark.django_db
def test_user_count_reads_the_database() -> None:
    User.objects.create_user(username="seat-1")

    assert user_count.delay().get() == 1
