"""Reading the inbox, marking it read, and the preferences per kind and channel."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.models import Player
from games.notifications.envelope import notification_json
from games.notifications.models import KINDS, Notification, NotificationPreference
from games.notifications.text import texts

#: The channels a notification goes out on; the inbox (and the socket) always.
CHANNELS = ("inbox", "push")


def inbox_rows(*, player: Player) -> QuerySet[Notification]:
    """The player's notifications (a cursor pages them newest first)."""
    return Notification.objects.filter(player=player)


def inbox_json(rows: list[Notification], *, player: Player) -> list[dict[str, Any]]:
    """``player``'s notifications as the inbox lists them: each with the title and body its
    push says, in the active language (the request's)."""
    items = [
        notification_json(
            pk=row.pk,
            kind=row.kind,
            payload=row.payload,
            created_at=row.created_at,
            read=row.read_at is not None,
        )
        for row in rows
    ]
    return [
        {**item, **said}
        for item, said in zip(items, texts(items, player_id=player.pk), strict=True)
    ]


def unread_count(*, player: Player) -> int:
    return Notification.objects.filter(player=player, read_at__isnull=True).count()


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
