"""Reads that may lag go to the read replica; everything else goes to the primary.

A view opts in with ``replica_reads()`` (a context manager, or a decorator on its ``get``):
inside it, reads of any model go to the ``"replica"`` database when settings configure one
(``DATABASE_REPLICA_URL``). Outside it, and inside a transaction on the primary (an
``atomic`` block, where ``select_for_update`` runs), reads stay on ``"default"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"

_replica_reads: ContextVar[bool] = ContextVar("replica_reads", default=False)


@contextmanager
def replica_reads() -> Iterator[None]:
    """Reads made inside may be served by the replica (a second or so behind the primary)."""
    token = _replica_reads.set(True)
    try:
        yield
    finally:
        _replica_reads.reset(token)


class ReplicaRouter:
    """Installed only when ``DATABASE_REPLICA_URL`` is set, when settings add ``"replica"``."""

    def db_for_read(self, model: type, **hints: Any) -> str | None:
        # Settings install the router only together with the "replica" database.
        if not _replica_reads.get() or connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return None
        return REPLICA

    def db_for_write(self, model: type, **hints: Any) -> str | None:
        return None

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        # The replica is a copy PostgreSQL's streaming replication keeps; it is never migrated.
        return db == DEFAULT_DB_ALIAS
