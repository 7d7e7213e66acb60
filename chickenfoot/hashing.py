"""Password hashing, bounded (docs/reliability.md, "Password hashing under floods").

A password hash (PBKDF2, about a third of a second of one core) is what a log-in or a
registration costs the server, and what an anonymous flood of them from rotating addresses
spends, past every per-address throttle. Two bounds keep hashing from taking the server from
everyone else; both are checked before any hash is computed:

- **At once, per process**: at most ``settings.PASSWORD_HASHES_AT_ONCE`` hashes run at the same
  time in one process. A request that finds them all running is refused at once (429 ``busy``),
  never queued, so the other threads of a web worker stay free for everyone else's requests.
- **Per second, across processes**: at most ``settings.PASSWORD_HASHES_PER_SECOND`` hashes start
  in each clock-aligned second, counted with one atomic increment in the shared cache (Redis in
  production). A cache that cannot be reached fails open: the check is skipped and logged, and
  the per-process bound still holds.

A share of each is reserved for **known devices** (``games.accounts.devices``: a log-in that
presents a valid device credential for the account it names): the settings'
``PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE`` of the slots and
``PASSWORD_HASHES_KNOWN_DEVICES_PER_SECOND`` of each second's hashes. Everyone else (unknown
clients, registrations, password checks) shares what is left; a known device draws from its
reserve first, then from that. So a flood, which holds no credential, spends the unknown share
and never the reserve, and the bounds as a whole hold as before. A known device's hash runs at
the request's own priority (a person is waiting for it, and the reserve bounds how many there
are), and it has the process's threads first: when it begins, a request of the process waiting
for an unknown client's hash is answered ``busy`` at once (that hash runs on in its hashing
thread, holding its slot, ``hash_aside``), and no unknown client's hash starts until it ends.
So a flood's hash and a known device's never hold two threads of a worker at once.

0 turns a bound off. ``password_hashing()`` holds one of each around a hash; the registration
service wraps the new account's hash in it, and ``BoundedModelBackend`` (Django's
``ModelBackend``, placed after django-axes' backend) wraps every log-in's password check,
including the dummy hash Django runs for an unknown username, so that a locked-out attempt is
refused by the lockout before it costs any of the budget. A refused attempt is not a failed
log-in: the lockout does not count it. ``refuse_if_busy()`` looks without taking anything, so
that while the budget is spent a log-in is refused before any of the lockout's queries.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy, ngettext
from rest_framework.exceptions import APIException

from chickenfoot.problem_views import render_problem
from chickenfoot.problems import Problem
from chickenfoot.throttles import count_in_window

logger = logging.getLogger(__name__)

#: The cache key of each second's count (the second's number is appended): the hashes of the
#: unknown share, and those of the known devices' reserve.
KEY_PREFIX = "password-hashes"
KNOWN_KEY_PREFIX = "password-hashes-known"
#: At most one warning this often (seconds) while the cache cannot be reached.
LOG_EVERY_SECONDS = 10.0
#: The clock whose seconds are counted (a test sets its own).
clock = time.time


class Busy(APIException):
    """429 ``busy``: every hashing slot is taken, or this second's hashes have all started."""

    status_code = HTTPStatus.TOO_MANY_REQUESTS
    default_code = "busy"
    title = gettext_lazy("Busy")

    def __init__(self, wait: int) -> None:
        self.wait = wait
        super().__init__(
            ngettext(
                "The server is checking too many passwords right now: try again in "
                "%(seconds)s second.",
                "The server is checking too many passwords right now: try again in "
                "%(seconds)s seconds.",
                wait,
            )
            % {"seconds": wait},
            code="busy",
        )

    def problem(self) -> Problem:
        return Problem(
            status=self.status_code,
            code="busy",
            title=self.title,
            detail=str(self.detail),
            headers={"Retry-After": str(self.wait)},
        )


class _Running:
    """How many hashes this process is running in one share; taken and given back under a
    lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    def take(self, limit: int) -> bool:
        with self._lock:
            if self.count >= limit:
                return False
            self.count += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.count -= 1


@dataclass(frozen=True)
class Shares:
    """The bounds as they are now (``settings``), each split into the unknown clients' share
    and the known devices' reserve. ``at_once``/``per_second`` 0: that bound is off."""

    at_once: int
    known_at_once: int
    per_second: int
    known_per_second: int

    @classmethod
    def now(cls) -> Shares:
        at_once = int(settings.PASSWORD_HASHES_AT_ONCE)
        per_second = int(settings.PASSWORD_HASHES_PER_SECOND)
        return cls(
            at_once=at_once,
            known_at_once=min(at_once, int(settings.PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE)),
            per_second=per_second,
            known_per_second=min(
                per_second, int(settings.PASSWORD_HASHES_KNOWN_DEVICES_PER_SECOND)
            ),
        )

    @property
    def unknown_at_once(self) -> int:
        return self.at_once - self.known_at_once

    @property
    def unknown_per_second(self) -> int:
        return self.per_second - self.known_per_second


_running = _Running()  # the unknown share's slots
_running_known = _Running()  # the known devices' reserved slots
_holding = threading.local()  # set while this thread holds a slot (a re-hash inside a check)
_last_warning = [0.0]


class _Hold:
    """A slot held for one ``password_hashing()`` block and for every hash the block hands to
    the hashing threads (``hash_aside``): given back once the block has ended and those hashes
    have all finished (a request answered ``busy`` while its hash still runs does not free the
    slot for another)."""

    def __init__(self, slot: _Running | None) -> None:
        self._lock = threading.Lock()
        self.slot = slot
        self._pending = 1  # the block itself

    def add(self) -> None:
        with self._lock:
            self._pending += 1

    def release(self) -> None:
        with self._lock:
            self._pending -= 1
            last = self._pending == 0
        if last and self.slot is not None:
            self.slot.give_back()


class _Priority:
    """The known devices' priority over the threads of this process: how many known devices'
    hashes are running, and the events of the requests waiting for an unknown client's hash in
    a hashing thread (set to release them). One lock for both, so that a wait registered just
    as a known device's hash begins is either released by it or refused before it starts."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.known = 0
        self.waiting: set[threading.Event] = set()

    def known_begins(self) -> None:
        """A known device's hash begins: every request waiting for an unknown one is released
        (answered ``busy``, its hash left to end in its hashing thread)."""
        with self.lock:
            self.known += 1
            for waiting in self.waiting:
                waiting.set()

    def known_ends(self) -> None:
        with self.lock:
            self.known -= 1


_priority = _Priority()


def _take_slot(shares: Shares, *, known_device: bool) -> _Running | None:
    """A slot of this process (the reserve's first for a known device), taken: the share it is
    of, to give back; ``None`` with the bound off. ``Busy`` when there is none, and for anyone
    but a known device while a known device's hash runs in this process (its request holds one
    of the process's threads: no other request's hash may take another)."""
    if shares.at_once <= 0:
        return None
    if known_device and _running_known.take(shares.known_at_once):
        return _running_known
    if (known_device or not _priority.known) and _running.take(shares.unknown_at_once):
        return _running
    raise Busy(1)


@contextmanager
def password_hashing(*, known_device: bool = False) -> Iterator[None]:
    """Hold one of this process's hashing slots and one of this second's hashes for the block
    (``known_device``: from the known devices' reserve first, then from the unknown share);
    ``Busy`` (before the block runs) when there is none. A known device's block releases the
    requests of this process waiting for an unknown client's hash (``hash_aside``: they are
    answered ``busy``), and no unknown client's hash starts until it ends. Nested uses count
    once."""
    if getattr(_holding, "held", False):
        yield
        return
    shares = Shares.now()
    hold = _Hold(_take_slot(shares, known_device=known_device))
    known_begun = False
    try:
        _count_this_second(shares, known_device=known_device)
        if known_device and hold.slot is not None:
            _priority.known_begins()
            known_begun = True
        _holding.held, _holding.known, _holding.hold = True, known_device, hold
        yield
    finally:
        _holding.held, _holding.known, _holding.hold = False, False, None
        if known_begun:
            _priority.known_ends()
        hold.release()


def hash_aside(compute: Callable[..., str], *args: Any, niceness: int) -> str:
    """``compute(*args)`` run in one of this process's hashing threads at ``niceness``, while
    the request's thread waits for it. Inside an unknown client's ``password_hashing()`` block
    the wait gives way to a known device: when one's hash begins in this process, the request
    is answered ``busy`` at once (its thread free for other requests) and the hash runs on to
    its end in the hashing thread, holding its slot until then; while one runs, none starts."""
    pool = _niced.pool(niceness)
    hold: _Hold | None = getattr(_holding, "hold", None)
    if hold is None or hold.slot is None or getattr(_holding, "known", False):
        return str(pool.submit(compute, *args).result())
    released = threading.Event()
    with _priority.lock:
        if _priority.known:
            raise Busy(1)
        _priority.waiting.add(released)
    hold.add()
    try:
        future = pool.submit(compute, *args)
    except BaseException:
        hold.release()
        with _priority.lock:
            _priority.waiting.discard(released)
        raise

    def finished(_: Future[str]) -> None:
        released.set()
        hold.release()

    future.add_done_callback(finished)
    try:
        released.wait()
    finally:
        with _priority.lock:
            _priority.waiting.discard(released)
    if not future.done():
        raise Busy(1)
    return str(future.result())


def refuse_if_busy(*, known_device: bool = False) -> None:
    """``Busy`` now, taking nothing, when a hash could not start: every slot of this process
    that the attempt may use taken, or this second's counts at their limits (for a known device,
    its reserve's and the unknown share's both). Lets a log-in be refused before the lockout's
    queries; ``password_hashing()`` still decides (another request may take the last slot)."""
    if getattr(_holding, "held", False):
        return
    shares = Shares.now()
    unknown_taken = _running.count >= shares.unknown_at_once
    if known_device:
        slots_taken = unknown_taken and _running_known.count >= shares.known_at_once
    else:  # nor while a known device's hash runs (``_take_slot``)
        slots_taken = unknown_taken or bool(_priority.known)
    if shares.at_once > 0 and slots_taken:
        raise Busy(1)
    if shares.per_second <= 0:
        return
    now = clock()
    window = int(now)
    keys = [f"{KEY_PREFIX}:{window}"]
    if known_device and shares.known_per_second > 0:
        keys.append(f"{KNOWN_KEY_PREFIX}:{window}")
    try:
        counts = cache.get_many(keys)
    except Exception as error:  # noqa: BLE001 - any cache backend's failure: fail open
        _warn_cache_down(error)
        return
    if int(counts.get(keys[0]) or 0) < shares.unknown_per_second:
        return
    if len(keys) > 1 and int(counts.get(keys[1]) or 0) < shares.known_per_second:
        return
    raise Busy(max(1, math.ceil(window + 1 - now)))


def _count_this_second(shares: Shares, *, known_device: bool) -> None:
    """Count one hash in this second's window: a known device's in its reserve while that
    lasts, else in the unknown share; ``Busy`` past both."""
    if shares.per_second <= 0:
        return
    now = clock()
    window = int(now)
    try:
        if known_device and shares.known_per_second > 0:
            reserved = count_in_window(f"{KNOWN_KEY_PREFIX}:{window}", timeout=2)
            if reserved <= shares.known_per_second:
                return
        count = count_in_window(f"{KEY_PREFIX}:{window}", timeout=2)
    except Exception as error:  # noqa: BLE001 - any cache backend's failure: fail open
        _warn_cache_down(error)
        return
    if count > shares.unknown_per_second:
        raise Busy(max(1, math.ceil(window + 1 - now)))


def _warn_cache_down(error: Exception) -> None:
    now = time.monotonic()
    if now - _last_warning[0] >= LOG_EVERY_SECONDS or not _last_warning[0]:
        _last_warning[0] = now
        logger.warning(
            "Password hashes are not counted across processes (the cache failed: %s: %s); "
            "only the per-process bound applies.",
            type(error).__name__,
            error,
        )


class _NicedThreads:
    """This process's hashing threads, at a lower CPU priority (made again after a fork, or
    when the settings change)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[int, int, int] | None = None
        self._pool: ThreadPoolExecutor | None = None

    def pool(self, niceness: int) -> ThreadPoolExecutor:
        size = int(settings.PASSWORD_HASHES_AT_ONCE) or 8
        key = (os.getpid(), niceness, size)
        with self._lock:
            if self._pool is None or self._key != key:
                if self._pool is not None:
                    self._pool.shutdown(wait=False)
                self._pool = ThreadPoolExecutor(
                    max_workers=size,
                    thread_name_prefix="hashing",
                    initializer=_lower_priority,
                    initargs=(niceness,),
                )
                self._key = key
            return self._pool


def _lower_priority(niceness: int) -> None:
    """Lower this thread's CPU priority (Linux keeps a niceness per thread)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)
    except (AttributeError, OSError) as error:  # not Linux, or not allowed: hash as it is
        logger.info("Hashing at the request's own priority (%s).", error)


_niced = _NicedThreads()


class HashedAside:
    """A password hasher's mixin (before the hasher) that computes each hash in a thread of
    lower CPU priority (``PASSWORD_HASH_NICENESS``; 0: in the request's own thread), through
    ``hash_aside``: when the cores are contended, serving requests comes first and hashing
    takes the rest, and the request's thread waits for it with the GIL released, giving way to
    a known device's log-in. A known device's hash (``password_hashing(known_device=True)``)
    is computed in the request's own thread, at its priority."""

    def encode(self, password: str, salt: str, *args: Any, **kwargs: Any) -> str:
        compute = super().encode  # type: ignore[misc]
        niceness = int(settings.PASSWORD_HASH_NICENESS)
        if niceness <= 0 or getattr(_holding, "known", False):
            return str(compute(password, salt, *args, **kwargs))
        return hash_aside(partial(compute, **kwargs), password, salt, *args, niceness=niceness)


class NicePBKDF2PasswordHasher(HashedAside, PBKDF2PasswordHasher):
    """Django's PBKDF2-SHA256 hasher (the same algorithm, iterations and stored hashes),
    hashing aside (``HashedAside``)."""


class BoundedModelBackend(ModelBackend):
    """Django's ``ModelBackend``, checking a password (or running the dummy hash for an unknown
    username) only inside ``password_hashing()``: from the known devices' reserve when the
    attempt's request carries a known device (``request.known_device``, which the log-in sets
    once it has checked the device's credential against the account named)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if password is None:
            return None
        known_device = getattr(request, "known_device", None) is not None
        with password_hashing(known_device=known_device):
            return super().authenticate(request, username=username, password=password, **kwargs)


class BusyMiddleware:
    """Renders ``Busy`` raised in a Django view (the admin's log-in form) as its problem; DRF's
    views render it themselves (``chickenfoot.problems``)."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Busy):
            return render_problem(exception.problem())
        return None
