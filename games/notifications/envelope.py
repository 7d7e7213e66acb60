"""A notification as the inbox, the socket and every push show it: the one envelope the
writers (``services``), the delivery task (``delivery``) and the inbox (``inbox``) all shape
it with. It imports nothing of theirs, so the writes import the delivery and never the other
way round."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def notification_json(
    *, pk: int, kind: str, payload: dict[str, Any], created_at: datetime, read: bool
) -> dict[str, Any]:
    """A notification as the inbox, the socket and every push show it."""
    return {
        "id": pk,
        "kind": kind,
        "payload": payload,
        "created_at": created_at.isoformat().replace("+00:00", "Z"),
        "read": read,
    }
