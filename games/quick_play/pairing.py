"""Pairing: fill a queue's tables with players of a like rating, then create and start each
match.

A queue is paired by one transaction at a time: on PostgreSQL a transaction-level advisory
lock per queue (``pg_advisory_xact_lock``) orders the pairings, and the waiting entries are
read ``FOR UPDATE SKIP LOCKED`` after it (an entry a leave holds is left to the leave). Each
table's entries are claimed with a compare-and-set (waiting -> matched); a claim that misses
writes nothing of that table (a savepoint). A transaction starts at most ``PAIR_TABLES`` tables,
so the lock is held briefly; ``queue_drain`` pairs again while there is more. So however many
workers and requests pair at once, nobody is in two matches and nobody is lost. On SQLite (the
embedded default) writes are serialised anyway.

The rule (docs/api.md, "Quick play"): the longest-waiting player anchors a table; the players
whose rating is within the band of the anchor's wait (``presets.band``) fill it, closest
rating first. When no full table can be made and the anchor agreed to bots and has waited as
long as they said, the other players within the band who agreed and have waited their own
time join, and level-2 bots take the seats left. Then the next longest-waiting, and so on.
Two players one of whom blocked the other are never seated at one table.
"""

from __future__ import annotations

import bisect
import hashlib
import logging
import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from games.models import Match, Seat
from games.notifications import kinds
from games.notifications.services import notify
from games.quick_play.models import QueueEntry
from games.quick_play.presets import BOT_LEVEL, PRESETS, band
from games.services.matches import (
    BOT,
    CREATOR,
    OPEN,
    SeatSpec,
    match_create,
    match_start,
)
from games.social.blocks import blocked_pairs

logger = logging.getLogger(__name__)

#: The most waiting entries one pairing reads (the longest waiting); the rest wait for the next.
PAIR_BATCH = 2000
#: The most tables one pairing transaction starts, so that it holds the queue's lock briefly;
#: whoever called it pairs again while a pairing fills this many (``queue_drain``).
PAIR_TABLES = 4
#: How long one ``queue_drain`` pairs again before it hands over (seconds).
DRAIN_SECONDS = 5.0


class _Missed(Exception):
    """A table's claim found an entry no longer waiting: that table is not started."""


@dataclass(frozen=True)
class Waiting:
    """An entry as pairing sees it."""

    pk: int
    rating: float
    joined_at: datetime
    bots_after_seconds: int | None
    player_id: int = 0

    def waited(self, now: datetime) -> float:
        return (now - self.joined_at).total_seconds()

    def takes_bots(self, now: datetime) -> bool:
        """Has the player agreed to bots, and waited as long as they said?"""
        return self.bots_after_seconds is not None and self.waited(now) >= self.bots_after_seconds


@dataclass(frozen=True)
class Table:
    """The entries of one match (the anchor first), and how many bots fill it."""

    entries: list[Waiting]
    bots: int


def tables_of(
    waiting: list[Waiting],
    *,
    seat_count: int,
    now: datetime,
    apart: AbstractSet[frozenset[int]] = frozenset(),
) -> list[Table]:
    """The tables the rule makes of ``waiting`` (any order) at ``now``. ``apart``: pairs of
    player ids never seated at one table (one of the two blocked the other)."""
    by_rating = sorted(waiting, key=lambda e: (e.rating, e.joined_at, e.pk))
    keys = [(e.rating, e.joined_at, e.pk) for e in by_rating]
    tables: list[Table] = []
    for anchor in sorted(waiting, key=lambda e: (e.joined_at, e.pk)):
        at = bisect.bisect_left(keys, (anchor.rating, anchor.joined_at, anchor.pk))
        if at >= len(keys) or keys[at][2] != anchor.pk:
            continue  # seated at an earlier table
        reach = band(waited_seconds=anchor.waited(now))
        others = _closest(by_rating, at, reach, seat_count - 1, lambda e: True, apart)
        if len(others) < seat_count - 1:
            if not anchor.takes_bots(now):
                continue
            others = _closest(
                by_rating, at, reach, seat_count - 1, lambda e: e.takes_bots(now), apart
            )
        table = [anchor, *others]
        tables.append(Table(entries=table, bots=seat_count - len(table)))
        for entry in table:
            gone = bisect.bisect_left(keys, (entry.rating, entry.joined_at, entry.pk))
            del keys[gone], by_rating[gone]
    return tables


def _closest(
    by_rating: list[Waiting],
    at: int,
    reach: float,
    count: int,
    fits: Callable[[Waiting], bool],
    apart: AbstractSet[frozenset[int]],
) -> list[Waiting]:
    """Up to ``count`` entries of ``by_rating`` but the one at ``at``, within ``reach`` of its
    rating and ``fits``, none ``apart`` from the anchor or another found, closest first (the
    longer waiting of two as close)."""
    rating = by_rating[at].rating
    below, above, found = at - 1, at + 1, []

    def takes(entry: Waiting) -> bool:
        if not apart:
            return fits(entry)
        table = [by_rating[at], *found]
        return fits(entry) and not any(
            frozenset((entry.player_id, seated.player_id)) in apart for seated in table
        )

    while len(found) < count:
        while below >= 0 and not takes(by_rating[below]):
            below -= 1
        while above < len(by_rating) and not takes(by_rating[above]):
            above += 1
        low = rating - by_rating[below].rating if below >= 0 else None
        high = by_rating[above].rating - rating if above < len(by_rating) else None
        if low is not None and low <= reach and (high is None or high > reach or low <= high):
            found.append(by_rating[below])
            below -= 1
        elif high is not None and high <= reach:
            found.append(by_rating[above])
            above += 1
        else:
            break
    return found


def queue_pair(
    *, variant: str, seat_count: int, preset: str, now: datetime | None = None
) -> list[int]:
    """Fill what tables the queue can fill now: create and start each match, mark its entries
    matched. The ids of the matches started (none: nothing to do). The rule reads the waits at
    ``now`` (default: once the queue's lock is held, so that every entry read has joined)."""
    started: list[int] = []
    with transaction.atomic():
        _queue_lock(variant=variant, seat_count=seat_count, preset=preset)
        now = now or timezone.now()
        rows = {
            row.pk: row
            for row in QueueEntry.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("player")
            .filter(
                status=QueueEntry.Status.WAITING,
                variant=variant,
                seat_count=seat_count,
                preset=preset,
            )
            .order_by("joined_at", "pk")[:PAIR_BATCH]
        }
        waiting = [
            Waiting(
                pk=r.pk,
                rating=r.rating,
                joined_at=r.joined_at,
                bots_after_seconds=r.bots_after_seconds,
                player_id=r.player_id,
            )
            for r in rows.values()
        ]
        apart = blocked_pairs(r.player_id for r in rows.values())
        paired = tables_of(waiting, seat_count=seat_count, now=now, apart=apart)
        for table in paired[:PAIR_TABLES]:
            entries = [rows[entry.pk] for entry in table.entries]
            try:
                with transaction.atomic():  # a savepoint: a missed claim writes nothing
                    started.append(_table_start(entries=entries, bots=table.bots, preset=preset))
            except _Missed:
                logger.warning(
                    "Quick play: a table of entries %s was taken", [e.pk for e in entries]
                )
    return started


def queue_drain(
    *, variant: str, seat_count: int, preset: str, now: datetime | None = None
) -> tuple[int, bool]:
    """Pair the queue again while a pairing fills ``PAIR_TABLES`` tables, for at most
    ``DRAIN_SECONDS``: how many matches started, and whether there may be more to pair."""
    deadline = time.monotonic() + DRAIN_SECONDS
    started = 0
    while True:
        made = len(queue_pair(variant=variant, seat_count=seat_count, preset=preset, now=now))
        started += made
        if made < PAIR_TABLES:
            return started, False
        if time.monotonic() >= deadline:
            return started, True


def _table_start(*, entries: list[QueueEntry], bots: int, preset: str) -> int:
    """Create the match of one table (the anchor its creator, at seat 0), seat the others,
    start it and mark the entries matched; its id."""
    creator = entries[0]
    seats = [
        SeatSpec(CREATOR),
        *[SeatSpec(OPEN)] * (len(entries) - 1),
        *[SeatSpec(BOT, BOT_LEVEL)] * bots,
    ]
    match = match_create(
        creator=creator.player,
        variant=creator.variant,
        seats=seats,
        options=dict(PRESETS[preset]),
    )
    # The match was made in this transaction and nobody else can see it yet: its open seats
    # are taken here directly (seat_join's checks and notices have nothing to find).
    joined_at = timezone.now()
    for position, entry in enumerate(entries[1:], start=1):
        Seat.objects.filter(match=match, position=position, player__isnull=True).update(
            player=entry.player, joined_at=joined_at
        )
    match_start(match_id=match.pk, player=creator.player)
    claimed = QueueEntry.objects.filter(
        pk__in=[entry.pk for entry in entries], status=QueueEntry.Status.WAITING
    ).update(status=QueueEntry.Status.MATCHED, match=match, matched_at=timezone.now())
    if claimed != len(entries):  # someone else seated one of them: write nothing
        raise _Missed
    transaction.on_commit(lambda: notify_match_started(match.pk))
    logger.info("Quick play: match %s started for entries %s", match.pk, [e.pk for e in entries])
    return match.pk


def notify_match_started(match_id: int) -> None:
    """Tell the match's players that quick play found their table: the start itself told every
    player but the one it was started for (the table's first entry, its creator), so tell that
    one too (a ``match_started`` notification, once per player and match)."""
    creator = Match.objects.filter(pk=match_id).values_list("created_by_id", flat=True).first()
    if creator is None:
        return
    notify(
        player_id=creator,
        kind="match_started",
        payload=kinds.match_started(match_id=match_id),
        key=f"match_started:{match_id}",
    )


def _queue_lock(*, variant: str, seat_count: int, preset: str) -> None:
    """Hold the queue's advisory lock until the transaction ends (PostgreSQL; SQLite
    serialises writes on its own)."""
    if connection.vendor != "postgresql":
        return
    name = f"quick-play:{variant}:{seat_count}:{preset}".encode()
    key = int.from_bytes(hashlib.blake2b(name, digest_size=8).digest(), "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def queues_pair(*, now: datetime) -> int:
    """Pair every queue that has a waiting entry (the sweep: bands widen as time passes, and
    waits for bots run out); how many matches started."""
    queues = (
        QueueEntry.objects.filter(status=QueueEntry.Status.WAITING)
        .values_list("variant", "seat_count", "preset")
        .distinct()
        .order_by()
    )
    started = 0
    for variant, seat_count, preset in list(queues):
        started += len(queue_pair(variant=variant, seat_count=seat_count, preset=preset, now=now))
    return started
