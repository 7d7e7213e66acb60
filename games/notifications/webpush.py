"""Web Push (RFC 8030) of one notification to one subscription: the payload encrypted per
RFC 8291 (aes128gcm) and the request signed with the server's VAPID key (RFC 8292), by
pywebpush. A push service answering 404 or 410 says the subscription is gone.

The endpoint is an outside address (``chickenfoot.outside_addresses``): pywebpush posts through
an ``outside_session``, which resolves the name at the send, refuses it if any of its addresses
is inside a network (the device is then gone: it points inside now), connects to the address it
checked and follows no redirect."""

from __future__ import annotations

import json
import logging
from typing import Any

import requests
from django.conf import settings
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from chickenfoot.outside_addresses import OutsideAddressRefused, outside_url_parse
from chickenfoot.outside_http import outside_session
from games.notifications.models import PushDevice

logger = logging.getLogger(__name__)

#: Seconds a push service has to answer.
TIMEOUT_SECONDS = 10
#: The most a payload may hold: 4096 bytes of message (RFC 8030's minimum a push service
#: takes) less RFC 8291's header (86 bytes), its padding delimiter (1) and tag (16).
PAYLOAD_MAX = 4096 - 86 - 1 - 16


class Gone(Exception):
    """The push service no longer knows the device (404, 410, or an unregistered token)."""


class NotSent(Exception):
    """A send that failed and may succeed later (the service down, a 5xx, a timeout)."""


def configured() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY)


def webpush_send(
    *,
    device: PushDevice,
    message: dict[str, Any],
    topic: str | None = None,
    session: requests.Session | None = None,
) -> int:
    """Send ``message`` (JSON) to ``device`` through ``session`` (an ``outside_session``, one
    of this send's own if none), as ``topic`` if given (the push service keeps the newest of a
    topic only); the push service's status. ``Gone`` or ``NotSent`` when it refused, or the
    endpoint is no outside address (any more)."""
    try:
        outside_url_parse(device.token)
        with session or outside_session() as sending:
            return _send(device=device, message=message, topic=topic, session=sending)
    except OutsideAddressRefused as refused:
        logger.warning("Web Push to device %s refused: %s", device.pk, refused)
        raise Gone(str(refused)) from None


def payload_bytes(message: dict[str, Any]) -> bytes:
    """``message`` as the bytes a push carries: compact JSON, UTF-8 (no ``\\u`` escapes but
    for control characters). ``text`` clips its names so that it stays within ``PAYLOAD_MAX``."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


def _send(
    *, device: PushDevice, message: dict[str, Any], topic: str | None, session: requests.Session
) -> int:
    data = payload_bytes(message)
    if len(data) > PAYLOAD_MAX:  # never, with ``text``'s limits: a push service refuses it
        raise NotSent(f"a payload of {len(data)} bytes")
    try:
        response = webpush(
            subscription_info={
                "endpoint": device.token,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=data,
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=settings.WEBPUSH_TTL_SECONDS,
            timeout=TIMEOUT_SECONDS,
            requests_session=session,
            headers={"Topic": topic} if topic else None,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in (404, 410):
            raise Gone(str(status)) from None
        raise NotSent(_("push service answered %(status)s") % {"status": status}) from None
    except OSError as error:  # requests' connection errors are OSErrors
        raise NotSent(type(error).__name__) from None
    except (ValueError, TypeError) as error:  # keys that are no key: it can never be sent to
        raise Gone(type(error).__name__) from None
    return int(response.status_code)
