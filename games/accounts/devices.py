"""Known devices (OWASP's "device cookies"): a way through floods and lockouts for the clients
that have logged in before (docs/reliability.md, "Known devices").

Each successful log-in gives its client a **device credential**: a ``KnownDevice`` row of the
account, named in a value signed with the server's key (``django.core.signing``, its own salt)
and stamped with the time it was given. The API's log-in answers it as ``device_credential``,
for an app to store and send back with its next log-in; the web's log-in gets it as an HttpOnly
cookie (``COOKIE``, sent only to the log-in's path), which keeps the credentials of the last
``COOKIE_ACCOUNTS`` accounts that logged in from that browser.

A log-in that presents a credential counts as a **known device** when the signature holds, the
credential is younger than ``LOGIN_KNOWN_DEVICE_DAYS``, its row still exists, belongs to the
account the log-in names, and is not locked. Anything else (forged, another account's, expired,
revoked, locked) is no error: the log-in goes on as an unknown client's. A known device:

- hashes from the known devices' reserve of the hashing bounds (``chickenfoot.hashing``), which
  a flood without credentials never reaches;
- is not refused by the account's lockout, nor by its address's (``games.accounts.lockout``):
  its own failed log-ins count against it, and ``LOGIN_FAILURE_LIMIT`` of them within the
  cool-off lock it, so that a stolen credential buys no more guesses than the username's own
  lock allows; a locked device is an unknown client until the cool-off ends. Its failures still
  count against the username and the address for everyone else.

A credential is revoked by deleting its row: a password change or reset deletes every device of
the account (the change gives the device that made it a new one), deleting the account deletes
them with it, and the admin can forget one. A log-in with a known device renews its credential
(the same row, a fresh stamp) and clears its failures; devices unused for
``LOGIN_KNOWN_DEVICE_DAYS`` are deleted at the account's next log-in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db.models import Case, F, Q, Value, When
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from games.accounts.device_models import KnownDevice

#: The signature's salt: a device credential is no other signed value of the project.
SALT = "chickenfoot.accounts.known-device"
#: The cookie of the web's log-in, and the only path it is sent to.
COOKIE = "chickenfoot_device"
COOKIE_PATH = "/api/auth/token"
#: The accounts whose credentials the cookie keeps (a browser several people log in from).
COOKIE_ACCOUNTS = 3
#: The longest credential read (a signed pair of ids and a stamp is about 60 characters).
MAX_LENGTH = 200


@dataclass(frozen=True)
class Claim:
    """What a credential whose signature holds and which has not expired says: which device
    of which account it names (checked against the rows by ``known_device``)."""

    device_id: int
    user_id: int


def known_device_days() -> int:
    """How long a credential lasts, and a device unused is kept (0: none is given)."""
    return max(0, int(settings.LOGIN_KNOWN_DEVICE_DAYS))


def credential_of(device: KnownDevice) -> str:
    """The signed, stamped credential naming ``device`` (a new stamp at each call)."""
    return signing.dumps([device.pk, device.user_id], salt=SALT, compress=False)


def claim_of(credential: str) -> Claim | None:
    """The claim of ``credential``; ``None`` for one forged, altered, expired or malformed."""
    days = known_device_days()
    if not credential or days == 0 or len(credential) > MAX_LENGTH:
        return None
    try:
        value = signing.loads(credential, salt=SALT, max_age=timedelta(days=days))
    except signing.BadSignature:  # SignatureExpired too
        return None
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        return None
    return Claim(device_id=value[0], user_id=value[1])


def claims_of(credentials: Iterable[str]) -> list[Claim]:
    """The claims of those of ``credentials`` that hold (no query: signatures only)."""
    return [claim for claim in map(claim_of, credentials) if claim is not None]


def presented(request: HttpRequest, given: str = "") -> list[str]:
    """The credentials a log-in presents: the one its body gives (an app's), else those of
    the web's cookie (the first ``COOKIE_ACCOUNTS``, newest first)."""
    if given:
        return [given]
    return request.COOKIES.get(COOKIE, "").split(".")[:COOKIE_ACCOUNTS]


def _cooling_since(now: datetime) -> datetime:
    return now - settings.AXES_COOLOFF_TIME


def failures_of(device: KnownDevice, now: datetime | None = None) -> int:
    """``device``'s failed log-ins within the cool-off (0 once it has passed)."""
    now = now or timezone.now()
    if device.failed_since is None or device.failed_since <= _cooling_since(now):
        return 0
    return device.failures


def is_locked(device: KnownDevice, now: datetime | None = None) -> bool:
    """Has ``device`` failed ``LOGIN_FAILURE_LIMIT`` times within the cool-off (the lockout on)?"""
    limit = int(settings.AXES_FAILURE_LIMIT)
    return bool(settings.AXES_ENABLED) and failures_of(device, now) >= limit


def unlocked_at(device: KnownDevice) -> datetime:
    """When ``device``'s lock lifts: one cool-off after the first of its failures."""
    return (device.failed_since or timezone.now()) + settings.AXES_COOLOFF_TIME


def known_device(claims: Sequence[Claim], *, user_id: int | None) -> KnownDevice | None:
    """The device of ``claims`` that is ``user_id``'s account's, still known (not deleted, used
    within ``LOGIN_KNOWN_DEVICE_DAYS``) and not locked; ``None`` (an unknown client) otherwise.
    One query, and none when no claim names that account."""
    ids = [claim.device_id for claim in claims if claim.user_id == user_id]
    if user_id is None or not ids:
        return None
    now = timezone.now()
    since = now - timedelta(days=known_device_days())
    for device in KnownDevice.objects.filter(pk__in=ids, user_id=user_id, last_login__gte=since):
        if not is_locked(device, now):
            return device
    return None


def device_failed(device: KnownDevice) -> KnownDevice:
    """Count a failed log-in against ``device`` (the first within the cool-off starts its
    count again), in one atomic update; ``device`` with its count as it now is (as it was, if
    a password change has deleted it meanwhile)."""
    now = timezone.now()
    cooling = Q(failed_since__gt=_cooling_since(now))
    row = KnownDevice.objects.filter(pk=device.pk)
    row.update(
        failures=Case(When(cooling, then=F("failures") + 1), default=Value(1)),
        failed_since=Case(When(cooling, then=F("failed_since")), default=Value(now)),
    )
    now_counted = row.values_list("failures", "failed_since").first()
    if now_counted is not None:
        device.failures, device.failed_since = now_counted
    return device


def device_remember(*, user: AbstractBaseUser, device: KnownDevice | None) -> str | None:
    """The credential for the client that has just proved ``user``'s password: ``device`` (the
    known device it came as, if any) renewed with its failures cleared, or a new device. The
    account's devices unused for ``LOGIN_KNOWN_DEVICE_DAYS`` go. ``None`` when none are given
    (``LOGIN_KNOWN_DEVICE_DAYS=0``)."""
    days = known_device_days()
    if days == 0:
        return None
    now = timezone.now()
    mine = KnownDevice.objects.filter(user_id=user.pk)
    mine.filter(last_login__lt=now - timedelta(days=days)).delete()
    renewed = (
        device is not None
        and device.user_id == user.pk
        and mine.filter(pk=device.pk).update(last_login=now, failures=0, failed_since=None)
    )
    if renewed:
        return credential_of(device)
    return credential_of(KnownDevice.objects.create(user_id=user.pk, last_login=now))


def devices_forget(*, user_id: int) -> int:
    """Delete every known device of the account (its credentials stop counting); how many."""
    deleted, _by_model = KnownDevice.objects.filter(user_id=user_id).delete()
    return deleted


def set_cookie(response: HttpResponse, request: HttpRequest, credential: str | None) -> None:
    """Give the web's client ``credential`` in the cookie, before the credentials it holds of
    other accounts (the last ``COOKIE_ACCOUNTS``); nothing when there is no credential."""
    claim = claim_of(credential or "")
    if claim is None:
        return
    kept = [credential]
    for other in request.COOKIES.get(COOKIE, "").split(".")[:COOKIE_ACCOUNTS]:
        theirs = claim_of(other)
        if theirs is not None and theirs.user_id != claim.user_id:
            kept.append(other)
    response.set_cookie(
        COOKIE,
        ".".join(kept[:COOKIE_ACCOUNTS]),
        max_age=int(timedelta(days=known_device_days()).total_seconds()),
        path=COOKIE_PATH,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Strict",
    )
