"""Hashing slots held by other threads, as a request hashing in another thread holds one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from chickenfoot.hashing import password_hashing


@contextmanager
def slots_held(count: int = 1, *, known_device: bool = False) -> Iterator[None]:
    """``count`` threads each inside ``password_hashing()`` for the block (as ``count`` requests
    checking passwords would be; ``known_device``: known devices' log-ins), then out of it."""
    inside = threading.Barrier(count + 1)
    done = threading.Event()

    def hold() -> None:
        with password_hashing(known_device=known_device):
            inside.wait(timeout=10)
            done.wait(timeout=30)

    threads = [threading.Thread(target=hold, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    inside.wait(timeout=10)
    try:
        yield
    finally:
        done.set()
        for thread in threads:
            thread.join(timeout=10)
