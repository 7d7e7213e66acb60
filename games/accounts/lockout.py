"""Log-in lockout (django-axes): the project's answers to its questions (docs/reliability.md).

``settings.AXES_*`` name these. django-axes records each failed log-in (the API's
``POST /api/auth/token`` and the admin's form alike) and, once a username or an address has
failed ``AXES_FAILURE_LIMIT`` times within the cool-off, refuses further attempts before any
password is hashed; ``AxesMiddleware`` then answers with ``lockout_response``.

A username's lock does not hold at an address that username has logged in from within
``LOGIN_KNOWN_ADDRESS_DAYS`` (axes' own log of successful log-ins, ``AccessLog``, says which):
there only the address's own lock applies, so that nobody can lock a player out of the places
they play from by failing at their username from elsewhere (``lockout_parameters``).

Neither lock holds for a known device of the account (``games.accounts.devices``: the log-in
sets ``request.known_device`` once it has checked the device's credential): there the device's
own failures decide (``LockoutHandler.get_failures``), and each is counted against it as well
as, as usual, against the username and the address for everyone else.
"""

from __future__ import annotations

import ipaddress
import math
import unicodedata
from datetime import datetime, timedelta
from http import HTTPStatus
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessLog
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.throttling import BaseThrottle

from chickenfoot.problem_views import render_problem
from chickenfoot.problems import Problem
from games.accounts.device_models import KnownDevice
from games.accounts.devices import device_failed, failures_of
from games.accounts.devices import unlocked_at as devices_unlocked_at


def client_address(request: HttpRequest) -> str | None:
    """The client's address, as the request throttles see it (``NUM_PROXIES`` trusted), or
    ``None`` when there is none that parses as an IP address (no ``REMOTE_ADDR``, or a proxy's
    ``X-Forwarded-For`` entry that is not an address): such attempts count together, under no
    address, and never reach the database's ``inet`` column as text."""
    ident = str(BaseThrottle().get_ident(request)).strip()
    try:
        return str(ipaddress.ip_address(ident))
    except ValueError:
        return None


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The username an attempt names, normalised (NFKC, case-folded) so that spelling a name in
    other capitals or look-alike forms counts against the same account."""
    field = str(settings.AXES_USERNAME_FORM_FIELD)
    raw = credentials.get(field) if credentials else request.POST.get(field)
    if not raw:
        return None
    return unicodedata.normalize("NFKC", str(raw)).casefold()


BY_USERNAME_AND_ADDRESS: list[str | list[str]] = ["username", "ip_address"]
BY_ADDRESS: list[str | list[str]] = ["ip_address"]


def known_since() -> datetime | None:
    """The oldest successful log-in that still makes its address known; ``None``: none does."""
    days = int(settings.LOGIN_KNOWN_ADDRESS_DAYS)
    return timezone.now() - timedelta(days=days) if days > 0 else None


def is_known_address(request: HttpRequest, credentials: dict[str, Any] | None) -> bool:
    """Has the username this attempt names logged in from its address within the window?
    (Remembered on the request: axes asks several times per attempt.)"""
    since = known_since()
    field = str(settings.AXES_USERNAME_FORM_FIELD)
    username = credentials.get(field) if credentials else None
    address = getattr(request, "axes_ip_address", None)
    if since is None or not username or address is None:
        return False
    memo: dict[tuple[str, str], bool] = request.__dict__.setdefault("known_addresses", {})
    key = (str(username), str(address))
    if key not in memo:
        memo[key] = AccessLog.objects.filter(
            username=key[0], ip_address=key[1], attempt_time__gte=since
        ).exists()
    return memo[key]


def lockout_parameters(
    request: HttpRequest | Any, credentials: dict[str, Any] | None = None
) -> list[str | list[str]]:
    """``AXES_LOCKOUT_PARAMETERS``: locks per username and per address, but at an address the
    username has logged in from (``is_known_address``) per address only. Failures made there
    still count against the username everywhere else."""
    if isinstance(request, HttpRequest) and is_known_address(request, credentials):
        return BY_ADDRESS
    return BY_USERNAME_AND_ADDRESS


def known_device_of(request: HttpRequest | Any) -> KnownDevice | None:
    """The known device this attempt came as (set by the log-in), if any."""
    device = getattr(request, "known_device", None)
    return device if isinstance(device, KnownDevice) else None


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler; a successful log-in clears the failures recorded against that
    account (from any address), and only those: an address's failures on other accounts stay,
    so logging in to one's own account between guesses at others unlocks nothing. A known
    device's log-in clears none of them (only the device's own): the guesses others made at the
    username still count, so that a player logging in from their phone gives whoever is locking
    their username out no fresh allowance of guesses. Axes logs
    each successful log-in (``AccessLog``: the known addresses); the account's entries older
    than ``LOGIN_KNOWN_ADDRESS_DAYS`` go at its next log-in.

    An attempt from a known device is judged by the device's failures alone: the username's and
    the address's locks do not refuse it, and the failure that brings the device to the limit
    locks the device (429 ``locked_out``, ``Retry-After`` its cool-off)."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        device = known_device_of(request)
        if device is not None:
            return failures_of(device)
        return int(super().get_failures(request, credentials))

    def user_login_failed(
        self,
        sender: Any,
        credentials: dict[str, Any],
        request: HttpRequest | None = None,
        **kwargs: Any,
    ) -> None:
        device = known_device_of(request)
        if device is not None and not getattr(request, "axes_locked_out", False):
            device_failed(device)  # the device's own count, before axes judges by it
        super().user_login_failed(sender, credentials, request, **kwargs)

    def user_logged_in(self, sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
        super().user_logged_in(sender, request, user, **kwargs)
        if known_device_of(request) is None:  # a known device's clears its own (the log-in)
            username = attempted_username(request, {"username": user.get_username()})
            self.reset_attempts(username=username)
        since = known_since()
        entries = AccessLog.objects.filter(username=user.get_username())
        if since is None:
            entries.delete()
        else:
            entries.filter(attempt_time__lt=since).delete()

    def unlocked_at(self, request: HttpRequest, credentials: dict[str, Any] | None) -> datetime:
        """When the lock on this attempt's username or address lifts, if nobody tries meanwhile:
        for each, the failure that brings the count within the cool-off to the limit leaves it
        one cool-off after it was made."""
        device = known_device_of(request)
        if device is not None:
            return devices_unlocked_at(device)
        limit = get_failure_limit(request, credentials)
        cool_off = get_cool_off(request)
        now = timezone.now()
        until = now
        for attempts in self.get_user_attempts(request, credentials):
            total = 0
            rows = attempts.order_by("-attempt_time").values_list(
                "attempt_time", "failures_since_start"
            )
            for attempt_time, failures in rows:
                total += failures
                if total >= limit:
                    until = max(until, attempt_time + cool_off)
                    break
        return until


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict[str, Any]
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: 429 ``locked_out``, with ``Retry-After`` in seconds."""
    left = LockoutHandler().unlocked_at(request, credentials) - timezone.now()
    seconds = max(1, math.ceil(left.total_seconds()))
    minutes = math.ceil(seconds / 60)
    if known_device_of(request) is not None:
        detail = ngettext(
            "Too many failed log-ins from this device: try again in %(minutes)s minute.",
            "Too many failed log-ins from this device: try again in %(minutes)s minutes.",
            minutes,
        )
    else:
        detail = ngettext(
            "Too many failed log-ins for this username or from this address: try again in "
            "%(minutes)s minute.",
            "Too many failed log-ins for this username or from this address: try again in "
            "%(minutes)s minutes.",
            minutes,
        )
    problem = Problem(
        status=HTTPStatus.TOO_MANY_REQUESTS,
        code="locked_out",
        title=_("Locked out"),
        detail=detail % {"minutes": minutes},
        headers={"Retry-After": str(seconds)},
    )
    return render_problem(problem)
