"""What a token's lookup found, kept in this process for ``TOKEN_CACHE_SECONDS`` (5 at most).

``authentication.PlayerTokenAuthentication`` looks a token up by its digest; the row it finds
(the token's, its user's and their player's columns: plain values, never model instances) is kept
here, so the requests of a turn hash the token once and skip the query. Each request builds its
own instances from the row, so no two requests or threads share one.

A revocation in this process stops the token at once: deleting a token, saving or deleting its
user or their player evicts it (``evict_token``, ``evict_user``, wired to the models' signals in
``games.apps``), now and again when the transaction commits. A lookup that began before an
eviction is not kept (``generation``), so a row read before a revocation cannot come back. In
another process the row is believed for ``TOKEN_CACHE_SECONDS`` after it was read, never longer:
that is the bound on a revocation elsewhere (docs/api.md, "Accounts and tokens"). Expiry is
checked on every request against the kept ``expiry``, so an expired token stops at its expiry in
every process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

from django.db import transaction

#: The most rows kept; past it the oldest go (a process serves far fewer tokens in 5 s).
MAX_ENTRIES = 10_000

Row = tuple[Any, ...]

_lock = threading.Lock()
#: digest -> (monotonic time the row was read, the row, its user's id)
_entries: dict[str, tuple[float, Row, int]] = {}
_generation = 0


def generation() -> int:
    """A number that changes at each eviction: take it before a lookup, give it to ``keep``."""
    return _generation


def now() -> float:
    """The clock the ages of rows are measured by."""
    return time.monotonic()


def kept(digest: str, seconds: float) -> Row | None:
    """The row read for ``digest`` less than ``seconds`` ago, if one is kept."""
    entry = _entries.get(digest)
    if entry is None:
        return None
    if now() - entry[0] >= seconds:
        with _lock:
            if _entries.get(digest) is entry:
                del _entries[digest]
        return None
    return entry[1]


def keep(digest: str, row: Sequence[Any], user_id: int, *, read_at: float, since: int) -> None:
    """Keep ``row``, read at ``read_at``, unless something was evicted since ``since``."""
    with _lock:
        if _generation != since:
            return
        if len(_entries) >= MAX_ENTRIES:
            for old in list(_entries)[: MAX_ENTRIES // 10]:
                del _entries[old]
        _entries[digest] = (read_at, tuple(row), user_id)


def replace(digest: str, row: Sequence[Any]) -> None:
    """The kept row of ``digest`` becomes ``row`` (a new ``last_used``); its age stays."""
    with _lock:
        entry = _entries.get(digest)
        if entry is not None:
            _entries[digest] = (entry[0], tuple(row), entry[2])


def _evict(digests: list[str] | None = None, user_id: int | None = None) -> None:
    global _generation
    with _lock:
        _generation += 1
        for digest in digests or ():
            _entries.pop(digest, None)
        if user_id is not None:
            for digest in [d for d, entry in _entries.items() if entry[2] == user_id]:
                del _entries[digest]


def _now_and_on_commit(digests: list[str] | None = None, user_id: int | None = None) -> None:
    _evict(digests, user_id)
    transaction.on_commit(lambda: _evict(digests, user_id))


def evict_token(digest: str) -> None:
    """The token of ``digest`` is revoked: forget its row now and when the change commits."""
    _now_and_on_commit(digests=[digest])


def evict_user(user_id: int) -> None:
    """``user_id`` changed (made inactive, deleted, renamed): forget every row of theirs."""
    _now_and_on_commit(user_id=user_id)


def clear() -> None:
    """Forget every row."""
    global _generation
    with _lock:
        _generation += 1
        _entries.clear()


def on_token_deleted(sender: type, instance: Any, **kwargs: Any) -> None:
    """``post_delete`` of a token."""
    evict_token(instance.digest)


def on_user_changed(sender: type, instance: Any, **kwargs: Any) -> None:
    """``post_save`` and ``post_delete`` of a user."""
    evict_user(instance.pk)


def on_player_changed(sender: type, instance: Any, **kwargs: Any) -> None:
    """``post_save`` and ``post_delete`` of a player (a bot has no user, nor tokens)."""
    if instance.user_id is not None:
        evict_user(instance.user_id)
