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
from django.utils.translation import gettext_noop

from games.notifications.models import PushDevice
from games.notifications.webpush import Gone, NotSent

#: The line a device shows for each kind (no name, score or tile: the app fetches the rest).
TITLES = {
    "your_turn": gettext_noop("Your turn in match %(match)s"),
    "invited": gettext_noop("An invitation to match %(match)s"),
    "match_started": gettext_noop("Match %(match)s started"),
    "match_over": gettext_noop("Match %(match)s is over"),
    "table_assigned": gettext_noop("You are seated at match %(match)s"),
    "round_disputed": gettext_noop("A round of match %(match)s is disputed"),
    "result_corrected": gettext_noop("A round of match %(match)s was corrected"),
}


def title_for(message: dict[str, Any]) -> str:
    return _(TITLES[message["kind"]]) % {"match": message["payload"].get("match_id")}


def apns_payload(message: dict[str, Any]) -> dict[str, Any]:
    """The arguments of ``APNSDevice.send_message``: an alert line, the notification as extra."""
    return {"message": title_for(message), "extra": {"notification": message}}


def fcm_payload(message: dict[str, Any]) -> dict[str, Any]:
    """The arguments of ``GCMDevice.send_message``: FCM data values are strings."""
    data = {
        "id": str(message["id"]),
        "kind": message["kind"],
        **{key: str(value) for key, value in message["payload"].items()},
    }
    return {"message": title_for(message), "extra": data}


def configured(kind: str) -> bool:
    """Has ``kind`` (apns, fcm) its settings, and its client library (APNs: aioapns, which
    requirements.txt installs, or apns2)?"""
    if kind == "apns":
        ours = settings.PUSH_NOTIFICATIONS_SETTINGS
        wanted = bool(ours.get("APNS_AUTH_KEY_PATH") and ours.get("APNS_TOPIC"))
        return wanted and any(find_spec(name) for name in ("aioapns", "apns2"))
    return bool(settings.FCM_CREDENTIALS_FILE)


def native_send(*, device: PushDevice, message: dict[str, Any]) -> int:
    """Send ``message`` to an APNs or FCM ``device`` (200); ``Gone`` or ``NotSent``."""
    row = device.apns if device.kind == "apns" else device.fcm
    if device.kind == "fcm":
        _firebase_ready()
    if row is None:
        raise Gone(_("no device row"))
    arguments = apns_payload(message) if device.kind == "apns" else fcm_payload(message)
    try:
        row.send_message(arguments["message"], extra=arguments["extra"])
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
