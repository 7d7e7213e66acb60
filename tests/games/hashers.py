"""A password hasher for tests that counts the hashes it computes."""

from __future__ import annotations

import threading
from typing import Any

from django.contrib.auth.hashers import MD5PasswordHasher

from chickenfoot.hashing import HashedAside


class CountingHasher(MD5PasswordHasher):
    """MD5 (cheap), counting every hash computed: a password set, or one checked."""

    calls = 0

    def encode(self, password: str, salt: str, *args: Any, **kwargs: Any) -> str:
        CountingHasher.calls += 1
        return super().encode(password, salt, *args, **kwargs)


class GatedHasher(CountingHasher):
    """``CountingHasher`` whose hashes, while ``gate`` is closed (cleared), wait until it opens
    (at most 30 s): a hash that is running for as long as a test needs, and ``started`` is set
    once one has begun."""

    gate = threading.Event()
    started = threading.Event()

    def encode(self, password: str, salt: str, *args: Any, **kwargs: Any) -> str:
        GatedHasher.started.set()
        GatedHasher.gate.wait(timeout=30)
        return super().encode(password, salt, *args, **kwargs)


class GuessGatedHasher(CountingHasher):
    """``CountingHasher`` whose hashes of the password ``GATED`` (a flood's guess), while
    ``gate`` is closed, wait until it opens (at most 30 s); ``started`` is set once one has
    begun, ``ended`` once one has ended. Other passwords hash at once."""

    GATED = "guess"
    gate = threading.Event()
    started = threading.Event()
    ended = threading.Event()

    def encode(self, password: str, salt: str, *args: Any, **kwargs: Any) -> str:
        if password == GuessGatedHasher.GATED:
            GuessGatedHasher.started.set()
            GuessGatedHasher.gate.wait(timeout=30)
        try:
            return super().encode(password, salt, *args, **kwargs)
        finally:
            if password == GuessGatedHasher.GATED:
                GuessGatedHasher.ended.set()


class AsideGatedHasher(HashedAside, GuessGatedHasher):
    """``GuessGatedHasher`` hashing as production's hasher does (``HashedAside``): in a hashing
    thread of lower priority, a known device's in the request's own thread."""
