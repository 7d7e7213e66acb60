"""Browser tests: Playwright driving the machine's Chromium (Debian's package, never a download).

Without Chromium they are skipped, unless ``BROWSER_EXPECTED=1`` (set by .ci/run, which
installs it) makes that a failure. Screenshots go to ``tests/artifacts/`` (ignored by git).

Two servers: pytest-django's ``live_server`` (WSGI, in this process, on the test database: no
sockets, so the table polls) and ``asgi_server`` (``manage.py runserver`` as ``make run``
starts it: Daphne, HTTP and the ``/ws/`` sockets, in a process of its own on a database file of
its own, driven over HTTP only).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.foundation.live_server import (
    PYTHON,
    Served,
    embedded_env,
    free_port,
    migrated_database,
    serving,
)

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
#: The flags a headless Chromium needs on a machine with no outside network.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Registering over ``live_server`` hashes with a cheap hasher (the test's own process)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("BROWSER_EXPECTED") == "1":
            pytest.fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
        pytest.skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
    # Playwright's sync API runs an event loop in this thread; the live server's own threads
    # do the database work, the test's ORM reads are plain synchronous calls.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


#: How long a page may take to get somewhere: a loaded CI machine may take seconds per page; a
#: pass never waits for it.
PAGE_TIMEOUT_MS = 60_000


def _polled(page: Any) -> Callable[..., None]:
    """``page.wait_for_function`` that works under the pages' Content-Security-Policy.

    Playwright's own builds its predicate inside the page with ``eval``, which the policy refuses
    (no ``'unsafe-eval'``); ``page.evaluate`` goes through DevTools, which the policy does not
    govern. So: evaluate the predicate every ``polling`` ms until it holds.
    """

    def wait(
        expression: str,
        *,
        arg: Any = None,
        timeout: float | None = None,
        polling: float | str = 50,
    ) -> None:
        every = polling if isinstance(polling, int | float) else 50  # "raf": every 50 ms
        limit = PAGE_TIMEOUT_MS if timeout is None else timeout
        deadline = time.monotonic() + limit / 1000
        while not page.evaluate(expression, arg):
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {limit} ms: {expression}")
            page.wait_for_timeout(every)

    return wait


@pytest.fixture
def new_page(chromium: Any) -> Iterator[Any]:
    """Pages in contexts of their own (each a separate browser profile: its own storage), under
    the service's Content-Security-Policy as a visitor's browser is (no ``bypass_csp``)."""
    contexts = []

    def make(width: int = 1100, height: int = 900) -> Any:
        context = chromium.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.wait_for_function = _polled(page)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot() -> Any:
    def save(page: Any, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


#: What the lobby keeps in local storage once a player has logged in (see web/api.js).
_SIGN_IN = """([token, name, id]) => {
  localStorage.setItem('chickenfoot.token', token);
  localStorage.setItem('chickenfoot.name', name);
  if (id !== null) localStorage.setItem('chickenfoot.player', id);
}"""


@pytest.fixture
def sign_in() -> Callable[..., None]:
    """Sign a page in as a player whose token the test already has, as logging in would."""

    def put(page: Any, base: str, *, token: str, name: str, player_id: int | None = None) -> None:
        page.goto(base + "/")
        page.evaluate(_SIGN_IN, [token, name, None if player_id is None else str(player_id)])

    return put


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``manage.py runserver --insecure`` (Daphne: the page, the API and the sockets) on the
    embedded default, a fresh database file and a free port, for the tests of one module."""
    work = tmp_path_factory.mktemp("asgi")
    database = work / "db.sqlite3"
    migrated_database(tmp_path_factory.getbasetemp(), database)
    port = free_port()
    command = [PYTHON, "manage.py", "runserver", "--noreload", "--insecure", f"127.0.0.1:{port}"]
    env = embedded_env(database, LOG_LEVEL="WARNING")
    with serving(command, port=port, env=env, log=work / "server.log", timeout=90) as server:
        yield server
