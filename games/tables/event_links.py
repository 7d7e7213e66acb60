"""The scorer links of an event's tables, as the organiser prints them on the table cards."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.tables.models import ScorerLink
from games.tables.scorer_links import scorer_link_code, scorer_link_url


def scorer_base(*, request_base: str) -> str:
    """Where scorer pages live: ``SCORER_LINK_BASE_URL``, or the host the request came to."""
    return settings.SCORER_LINK_BASE_URL or request_base


def tables_scorer_links(*, match_ids: list[int], request_base: str) -> dict[int, dict[str, Any]]:
    """Per match id, its newest scorer link: ``link_id``, ``code`` and ``url`` (``None`` when
    the code cannot be printed: a revoked link, one shown once, or one whose code no key the
    server has derives any more), ``revoked``, and ``needs_new_link`` (nothing to print: the
    organiser revokes it and issues a new one). A match without a link has ``link_id`` null."""
    base = scorer_base(request_base=request_base)
    newest: dict[int, ScorerLink] = {}
    for link in ScorerLink.objects.filter(match_id__in=match_ids).order_by("match_id", "pk"):
        newest[link.match_id] = link
    out: dict[int, dict[str, Any]] = {}
    for match_id in match_ids:
        link = newest.get(match_id)
        revoked = link is not None and link.revoked_at is not None
        code = scorer_link_code(link) if link is not None and not revoked else None
        out[match_id] = {
            "link_id": link.pk if link is not None else None,
            "code": code,
            "url": scorer_link_url(base=base, code=code) if code else None,
            "revoked": revoked,
            "needs_new_link": code is None,
        }
    return out
