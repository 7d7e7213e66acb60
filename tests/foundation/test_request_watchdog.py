"""The request watchdog (chickenfoot/request_watchdog.py), in this process: a request past the
limit ends the process (here, a stand-in records the exit); the rest pass through untouched.
tests/foundation/test_reverse_proxy.py runs it for real, in granian behind nginx."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from chickenfoot import request_watchdog
from chickenfoot.request_watchdog import EXIT_STATUS, RequestWatchdog, watched


def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    time.sleep(float(environ.get("sleep", 0)))
    start_response("200 OK", [])
    return [b"ok"]


def test_a_request_within_the_limit_passes_and_is_forgotten() -> None:
    dog = RequestWatchdog(app, limit=5, exit_process=pytest.fail)

    assert dog({"REQUEST_METHOD": "GET", "PATH_INFO": "/"}, lambda *a: None) == [b"ok"]
    assert dog.stuck(time.monotonic() + 60) is None


def test_a_request_past_the_limit_ends_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_watchdog, "POLL_SECONDS", 0.05)
    exits: list[int] = []
    ended = threading.Event()

    def exit_process(status: int) -> None:
        exits.append(status)
        ended.set()

    dog = RequestWatchdog(app, limit=0.2, exit_process=exit_process)
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/slow", "sleep": "1"}
    threading.Thread(target=dog, args=(environ, lambda *a: None), daemon=True).start()

    assert ended.wait(5)
    assert exits == [EXIT_STATUS]


def test_only_a_set_limit_puts_the_watchdog_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REQUEST_TIMEOUT_SECONDS", raising=False)
    assert watched(app) is app
    monkeypatch.setenv("REQUEST_TIMEOUT_SECONDS", "30")
    wrapped = watched(app)
    assert isinstance(wrapped, RequestWatchdog)
    assert wrapped.limit == 30
