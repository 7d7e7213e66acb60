"""Reading the inbox, marking it read, and the preferences per kind and channel."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Player
from games.notifications.models import KINDS, Notification, NotificationPreference
from games.notifications.services import notification_json

#: The channels a notification goes out on; the inbox (and the socket) always.
CHANNELS = ("inbox", "push")


def inbox_page(*, player: Player, after: int | None, limit: int) -> dict[str, Any]:
    """The newest notifications first, ``limit`` a page, older than the cursor ``after`` (a
    notification's id); ``next`` is the next page's cursor, ``unread`` the count of all unread."""
    rows = Notification.objects.filter(player=player)
    if after is not None:
        rows = rows.filter(pk__lt=after)
    page = list(rows.order_by("-pk")[: limit + 1])
    more = len(page) > limit
    page = page[:limit]
    return {
        "notifications": [
            notification_json(
                pk=row.pk,
                kind=row.kind,
                payload=row.payload,
                created_at=row.created_at,
                read=row.read_at is not None,
            )
            for row in page
        ],
        "next": page[-1].pk if more else None,
        "unread": Notification.objects.filter(player=player, read_at__isnull=True).count(),
    }


def notifications_read(*, player: Player, ids: list[int] | None, up_to: int | None) -> int:
    """Mark the player's ``ids``, or every one up to id ``up_to``, read; the unread left.
    Another player's ids are none of theirs: they mark nothing."""
    rows = Notification.objects.filter(player=player, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    if up_to is not None:
        rows = rows.filter(pk__lte=up_to)
    rows.update(read_at=timezone.now())
    return Notification.objects.filter(player=player, read_at__isnull=True).count()


def preferences_get(*, player: Player) -> list[dict[str, Any]]:
    """Each kind with its channels: the inbox always, push unless turned off."""
    off = set(
        NotificationPreference.objects.filter(player=player, push=False).values_list(
            "kind", flat=True
        )
    )
    return [{"kind": kind, "inbox": True, "push": kind not in off} for kind in KINDS]


def preferences_set(*, player: Player, preferences: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Set push per kind for the kinds named (the others keep theirs); all of them after."""
    with transaction.atomic():
        for item in preferences:
            NotificationPreference.objects.update_or_create(
                player=player, kind=item["kind"], defaults={"push": item["push"]}
            )
    return preferences_get(player=player)
