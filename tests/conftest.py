"""Fixtures for the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chickenfoot.celery import app as celery_app


@pytest.fixture(autouse=True)
def _celery_eager_unless_worker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run tasks in-process in every test but those marked ``worker``.

    Tests then behave the same on the embedded default and in CI, where ``REDIS_URL`` is set:
    only ``@pytest.mark.worker`` tests talk to the real broker and worker.
    """
    if request.node.get_closest_marker("worker"):
        yield
        return
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_eager_propagates)
    conf.task_always_eager, conf.task_eager_propagates = True, True
    try:
        yield
    finally:
        conf.task_always_eager, conf.task_eager_propagates = saved
