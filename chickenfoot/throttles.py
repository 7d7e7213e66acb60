"""Request limits: DRF throttles counted atomically in the shared cache (docs/reliability.md).

Each throttle has a scope; its rate (``120/min``) comes from ``settings.THROTTLE_RATES[scope]``,
read on every request, so the environment (and a test) decides. A scope without a rate is not
limited. The count is a fixed window: at most N requests in each clock-aligned period (a minute,
an hour), one atomic increment in the cache per request (Redis when ``REDIS_URL`` is set, so
every web process shares it). A refused request gets 429 ``throttled`` with ``Retry-After``: the
seconds until the window ends.

The limits fail open: a cache that cannot be reached (Redis down) lets the request through, and
each request let through so is logged (``chickenfoot.throttles``, WARNING, naming the scope).
Refusing every registration, log-in and move while Redis is away would turn a cache outage into
a service outage; a flood meanwhile still meets the log-in lockout (in the database).

Addresses are DRF's: ``REMOTE_ADDR``, or with ``NUM_PROXIES`` trusted proxies in front, the
address the outermost of them saw (``X-Forwarded-For`` counted from the right), so a client
cannot pick its own address by sending that header.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.cache import cache
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from chickenfoot.cache_outage import CACHE_ERRORS

logger = logging.getLogger(__name__)

#: A rate's period: ``n`` (1 when left out) seconds, minutes, hours or days, by the first letter.
_PERIOD = re.compile(r"([0-9]*)([smhd])[a-z]*", re.ASCII)


class ScopedThrottle(SimpleRateThrottle):
    """A fixed-window counter per (scope, key); subclasses say what the key is."""

    cache_format = "throttle:%(scope)s:%(ident)s"

    def __init__(self) -> None:
        self._wait: float | None = None
        super().__init__()

    def get_rate(self) -> str | None:
        rates: dict[str, str | None] = settings.THROTTLE_RATES
        return rates.get(self.scope)

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        """DRF's ``<count>/<period>``, and ``<count>/<n><period>`` (``5/10s``: n periods)."""
        if rate is None:
            return None, None
        count, period = rate.split("/")
        parts = _PERIOD.fullmatch(period)
        if parts is None:
            raise ValueError(f"{rate!r} is not a rate")
        seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[parts[2]]
        return int(count), int(parts[1] or 1) * seconds

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        try:
            count = count_in_window(f"{key}:{window}", timeout=self.duration + 1)
        except CACHE_ERRORS as error:
            logger.warning(
                "Throttle %s not applied (request let through): the cache is unavailable: %s: %s",
                self.scope,
                type(error).__name__,
                error,
            )
            return True
        if count <= self.num_requests:
            return True
        self._wait = max(1, math.ceil((window + 1) * self.duration - now))
        return False

    def wait(self) -> float | None:
        return self._wait


def count_in_window(key: str, *, timeout: int) -> int:
    """This request's number in its window: an atomic increment, the key made on first use
    (the request limits' counts, and ``chickenfoot.hashing``'s count of each second's hashes)."""
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # the key expired between the two calls: a new window
        cache.set(key, 1, timeout=timeout)
        return 1


class PerAddress(ScopedThrottle):
    """Counted per client address."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class PerUser(ScopedThrottle):
    """Counted per authenticated user (the views that use it require one)."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class RegisterThrottle(PerAddress):
    scope = "register"


class LoginThrottle(PerAddress):
    scope = "login"


class MatchCreateThrottle(PerUser):
    scope = "match_create"


class MatchCreateAddressThrottle(PerAddress):
    scope = "match_create_address"


class EntrantAddThrottle(PerUser):
    """An organiser adding entrants (one, or a file of them, a request): the organiser's own
    limit, not the registration limit of the address they send from."""

    scope = "entrant_add"


class MoveThrottle(PerUser):
    scope = "move"


class MoveAddressThrottle(PerAddress):
    scope = "move_address"


class ChatThrottle(ScopedThrottle):
    """Phrases sent, counted per player and per match (the view's ``match_id``)."""

    scope = "chat"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        match_id = view.kwargs.get("match_id") if view is not None else None
        ident = f"{request.user.pk}:{match_id}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class GuessThrottle(ScopedThrottle):
    """Failed codes (a scorer link's, a claim's, an invite link's): counted only on a failure
    (``failure_count``), and checked before a code is looked up (``refuses``), so that past
    the limit even a right code is refused and a guess learns nothing. Fails open, as every
    throttle here does. ``guesses_counted`` runs a lookup between the two."""

    def refuses(self, request: Request) -> bool:
        if self.rate is None:
            return False
        key = self.get_cache_key(request, None)
        if key is None:
            return False
        now = self.timer()
        window = int(now // self.duration)
        try:
            count = cache.get(f"{key}:{window}") or 0
        except CACHE_ERRORS as error:
            logger.warning(
                "Throttle %s not applied (request let through): the cache is unavailable: %s: %s",
                self.scope,
                type(error).__name__,
                error,
            )
            return False
        if int(count) < self.num_requests:
            return False
        self._wait = max(1, math.ceil((window + 1) * self.duration - now))
        return True

    def failure_count(self, request: Request) -> None:
        """Count one failed code (``allow_request`` increments, and fails open)."""
        self.allow_request(request, None)


@contextmanager
def guesses_counted(
    request: Request,
    throttles: Iterable[type[GuessThrottle]],
    *,
    failures: tuple[type[Exception], ...],
) -> Iterator[None]:
    """Around the lookup of a code: 429 ``throttled`` before it when one of ``throttles`` is
    past its limit; one failure counted in each when the lookup raises one of ``failures``
    (which is raised on)."""
    counters = [throttle() for throttle in throttles]
    for counter in counters:
        if counter.refuses(request):
            raise exceptions.Throttled(counter.wait())
    try:
        yield
    except failures:
        for counter in counters:
            counter.failure_count(request)
        raise


class ScorerGuessThrottle(GuessThrottle, PerAddress):
    """Failed scorer codes, per address (a scorer has no account)."""

    scope = "scorer_guess"


class CodeGuessThrottle(GuessThrottle, PerUser):
    """Failed claim codes and invite links' codes, per account."""

    scope = "code_guess"


class CodeGuessAddressThrottle(GuessThrottle, PerAddress):
    """Failed claim codes and invite links' codes, per address."""

    scope = "code_guess_address"


class PasswordResetThrottle(PerAddress):
    scope = "password_reset"


class PasswordResetAccountThrottle(ScopedThrottle):
    """Counted per account a reset names: its e-mail address or username as sent, folded
    (NFKC, case-folded) and hashed, whether an account has it or not, so that one address's
    owner is not mailed link after link and the count says nothing about who exists."""

    scope = "password_reset_account"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        data = request.data if isinstance(request.data, dict) else {}
        named = data.get("email") or data.get("username")
        if not isinstance(named, str) or not named.strip():
            return None  # refused by validation
        folded = unicodedata.normalize("NFKC", named.strip()).casefold()
        ident = hashlib.sha256(folded.encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


class PasswordResetConfirmThrottle(PerAddress):
    scope = "password_reset_confirm"


class PasswordChangeThrottle(PerUser):
    scope = "password_change"


class PasswordChangeAddressThrottle(PerAddress):
    scope = "password_change_address"


class EmailSendThrottle(PerUser):
    scope = "email_send"


class EmailVerifyThrottle(PerUser):
    scope = "email_verify"


class PlayerSearchThrottle(PerUser):
    """Searches for a player by name: enough to type one, not to walk through every name."""

    scope = "player_search"


class AvatarUploadThrottle(PerUser):
    """Avatar uploads: each is decoded and re-encoded, and its files written to the storage."""

    scope = "avatar_upload"


class FriendRequestThrottle(PerUser):
    """Friend requests sent: enough to add the people one plays with, not to ask everyone."""

    scope = "friend_request"


#: The throttles of each limited operation, as the views list them.
REGISTER_THROTTLES = (RegisterThrottle,)
LOGIN_THROTTLES = (LoginThrottle,)
MATCH_CREATE_THROTTLES = (MatchCreateThrottle, MatchCreateAddressThrottle)
MOVE_THROTTLES = (MoveThrottle, MoveAddressThrottle)
ENTRANT_ADD_THROTTLES = (EntrantAddThrottle,)
PASSWORD_RESET_THROTTLES = (PasswordResetThrottle, PasswordResetAccountThrottle)
PASSWORD_RESET_CONFIRM_THROTTLES = (PasswordResetConfirmThrottle,)
#: Changing the password and deleting the account: each checks the current password.
PASSWORD_CHECK_THROTTLES = (PasswordChangeThrottle, PasswordChangeAddressThrottle)
EMAIL_SEND_THROTTLES = (EmailSendThrottle,)
EMAIL_VERIFY_THROTTLES = (EmailVerifyThrottle,)
PLAYER_SEARCH_THROTTLES = (PlayerSearchThrottle,)
AVATAR_UPLOAD_THROTTLES = (AvatarUploadThrottle,)
FRIEND_REQUEST_THROTTLES = (FriendRequestThrottle,)
#: Failed codes that open a seat: a guest's claim code, an invite link's code.
CODE_GUESS_THROTTLES = (CodeGuessThrottle, CodeGuessAddressThrottle)
