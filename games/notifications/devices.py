"""Registering a device for pushes, and removing it: a token belongs to one player at a time."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from push_notifications.models import APNSDevice, GCMDevice

from chickenfoot.problems import NotFoundError
from games.models import Player
from games.notifications.models import PushDevice


class PushDeviceNotFound(NotFoundError):
    code = "push_device_not_found"
    title = gettext_lazy("No such device")


def device_register(
    *, player: Player, kind: str, token: str, p256dh: str = "", auth: str = ""
) -> PushDevice:
    """Register ``token`` (a Web Push endpoint, an APNs or FCM token) for ``player``; the same
    token registered again (by them or by whoever holds the device now) is moved, not doubled."""
    with transaction.atomic():
        device = PushDevice.objects.select_for_update().filter(kind=kind, token=token).first()
        if device is not None and device.player_id != player.pk:
            _drop(device)
            device = None
        if device is None:
            device = PushDevice(player=player, kind=kind, token=token)
        device.p256dh, device.auth = p256dh, auth
        if kind == "apns" and device.apns_id is None:
            device.apns = APNSDevice.objects.create(user=player.user, registration_id=token)
        if kind == "fcm" and device.fcm_id is None:
            device.fcm = GCMDevice.objects.create(
                user=player.user, registration_id=token, cloud_message_type="FCM"
            )
        device.save()
        return device


def device_delete(*, player: Player, device_id: int) -> None:
    """Remove one of ``player``'s devices (404 ``push_device_not_found`` for any other id)."""
    with transaction.atomic():
        device = PushDevice.objects.filter(pk=device_id, player=player).first()
        if device is None:
            raise PushDeviceNotFound(
                _("You have no push device %(device_id)s.") % {"device_id": device_id}
            )
        _drop(device)


def _drop(device: PushDevice) -> None:
    library_row = device.apns or device.fcm
    device.delete()
    if library_row is not None:
        library_row.delete()
