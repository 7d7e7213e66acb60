"""What every writer of a match checks under its lock: the version the client answers."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.translation import gettext as _

from games.models import Match
from games.problems import StaleVersion, VersionAhead, VersionRequired


def version_check(*, match: Match, expected_version: int | None) -> None:
    """Refuse a write that answers no version (428), one the match has not reached or one it
    has passed (409, with ``current_version``), unless all it passed is the match's results
    being written (``_results_since``). The caller holds the match lock
    (``games.services.common.match_lock``), so the version cannot change before it writes."""
    if expected_version is None:
        raise VersionRequired(
            _("Send the version you are answering: the body's `version` or `If-Match`."),
            extra={"current_version": match.version},
        )
    if expected_version > match.version:
        raise VersionAhead(
            _(
                "The match is at version %(version)s; it has not reached "
                "%(expected_version)s. Send the version of the state you are "
                "answering."
            )
            % {"version": match.version, "expected_version": expected_version},
            extra={"current_version": match.version},
        )
    if expected_version != match.version and not _results_since(match, expected_version):
        raise StaleVersion(
            _(
                "The match is at version %(version)s, not "
                "%(expected_version)s: fetch it again and resend."
            )
            % {"version": match.version, "expected_version": expected_version},
            extra={"current_version": match.version},
        )


def _results_since(match: Match, expected_version: int) -> bool:
    """Whether the one change since ``expected_version`` is the match's results being written
    (``Match.results_version``): they change no score, so a write answering the version before
    them still stands."""
    return expected_version == match.version - 1 and match.results_version == match.version


def request_fingerprint(payload: dict[str, Any]) -> str:
    """A fingerprint of a request, to tell a retry from a different request under one
    ``Idempotency-Key``."""
    canonical = json.dumps(payload, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()
