"""APNs and FCM pushes, and what they carry.

Each ``PushDevice`` of kind ``apns`` or ``fcm`` keeps its token in django-push-notifications'
own device row (``APNSDevice``, ``GCMDevice`` of type FCM). FCM is sent to with that row's
``send_message`` (firebase-admin, FCM's HTTP v1). APNs is sent to with aioapns (HTTP/2, a JWT
signed with the team's key) directly: the library's ``send_message`` cannot set
``apns-push-type``, which Apple asks of every alert. A device whose token the service no
longer knows is marked inactive; such a device is ``Gone`` and removed. A channel without its
settings (docs/api.md) sends nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aioapns import APNs, NotificationRequest, PushType
from aioapns.common import NotificationResult
from django.conf import settings
from django.utils.translation import gettext as _
from push_notifications.models import APNSDevice

from games.notifications.models import PushDevice
from games.notifications.webpush import Gone, NotSent

#: APNs' reasons for a token it will never deliver to again (Apple's "Handling notification
#: responses from APNs"); a 410 says so too.
APNS_GONE = frozenset({"Unregistered", "BadDeviceToken", "DeviceTokenNotForTopic"})
#: How long one APNs send may take, connection included; a slower one is retried later.
APNS_SECONDS = 10


def apns_payload(message: dict[str, Any], *, topic: str | None = None) -> dict[str, Any]:
    """The JSON body APNs gets: ``aps`` with the alert (the notification's title and body)
    and the default sound, ``topic`` (if any) as its thread; beside it the notification
    itself, as the inbox lists it (its id, kind and payload: what the app opens)."""
    aps: dict[str, Any] = {
        "alert": {"title": message["title"], "body": message["body"]},
        "sound": "default",
    }
    if topic is not None:
        aps["thread-id"] = topic
    return {"aps": aps, "notification": message}


def apns_request(
    message: dict[str, Any], *, token: str, topic: str | None = None
) -> NotificationRequest:
    """The HTTP/2 request to APNs for ``token``: an alert (``apns-push-type: alert``), whose
    ``topic`` is its ``apns-collapse-id`` (a newer push with it replaces the one shown); aioapns
    adds ``apns-topic`` (the app's bundle id, ``APNS_TOPIC``) and the authorization."""
    return NotificationRequest(
        device_token=token,
        message=apns_payload(message, topic=topic),
        collapse_key=topic,
        push_type=PushType.ALERT,
    )


def fcm_payload(message: dict[str, Any], *, topic: str | None = None) -> dict[str, Any]:
    """The arguments of ``GCMDevice.send_message``: the body as the message, the title and
    ``topic`` (Android's ``collapse_key``) taken off the data by the library, and the data:
    the notification's id, kind, payload and text, each value a string as FCM's are."""
    data = {
        "id": str(message["id"]),
        "kind": message["kind"],
        **{key: str(value) for key, value in message["payload"].items()},
        "title": message["title"],
    }
    if topic is not None:
        data["collapse_key"] = topic
    return {"message": message["body"], "extra": data}


def configured(kind: str) -> bool:
    """Has ``kind`` (apns, fcm) its settings: APNs a token key, its id, the team and the
    app's bundle id; FCM a service account."""
    if kind == "apns":
        ours = settings.PUSH_NOTIFICATIONS_SETTINGS
        names = ("APNS_AUTH_KEY_PATH", "APNS_AUTH_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC")
        return all(ours.get(name) for name in names)
    return bool(settings.FCM_CREDENTIALS_FILE)


def native_send(*, device: PushDevice, message: dict[str, Any], topic: str | None = None) -> int:
    """Send ``message`` (with its ``title`` and ``body``) to an APNs or FCM ``device``, to
    replace an earlier one of ``topic`` if given (200); ``Gone`` or ``NotSent``."""
    row = device.apns if device.kind == "apns" else device.fcm
    if row is None:
        raise Gone(_("no device row"))
    if isinstance(row, APNSDevice):
        return apns_send(row, apns_request(message, token=row.registration_id, topic=topic))
    _firebase_ready()
    arguments = fcm_payload(message, topic=topic)
    try:
        row.send_message(arguments.pop("message"), **arguments)
    except Exception as error:  # noqa: BLE001  (the library's and its clients' errors are of many kinds)
        row.refresh_from_db(fields=["active"])
        if not row.active:
            raise Gone(type(error).__name__) from None
        raise NotSent(type(error).__name__) from None
    row.refresh_from_db(fields=["active"])
    if not row.active:
        raise Gone("unregistered")
    return 200


def apns_send(row: APNSDevice, request: NotificationRequest) -> int:
    """Send ``request`` to APNs with the settings' key (200); a token APNs no longer knows
    marks ``row`` inactive and is ``Gone``; any other failure is ``NotSent`` (retried)."""
    try:
        result = asyncio.run(_apns_round_trip(request))
    except Exception as error:  # noqa: BLE001  (aioapns' and its transports' errors are of many kinds)
        raise NotSent(type(error).__name__) from None
    if result.is_successful:
        return 200
    reason = result.description or ""
    if result.status == "410" or reason in APNS_GONE:
        APNSDevice.objects.filter(pk=row.pk).update(active=False)
        raise Gone(reason or result.status)
    raise NotSent(f"{result.status} {reason}".strip())


async def _apns_round_trip(request: NotificationRequest) -> NotificationResult:
    ours = settings.PUSH_NOTIFICATIONS_SETTINGS
    client = APNs(
        key=ours["APNS_AUTH_KEY_PATH"],  # the key's text (chickenfoot/settings.py reads the file)
        key_id=ours["APNS_AUTH_KEY_ID"],
        team_id=ours["APNS_TEAM_ID"],
        topic=ours["APNS_TOPIC"],
        use_sandbox=bool(ours.get("APNS_USE_SANDBOX")),
        max_connection_attempts=1,  # a failed send is retried by the task, not here
        err_func=_kept,
    )
    try:
        return await asyncio.wait_for(client.send_notification(request), APNS_SECONDS)
    finally:
        client.pool.close()


async def _kept(request: NotificationRequest, result: NotificationResult) -> None:
    """aioapns' hook for a refused push: ``apns_send`` reads the result (nothing logged here)."""


def _firebase_ready() -> None:
    """firebase-admin's default app, from ``FCM_CREDENTIALS_FILE`` (once per process)."""
    import firebase_admin
    from firebase_admin import credentials

    try:
        firebase_admin.get_app()
    except ValueError:
        firebase_admin.initialize_app(credentials.Certificate(settings.FCM_CREDENTIALS_FILE))
