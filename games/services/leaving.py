"""Leaving a match: a player resigns (a bot plays on for them), a match is abandoned.

How leaving counts (docs/api.md, "Resigning and abandoning"): a player who resigned, or whose
seat was taken over after too many timeouts, stays the seat's player; a bot finishes the seat
and the player's result is the seat's, by C-WIN like everyone's (the standings mark them
``left``). An abandoned match has no standings and no results: it counts for nobody (a
tournament's abandoned table is settled, so its stage can finish: docs/scoring.md).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.live import publish as live
from games.models import Match, Player, Seat
from games.problems import (
    AlreadyLeft,
    MatchNotPlaying,
    NotCreator,
    NotYourMatch,
    TableMatchNoMoves,
    table_no_moves_detail,
)
from games.services.clock import clock_stop, on_commit_clock
from games.services.common import bot_turn_schedule, match_lock
from scoring.competitions.services import competition_match_abandoned

#: The level of the bot that plays a seat its player left (the timeouts' bot, RULES: level 2).
TAKEOVER_BOT_LEVEL = 2


def seat_take_over(*, match: Match, position: int, reason: str) -> None:
    """A bot plays seat ``position`` from now on; its player stays, marked as having left.

    The caller holds the match lock, calls ``bot_turn_schedule`` and saves ``match``
    (``bot_seats``, ``version``, ``turn_deadline``, ``turn_warn_at``, ``bot_turn_since``); the
    sockets are told.
    """
    seat = Seat.objects.select_related("player").get(match=match, position=position)
    seat.left, seat.left_at, seat.bot_level = reason, timezone.now(), TAKEOVER_BOT_LEVEL
    seat.save(update_fields=["left", "left_at", "bot_level"])
    match.bot_seats = sorted({*match.bot_seats, position})
    match.version += 1
    if (match.state or {}).get("turn") == position:
        clock_stop(match=match)  # no clock for a bot
    # Another human's clock keeps its deadline (and its warning, sent or not) at the new version.
    on_commit_clock(match=match)
    live.on_commit_notice(
        match_id=match.pk,
        frame={
            "type": "seat_left",
            "version": match.version,
            "seat": position,
            "name": seat.player.display_name if seat.player else None,
            "reason": reason,
            "bot_level": TAKEOVER_BOT_LEVEL,
        },
    )


def seat_hand_to_bot(*, match: Match, position: int, reason: str) -> None:
    """Seat ``position``'s player leaves for ``reason`` and a bot plays it on: the seat is taken
    over (``seat_take_over``), the sockets are told of the new version, a bot to move now is
    scheduled (it may be this seat again, MT-DOUBLE) and ``match`` is saved.

    The caller holds the match lock (``match_lock``, in its transaction).
    """
    seat_take_over(match=match, position=position, reason=reason)
    live.on_commit_moved(match_id=match.pk, seq=match.moves_played, version=match.version)
    bot_turn_schedule(match=match)  # a bot to move now plays at once
    match.save(
        update_fields=[
            "bot_seats",
            "version",
            "turn_deadline",
            "turn_warn_at",
            "bot_turn_since",
        ]
    )


def seat_resign(*, match_id: int, player: Player) -> Match:
    """``player`` resigns their seat: a level-2 bot plays it to the end of the match.

    Refuses a caller without a seat (403), a match not in play (409 ``match_not_playing``),
    and a seat already left (409 ``already_left``). Bumps the match's version.
    """
    with transaction.atomic():
        match = match_lock(match_id=match_id, player=player)
        position: int | None = match.my_seat  # type: ignore[attr-defined]
        if position is None:
            raise NotYourMatch(_("You have no seat at match %(match)s.") % {"match": match.pk})
        if match.play == Match.Play.TABLE:  # no bot can play real tiles
            raise TableMatchNoMoves(table_no_moves_detail(match.pk))
        if match.status != Match.Status.PLAYING:
            raise MatchNotPlaying(
                _("Match %(match)s is %(status)s: nothing to resign.")
                % {"match": match.pk, "status": match.status}
            )
        if position in match.bot_seats:
            raise AlreadyLeft(
                _("A bot already plays your seat at match %(match)s.") % {"match": match.pk}
            )
        seat_hand_to_bot(match=match, position=position, reason=Seat.Left.RESIGNED)
    return match


def match_abandon(*, match_id: int, player: Player) -> Match:
    """Stop a match that has not finished: no more moves, no standings, no results.

    Only its creator or an organiser may (403 ``not_creator``); a finished or abandoned match
    is refused (409 ``match_not_playing``). Bots and clocks find nothing left to do.
    """
    with transaction.atomic():
        match = match_lock(match_id=match_id)
        if match.created_by_id != player.pk and not player.organises:
            raise NotCreator(_("Only the match's creator or an organiser can abandon it."))
        if match.status not in (Match.Status.OPEN, Match.Status.PLAYING):
            raise MatchNotPlaying(
                _("Match %(match)s is %(status)s: it cannot be abandoned.")
                % {"match": match.pk, "status": match.status}
            )
        match.status = Match.Status.ABANDONED
        match.finished_at = timezone.now()
        clock_stop(match=match)
        match.bot_turn_since = None  # nothing for the sweeper to re-queue
        match.version += 1
        match.save(
            update_fields=[
                "status",
                "finished_at",
                "turn_deadline",
                "turn_warn_at",
                "bot_turn_since",
                "version",
            ]
        )
        competition_match_abandoned(match_id=match.pk)  # a tournament table never stalls
        live.on_commit_notice(
            match_id=match.pk,
            frame={
                "type": "match_abandoned",
                "version": match.version,
                "by": player.display_name,
            },
        )
    return match
