"""The rows of notifications: the inbox, the preferences, the push devices and deliveries."""

from __future__ import annotations

from django.db import models

KINDS = (
    "your_turn",
    "invited",
    "match_started",
    "match_over",
    "table_assigned",
    "round_disputed",
    "result_corrected",
    "friend_request",
    "friend_accepted",
)
DEVICE_KINDS = ("webpush", "apns", "fcm")


class Notification(models.Model):
    """One entry of a player's inbox. ``key`` makes a notification happen once (``your_turn``
    of match 7 at version 12, say): a second ``notify`` with the same key adds nothing."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE)
    kind = models.CharField(max_length=24, choices=[(k, k) for k in KINDS])
    payload = models.JSONField(default=dict)
    key = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="notification_unique_key")
        ]
        indexes = [models.Index(fields=["player", "read_at"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.kind} for player {self.player_id}"


class NotificationPreference(models.Model):
    """Whether a kind is pushed to the player's devices (the inbox and socket always get it)."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE)
    kind = models.CharField(max_length=24, choices=[(k, k) for k in KINDS])
    push = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="preference_unique_kind")
        ]

    def __str__(self) -> str:
        return f"{self.kind} of player {self.player_id}: push {self.push}"


class PushDevice(models.Model):
    """A device that receives pushes: a Web Push subscription (its endpoint and keys), or an
    APNs/FCM token kept in django-push-notifications' own device row."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE)
    kind = models.CharField(max_length=8, choices=[(k, k) for k in DEVICE_KINDS])
    #: The Web Push endpoint, or the APNs/FCM registration token.
    token = models.CharField(max_length=1000)
    p256dh = models.CharField(max_length=200, blank=True, default="")
    auth = models.CharField(max_length=100, blank=True, default="")
    apns = models.OneToOneField(
        "push_notifications.APNSDevice", null=True, blank=True, on_delete=models.CASCADE
    )
    fcm = models.OneToOneField(
        "push_notifications.GCMDevice", null=True, blank=True, on_delete=models.CASCADE
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "token"], name="push_device_unique_token")
        ]

    def __str__(self) -> str:
        return f"{self.kind} device {self.pk} of player {self.player_id}"


class PushDelivery(models.Model):
    """A notification sent to a device, at most once: written as it is sent; a retry of the
    delivery task skips the devices that have one."""

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE)
    device = models.ForeignKey(PushDevice, on_delete=models.CASCADE)
    sent_at = models.DateTimeField(auto_now_add=True)
    status = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "device"], name="push_delivery_once_per_device"
            )
        ]

    def __str__(self) -> str:
        return f"notification {self.notification_id} to device {self.device_id}"
