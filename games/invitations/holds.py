"""Seats held by pending invitations: what seat join and the lobby leave alone."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from games.invitations.models import Invitation


def holding(*, now: datetime | None = None) -> QuerySet[Invitation]:
    """Invitations that hold their seat now: pending and not past their expiry."""
    return Invitation.objects.filter(
        state=Invitation.State.PENDING, expires_at__gt=now or timezone.now()
    )


def held_positions(*, match_id: int, but: int | None = None) -> list[int]:
    """The seats of ``match_id`` held for an invitee or a link, but invitation ``but``'s."""
    held = holding().filter(match_id=match_id)
    if but is not None:
        held = held.exclude(pk=but)
    return sorted(held.values_list("position", flat=True))


def held_count() -> Coalesce:
    """For a queryset of matches: how many of each match's seats are held (0 for none)."""
    counted = (
        holding()
        .filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def expired_mark(*, match_id: int, now: datetime | None = None) -> int:
    """Mark ``match_id``'s pending invitations past their expiry expired (call it under the
    match's lock, before a new hold is written); how many."""
    now = now or timezone.now()
    return Invitation.objects.filter(
        match_id=match_id, state=Invitation.State.PENDING, expires_at__lte=now
    ).update(state=Invitation.State.EXPIRED, closed_at=now)


def seat_list(positions: list[int]) -> str:
    """``2`` / ``1 and 3`` / ``0, 1 and 3``: seat numbers for a sentence (which says "seat" or
    "seats" as ``len(positions)`` asks)."""
    if len(positions) == 1:
        return str(positions[0])
    *rest, last = map(str, positions)
    return _("%(rest)s and %(last)s") % {"rest": ", ".join(rest), "last": last}


def invitations_expire(*, now: datetime, limit: int) -> int:
    """Mark at most ``limit`` pending invitations past their expiry expired (the sweep); each
    is claimed by a compare-and-set, so two sweepers never mark one twice."""
    due = list(
        Invitation.objects.filter(state=Invitation.State.PENDING, expires_at__lte=now)
        .order_by("expires_at")
        .values_list("pk", flat=True)[:limit]
    )
    return Invitation.objects.filter(pk__in=due, state=Invitation.State.PENDING).update(
        state=Invitation.State.EXPIRED, closed_at=now
    )
