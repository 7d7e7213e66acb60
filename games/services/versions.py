"""What every writer of a match checks under its lock: the version the client answers."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.models import Match
from games.problems import StaleVersion, VersionAhead, VersionRequired


def version_check(*, match: Match, expected_version: int | None) -> None:
    """Refuse a write that answers no version (428), one the match has not reached or one it
    has passed (409, with ``current_version``). The caller holds the match lock
    (``games.services.common.match_lock``), so the version cannot change before it writes."""
    if expected_version is None:
        raise VersionRequired(
            "Send the version you are answering: the body's `version` or `If-Match`.",
            extra={"current_version": match.version},
        )
    if expected_version > match.version:
        raise VersionAhead(
            f"The match is at version {match.version}; it has not reached "
            f"{expected_version}. Send the version of the state you are answering.",
            extra={"current_version": match.version},
        )
    if expected_version != match.version:
        raise StaleVersion(
            f"The match is at version {match.version}, not {expected_version}: "
            "fetch it again and resend.",
            extra={"current_version": match.version},
        )


def request_fingerprint(payload: dict[str, Any]) -> str:
    """A fingerprint of a request, to tell a retry from a different request under one
    ``Idempotency-Key``."""
    canonical = json.dumps(payload, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()
