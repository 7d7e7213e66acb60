"""Quiet hours: a window of the day, in the player's own time zone, when no push goes out.

A notification that comes during them waits in the inbox (and goes out on ``/ws/me/``, which
the player opened): it is not pushed then, nor when they end, so that a night's turns do not
buzz all at once in the morning; the app shows the inbox when it opens. The window runs from
``quiet_hours_start`` up to ``quiet_hours_end``, over midnight when the end comes first (22:00
to 07:00); both empty: none. The time zone is an IANA name (``zoneinfo``); empty: UTC.
"""

from __future__ import annotations

from datetime import datetime, time
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django.utils import timezone


@cache
def time_zones() -> frozenset[str]:
    """The IANA time zones this machine knows (the tzdata package's, or the system's)."""
    return frozenset(available_timezones())


def time_zone_known(name: str) -> bool:
    return name in time_zones()


def quiet_now(
    *, time_zone: str, start: time | None, end: time | None, now: datetime | None = None
) -> bool:
    """Is ``now`` (the current time unless given) within the window from ``start`` to ``end``
    in ``time_zone``?"""
    if start is None or end is None or start == end:
        return False
    zone = ZoneInfo(time_zone) if time_zone_known(time_zone) else ZoneInfo("UTC")
    local = (now or timezone.now()).astimezone(zone).time().replace(tzinfo=None)
    if start < end:
        return start <= local < end
    return local >= start or local < end  # over midnight
