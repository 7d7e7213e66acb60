"""Coroutines run apart from the test's thread, which may hold a running event loop already
(a test before it left one): ``asyncio.run`` refuses to run there."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def on_own_loop(test: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``test`` to its end on a new event loop in a new thread: what it returned, or raise
    what it raised."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, test()).result()
