"""A turn whose clock ran out is played for, and the sweep that finds the clocks due.

The top of the match services: on expiry the server plays the level-2 bot's choice for the
seat through the move path (``moves.timed_out_move``), and after ``timeouts_to_takeover``
timeouts in a row hands the seat to a bot (``leaving.seat_hand_to_bot``); the clock itself
(deadlines, countdowns, the warning) is ``games.services.clock``, which the moves and leaving
use and which imports neither.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import bots, engine
from games.models import Match, Seat
from games.problems import MatchNotFound
from games.selectors import bot_seat_info
from games.services.clock import clock_warn
from games.services.common import match_lock
from games.services.leaving import seat_hand_to_bot
from games.services.moves import timed_out_move

logger = logging.getLogger(__name__)

#: The most clocks one sweep acts on in one run (the rest wait for the next run).
SWEEP_BATCH = 500


def clock_expire(*, match_id: int, version: int) -> int | None:
    """Play for the seat whose clock ran out, if the match is still at ``version``.

    Returns the new version, or ``None`` when there was nothing to do (the turn moved on, the
    clock has time left, the match is over or was deleted). Takes the match lock; idempotent:
    the move it plays changes the version, so any other try at that version finds nothing.
    """
    with transaction.atomic():
        try:
            match = match_lock(match_id=match_id)
        except MatchNotFound:
            return None  # deleted: its stage was seated again before anyone moved
        now = timezone.now()
        if (
            match.status != Match.Status.PLAYING
            or match.version != version
            or match.turn_deadline is None
            or match.turn_deadline > now
        ):
            return None
        seat = match.state["turn"]  # type: ignore[index]
        if seat in match.bot_seats:
            return None
        state = engine.from_json(match.state, trusted=True)  # type: ignore[arg-type]
        rng = random.Random(f"{match.seed}:{version}:timeout")
        info = bot_seat_info(match=match, state=state, seat=seat, with_log=False)
        chosen = bots.choose_move(info, 2, rng)
        timed_out_move(match=match, seat=seat, move=chosen.to_json())
        limit = match.options.get("timeouts_to_takeover") or 0
        if limit and match.timeouts_in_row[seat] >= limit:
            seat_hand_to_bot(match=match, position=seat, reason=Seat.Left.TIMED_OUT)
    logger.info("clock: match %s v%s: seat %s ran out of time, played for", match_id, version, seat)
    return match.version


def clock_sweep(*, now: datetime) -> int:
    """The sweeper's sweep (``settings.SWEEPS``): warn and play for every clock that is due.

    One indexed query finds the playing matches whose warning time (``turn_warn_at``) or
    deadline (``turn_deadline``) has come; each is warned (``clock_warn``) and, once its time is
    up, played for (``clock_expire``), both of which act once however many sweepers and tasks
    try. A clock that fails is logged and tried again by the next run. Returns how many
    warnings it sent and turns it played.
    """
    due = list(
        Match.objects.filter(
            Q(turn_warn_at__lte=now) | Q(turn_deadline__lte=now), status=Match.Status.PLAYING
        )
        .order_by("turn_deadline")
        .values_list("pk", "version", "turn_deadline")[:SWEEP_BATCH]
    )
    acted = 0
    for pk, version, deadline in due:
        try:
            acted += clock_warn(match_id=pk, version=version)
            if deadline is not None and deadline <= now:
                acted += clock_expire(match_id=pk, version=version) is not None
        except Exception:  # one broken match must not stop the others' clocks
            logger.exception("clock: match %s v%s: the sweep could not act", pk, version)
    return acted
