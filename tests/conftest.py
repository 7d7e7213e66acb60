"""Fixtures for the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from chickenfoot.celery import app as celery_app
from chickenfoot.i18n.catalogs import compile_all, stale_catalogs
from games.live.threads import close_threads


def pytest_sessionstart(session: pytest.Session) -> None:
    """The catalogs compiled, as `make install` and `make test` leave them, when a test run
    starts without them (pytest run on its own after a catalog changed)."""
    stale = stale_catalogs()
    if stale:
        compile_all(paths=stale)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """pytest-django's, and before the test database is dropped, the sockets' threads close
    their connections to it (games/live/threads.py)."""
    yield
    close_threads()


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


@pytest.fixture(autouse=True)
def _no_sweeps_after_requests(settings: Any) -> None:
    """No sweeps after requests (on the embedded default they run every few seconds): a sweep
    would add queries to whichever test it fell in. ``tests/games/test_sweeps.py`` tests them.
    """
    settings.SWEEP_ON_REQUEST = False


@contextmanager
def broker_at(url: str) -> Iterator[None]:
    """Send tasks to the broker at ``url`` (not eagerly) inside the block; then as before.

    The app's connection pools are dropped on the way in and out, so the next send connects to
    the broker in force. Lets a test point the app at a dead port or at a Redis it started.
    """

    def drop_pools() -> None:
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    conf = celery_app.conf
    saved = (conf.broker_url, conf.task_always_eager)
    drop_pools()
    conf.broker_url, conf.task_always_eager = url, False
    try:
        yield
    finally:
        conf.broker_url, conf.task_always_eager = saved
        drop_pools()


@pytest.fixture(autouse=True)
def _no_clock_timers(settings: Any) -> Iterator[None]:
    """Turn clocks start no timer threads in tests (tests run a clock's task themselves), and a
    test that turns them on leaves none behind."""
    from games.services.clock import clock_timers_cancel

    settings.CLOCK_IN_PROCESS = False
    yield
    clock_timers_cancel()


@pytest.fixture(autouse=True)
def _bots_in_the_request(settings: Any) -> None:
    """Matches of bots only play their turns eagerly, in the request, as every task does in
    tests; ``tests/games/test_bot_thread.py`` turns the bot thread on and tests it."""
    settings.BOTS_IN_BACKGROUND = False


@pytest.fixture(autouse=True)
def _analysis_when_asked(settings: Any) -> None:
    """A finished match is analysed when its analysis is first asked for, not as it ends (the
    tests that finish matches need no analysis); ``tests/games/test_analysis.py`` turns it on."""
    settings.ANALYSIS_ON_FINISH = False


@pytest.fixture(autouse=True)
def _results_may_be_joined() -> None:
    """Each test starts with Celery's "a task is running here" flag down. An eager task raises
    that process-wide flag while it runs and puts back what it found; two eager tasks in two
    threads (a live server's, a bot thread's) can put them back out of order and leave it up, and
    then a later test's ``result.get()`` is refused ("Never call result.get() within a task")."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def _no_request_limits(settings: Any) -> None:
    """Requests are not throttled in tests: the suite registers players and plays moves faster
    than people do. ``tests/games/test_limits.py`` turns the limits on and tests them."""
    settings.THROTTLE_RATES = {}


@pytest.fixture(autouse=True)
def _no_token_rows_kept_from_another_test() -> None:
    """Each test starts with no token lookups kept in this process (a test's database rows are
    rolled back behind the cache's back)."""
    from games.accounts import token_cache

    token_cache.clear()


@pytest.fixture(autouse=True)
def _no_hashing_bounds(settings: Any) -> None:
    """Password hashes are not bounded in tests (the suite registers players faster than a
    server allows); ``tests/games/test_hashing.py`` turns the bounds on and tests them."""
    settings.PASSWORD_HASHES_PER_SECOND = 0
    settings.PASSWORD_HASHES_AT_ONCE = 0
    settings.PASSWORD_HASHES_KNOWN_DEVICES_PER_SECOND = 0
    settings.PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE = 0


@pytest.fixture(autouse=True, scope="session")
def _every_api_answer_fits_the_schema() -> Iterator[None]:
    """Every answer the suite receives from ``/api/`` (Django's test client and DRF's
    ``APIClient``) is checked against the OpenAPI schema the server serves: its status is
    declared for the operation, its content type is one the status declares, its body fits that
    schema, and a request the server served (below 400) is one the schema allows. The schema is
    read once per session; docs/api.md, "The contract", says how it is kept.
    """
    from django.test.client import Client

    from tests.games.schema_check import answer_fits_the_schema

    sent = Client.request

    def request(self: Client, **environ: Any) -> Any:
        response = sent(self, **environ)
        answer_fits_the_schema(response)
        return response

    Client.request = request  # type: ignore[method-assign]
    try:
        yield
    finally:
        Client.request = sent  # type: ignore[method-assign]
