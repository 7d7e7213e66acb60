"""Matches of bots only: which they are, the ones a player has, and the queue their turns use.

A match of bots only has no seat a person plays: every seat holds a bot, or a player who left
it to a bot (resigned, or timed out too often). A player may have only so many of them open or
in play at once (``BOT_ONLY_MATCHES_PER_PLAYER``). Nobody waits on their bots, so their turns
go to a queue of their own (``settings.BOTS_QUEUE``), consumed by a worker of its own at a lower
CPU priority (docker-compose.yml; docs/reliability.md, "Bots under load"): however many such
matches play, the bots answering a person are never behind them. A match with a person at the
table sends its bots' turns to the default queue. On the embedded default (no broker) the bots'
queue is this process's bot thread (``games.bot_thread``).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Exists, OuterRef, Q

from games.models import Match, Player, Seat


def bots_only(*, bot_seats: list[int], seat_count: int) -> bool:
    """Does a bot play every seat of a started match (``Match.bot_seats``)?"""
    return len(set(bot_seats)) >= seat_count


def bot_turn_queue(*, bot_seats: list[int], seat_count: int) -> str:
    """The queue for the bots' turns of a started match: ``settings.BOTS_QUEUE`` when no person
    plays, else the default queue."""
    if bots_only(bot_seats=bot_seats, seat_count=seat_count):
        return str(settings.BOTS_QUEUE)
    return str(settings.CELERY_TASK_DEFAULT_QUEUE)


def bot_turn_queue_of(*, match_id: int) -> str:
    """``bot_turn_queue`` of the match ``match_id`` as it is now (the default queue if none)."""
    row = Match.objects.filter(pk=match_id).values_list("bot_seats", "seat_count").first()
    if row is None:
        return str(settings.CELERY_TASK_DEFAULT_QUEUE)
    return bot_turn_queue(bot_seats=row[0] or [], seat_count=row[1])


def bot_only_matches_of(*, player: Player) -> list[int]:
    """The ids of the matches of bots only ``player`` created that are open or in play, oldest
    first. One query on the creator's index: a seat a person holds, or that is open for one,
    makes a match not one of them."""
    person_seat = Seat.objects.filter(match=OuterRef("pk")).filter(
        Q(player__isnull=True) | Q(player__kind=Player.Kind.HUMAN, left="")
    )
    active = (Match.Status.OPEN, Match.Status.PLAYING)
    return list(
        Match.objects.filter(created_by=player, status__in=active)
        .exclude(Exists(person_seat))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
