"""A password hasher for tests that counts the hashes it computes."""

from __future__ import annotations

import threading
from typing import Any

from django.contrib.auth.hashers import MD5PasswordHasher


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
