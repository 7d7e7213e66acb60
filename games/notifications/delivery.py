"""The push of a notification to the player's devices: a task queued after commit.

At most once per notification and device: a ``PushDelivery`` row is claimed (its unique
constraint) before the send, so a retried or duplicated task skips the devices done before. A
send that fails and may succeed later gives its claim back and is retried by a worker (a
countdown that doubles); run in-process (the embedded default) it is logged and given up. A
device the push service no longer knows (404/410, an unregistered token) is removed. A kind
the player turned push off for is not sent; a channel without its settings sends nothing.

What is pushed is the inbox's envelope with its ``title`` and ``body`` in the player's language
(``text``). It is held back, and stays in the inbox only, while the player watches its match
live or has the app in the foreground (``watching``), and during their quiet hours (``quiet``).
Each ``your_turn`` of a match goes out under one topic (``collapse_topic``): a newer one
replaces the one a device shows (Web Push ``Topic``, APNs ``apns-collapse-id``, FCM
``collapse_key``).
"""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation

from games.accounts.language import player_language
from games.models import Player
from games.notifications import native, webpush
from games.notifications.envelope import notification_json
from games.notifications.models import (
    Notification,
    NotificationPreference,
    PushDelivery,
    PushDevice,
)
from games.notifications.quiet import quiet_now
from games.notifications.text import texts
from games.notifications.watching import watching

logger = logging.getLogger(__name__)


def push_wanted(*, player_id: int, kind: str) -> bool:
    """Does the player want ``kind`` pushed? Yes unless they turned it off."""
    return not NotificationPreference.objects.filter(
        player_id=player_id, kind=kind, push=False
    ).exists()


def _claim(notification: Notification, device: PushDevice) -> PushDelivery | None:
    try:
        with transaction.atomic():
            return PushDelivery.objects.create(notification=notification, device=device)
    except IntegrityError:
        return None


def collapse_topic(*, kind: str, payload: dict[str, object]) -> str | None:
    """The topic under which a newer push replaces an older one: one per match for
    ``your_turn`` (at most 32 URL-safe characters, as Web Push's ``Topic`` takes), none for
    the other kinds."""
    if kind != "your_turn":
        return None
    return f"your-turn-{payload['match_id']}"


def held_back(*, notification: Notification, player: Player) -> str | None:
    """Why the push of ``notification`` waits in the inbox (``None``: it goes out)."""
    if quiet_now(
        time_zone=player.time_zone, start=player.quiet_hours_start, end=player.quiet_hours_end
    ):
        return "quiet hours"
    if watching(player_id=player.pk, match_id=notification.payload.get("match_id")):
        return "watching live"
    return None


def push_message(notification: Notification) -> dict[str, object]:
    """The envelope a device gets: the inbox's, with its title and body in the active
    language."""
    message = notification_json(
        pk=notification.pk,
        kind=notification.kind,
        payload=notification.payload,
        created_at=notification.created_at,
        read=False,
    )
    (said,) = texts([message], player_id=notification.player_id)
    return {**message, **said}


def _send(device: PushDevice, message: dict[str, object], topic: str | None) -> int | None:
    """The status of a send, ``None`` when the channel is not configured."""
    if device.kind == "webpush":
        if not webpush.configured():
            return None
        return webpush.webpush_send(device=device, message=message, topic=topic)
    if not native.configured(device.kind):
        return None
    return native.native_send(device=device, message=message, topic=topic)


def deliver(*, notification_id: int) -> tuple[int, int]:
    """Push the notification to each device not sent to yet: (sent, to retry)."""
    notification = Notification.objects.filter(pk=notification_id).first()
    if notification is None or not push_wanted(
        player_id=notification.player_id, kind=notification.kind
    ):
        return 0, 0
    player = Player.objects.filter(pk=notification.player_id).first()
    if player is None:
        return 0, 0
    why = held_back(notification=notification, player=player)
    if why is not None:
        logger.info("Push of notification %s held back: %s", notification.pk, why)
        return 0, 0
    with translation.override(player_language(player)):  # the text, in their language
        message = push_message(notification)
    topic = collapse_topic(kind=notification.kind, payload=notification.payload)
    sent = again = 0
    devices = PushDevice.objects.filter(player_id=notification.player_id).select_related(
        "apns", "fcm"
    )
    for device in devices.order_by("pk"):
        claim = _claim(notification, device)
        if claim is None:
            continue  # sent before
        try:
            status = _send(device, message, topic)
        except webpush.Gone as gone:
            logger.info("Push device %s is gone (%s): removed", device.pk, gone)
            if device.apns_id or device.fcm_id:
                (device.apns or device.fcm).delete()  # and this device, with it
            device.delete()
            continue
        except webpush.NotSent as error:
            logger.warning("Push to device %s not sent: %s", device.pk, error)
            claim.delete()
            again += 1
            continue
        if status is None:
            claim.delete()
            continue
        PushDelivery.objects.filter(pk=claim.pk).update(status=status)
        sent += 1
    return sent, again


@shared_task(bind=True, acks_late=True, max_retries=5)
def push_deliver(self: Task, notification_id: int) -> int:
    """Push notification ``notification_id``; how many devices it reached this time."""
    sent, again = deliver(notification_id=notification_id)
    if again and not self.request.is_eager:
        countdown = min(int(settings.COUNTDOWN_MAX_SECONDS), 2**self.request.retries)
        raise self.retry(countdown=max(1, countdown))
    return sent
