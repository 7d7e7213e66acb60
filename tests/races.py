"""Calls made at once from threads, for the race tests (PostgreSQL's row locks at work)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def race(calls: list[Callable[[], Any]], *, keep_errors: bool = False) -> list[Any]:
    """Run ``calls`` each in a thread of its own, released together by a barrier; their answers
    in order. With ``keep_errors`` an exception a call raised is its answer (for the test to
    read); otherwise it ends that thread, whose answer stays ``None``. Each thread closes its
    database connections."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            answers[i] = calls[i]()
        except Exception as exc:
            if not keep_errors:
                raise
            answers[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers
