"""A password hasher for tests that counts the hashes it computes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.hashers import MD5PasswordHasher


class CountingHasher(MD5PasswordHasher):
    """MD5 (cheap), counting every hash computed: a password set, or one checked."""

    calls = 0

    def encode(self, password: str, salt: str, *args: Any, **kwargs: Any) -> str:
        CountingHasher.calls += 1
        return super().encode(password, salt, *args, **kwargs)
