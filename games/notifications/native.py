"""APNs and FCM pushes through django-push-notifications, and what they carry.

Each ``PushDevice`` of kind ``apns`` or ``fcm`` keeps its token in the library's own device row
(``APNSDevice``, ``GCMDevice`` of type FCM), and is sent to with that row's ``send_message``.
The library marks a device whose token the service no longer knows inactive; such a device is
``Gone`` and removed. A channel without its settings (docs/api.md) sends nothing.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from games.notifications.models import PushDevice
from games.notifications.webpush import Gone, NotSent


def apns_payload(message: dict[str, Any], *, topic: str | None = None) -> dict[str, Any]:
    """The arguments of ``APNSDevice.send_message``: an alert with the notification's title
    and body, the notification as extra; ``topic`` as its ``apns-collapse-id`` (a newer push
    with it replaces the one shown) and thread."""
    arguments: dict[str, Any] = {
        "message": {"title": message["title"], "body": message["body"]},
        "extra": {"notification": message},
    }
    if topic is not None:
        arguments["collapse_id"] = arguments["thread_id"] = topic
    return arguments


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
    """Has ``kind`` (apns, fcm) its settings, and its client library (APNs: aioapns, which
    requirements.txt installs, or apns2)?"""
    if kind == "apns":
        ours = settings.PUSH_NOTIFICATIONS_SETTINGS
        wanted = bool(ours.get("APNS_AUTH_KEY_PATH") and ours.get("APNS_TOPIC"))
        return wanted and any(find_spec(name) for name in ("aioapns", "apns2"))
    return bool(settings.FCM_CREDENTIALS_FILE)


def native_send(*, device: PushDevice, message: dict[str, Any], topic: str | None = None) -> int:
    """Send ``message`` (with its ``title`` and ``body``) to an APNs or FCM ``device``, to
    replace an earlier one of ``topic`` if given (200); ``Gone`` or ``NotSent``."""
    row = device.apns if device.kind == "apns" else device.fcm
    if device.kind == "fcm":
        _firebase_ready()
    if row is None:
        raise Gone(_("no device row"))
    payload = apns_payload if device.kind == "apns" else fcm_payload
    arguments = payload(message, topic=topic)
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


def _firebase_ready() -> None:
    """firebase-admin's default app, from ``FCM_CREDENTIALS_FILE`` (once per process)."""
    import firebase_admin
    from firebase_admin import credentials

    try:
        firebase_admin.get_app()
    except ValueError:
        firebase_admin.initialize_app(credentials.Certificate(settings.FCM_CREDENTIALS_FILE))
