"""The sweeper: find work that should have happened and did not, and queue it again.

A message can be lost (Redis down when it was sent) and a worker can die mid-task; the sweeper
makes neither final. Celery beat runs ``games.tasks.sweep`` every ``SWEEP_INTERVAL_SECONDS``,
which runs every sweep named in ``settings.SWEEPS`` (name -> dotted path of a function). On the
embedded default, where no beat runs, ``games.middleware.SweepOnRequestMiddleware`` runs them.

A sweep is a function ``sweep(*, now: datetime) -> int`` returning how many items it queued
again or acted on (the turn-clock sweep, ``games.services.timeouts.clock_sweep``, warns and plays
for the clocks that are due: no task waits that long in the broker). It must be cheap when there
is nothing to do (one indexed query), bounded per run (``SWEEP_BATCH`` items; the rest wait for
the next run), and safe to run concurrently with itself: claim each item with a compare-and-set
update, so two sweepers never queue one item twice (nor act on it twice).
The tasks it queues are idempotent anyway. To add one, write the function and name it in
``SWEEPS``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.module_loading import import_string

from chickenfoot.metrics.counters import FINALISATIONS_FAILED, SWEEPS_ACTED, count_on_commit
from games.bot_matches import bot_turn_queue
from games.enqueue import enqueue_on_commit
from games.invitations.holds import invitations_expire
from games.jobs import games_jobs
from games.models import Match
from games.quick_play.pairing import queues_pair
from scoring.models import MatchFinalisation, MatchRecompute

logger = logging.getLogger(__name__)

#: The most items one sweep queues in one run.
SWEEP_BATCH = 500


def sweeps_run(*, now: datetime | None = None) -> dict[str, int]:
    """Run every sweep in ``settings.SWEEPS``; how many items each queued again or acted on.

    A sweep that fails is logged and left out of the answer; the others still run.
    """
    now = now or timezone.now()
    queued: dict[str, int] = {}
    for name, path in settings.SWEEPS.items():
        try:
            queued[name] = import_string(path)(now=now)
        except Exception:  # one broken sweep must not stop the others
            logger.exception("Sweep %s failed", name)
            continue
        if queued[name]:
            SWEEPS_ACTED.labels(kind=name).inc(queued[name])
            logger.info("Sweep %s acted on %d item(s)", name, queued[name])
    return queued


def bot_turns(*, now: datetime) -> int:
    """Queue again every playing match whose bot has been to move too long.

    "Too long" is ``BOT_TURN_STALE_SECONDS`` since ``Match.bot_turn_since``, which every move
    refreshes while bots play (so a running bot run is never touched). Claiming a match moves
    its clock to ``now``: a match is queued again at most once per ``BOT_TURN_STALE_SECONDS``,
    and a move committed meanwhile (it changes the clock) makes the claim miss. A match of bots
    only goes to the bots' queue (``games.bot_matches``), as its turns always do (on the
    embedded default: the process's bot thread, ``games.bot_thread``).
    """
    stale = now - timedelta(seconds=settings.BOT_TURN_STALE_SECONDS)
    waiting = (
        Match.objects.filter(bot_turn_since__lt=stale, status=Match.Status.PLAYING)
        .order_by("bot_turn_since")
        .values_list("pk", "bot_turn_since", "bot_seats", "seat_count")[:SWEEP_BATCH]
    )
    queued = 0
    for pk, since, bot_seats, seat_count in list(waiting):
        claimed = Match.objects.filter(pk=pk, bot_turn_since=since).update(bot_turn_since=now)
        if claimed:
            queue = bot_turn_queue(bot_seats=bot_seats or [], seat_count=seat_count)
            games_jobs().bot_turn_send_on_commit(match_id=pk, queue=queue)
            queued += 1
    return queued


def match_results(*, now: datetime) -> int:
    """Queue the end-of-match task again for every finished match whose results have waited
    longer than ``RESULTS_STALE_SECONDS`` since it was last queued.

    The move that ends a match marks it pending (``scoring.MatchFinalisation`` with
    ``finalised_at`` null) in its own transaction, so a lost message or a dead worker leaves the
    marker behind; the partial index ``finalisation_pending`` makes the question one indexed
    query however many matches have finished. Claiming a marker moves its ``queued_at`` to
    ``now`` and counts an attempt (compare-and-set): it is queued again at most once per
    ``RESULTS_STALE_SECONDS``. A match already queued ``RESULTS_MAX_ATTEMPTS`` times is not
    queued again: it is marked failed (``failed_at``, out of the partial index) and logged as
    an error with its last error; an organiser can still finalise it on demand.
    """
    from scoring.tasks import match_finalise_task

    stale = now - timedelta(seconds=settings.RESULTS_STALE_SECONDS)
    pending = MatchFinalisation.objects.filter(finalised_at__isnull=True, failed_at__isnull=True)
    waiting = (
        pending.filter(queued_at__lt=stale)
        .order_by("queued_at")
        .values_list("match_id", "queued_at", "attempts", "last_error")[:SWEEP_BATCH]
    )
    queued = 0
    for match_id, since, attempts, error in list(waiting):
        mine = pending.filter(match_id=match_id, queued_at=since)
        if attempts >= settings.RESULTS_MAX_ATTEMPTS:
            if mine.update(failed_at=now):
                count_on_commit(FINALISATIONS_FAILED)
                logger.error(
                    "Match %s: gave up on its results after %d attempts; last error: %s",
                    match_id,
                    attempts,
                    error or "none recorded (lost messages or a worker that died)",
                )
            continue
        if mine.update(queued_at=now, attempts=F("attempts") + 1):
            enqueue_on_commit(match_finalise_task, match_id)
            queued += 1
    return queued


def match_recomputes(*, now: datetime) -> int:
    """Queue the recompute task again for every corrected finished match whose recompute has
    waited longer than ``RESULTS_STALE_SECONDS`` since it was last queued.

    The correction marks it pending (``scoring.MatchRecompute`` with ``done_at`` null) in its
    own transaction; the partial index ``recompute_pending`` answers the question. Claiming a
    marker moves its ``queued_at`` to ``now`` (compare-and-set), so it is queued again at most
    once per ``RESULTS_STALE_SECONDS``, and at most ``RESULTS_MAX_ATTEMPTS`` times per
    correction (a match whose results never come stays ``results_pending``); the task is
    idempotent anyway.
    """
    from scoring.tasks import match_recompute_task

    stale = now - timedelta(seconds=settings.RESULTS_STALE_SECONDS)
    pending = MatchRecompute.objects.filter(
        done_at__isnull=True, attempts__lt=settings.RESULTS_MAX_ATTEMPTS
    )
    waiting = (
        pending.filter(queued_at__lt=stale)
        .order_by("queued_at")
        .values_list("match_id", "queued_at")[:SWEEP_BATCH]
    )
    queued = 0
    for match_id, since in list(waiting):
        if pending.filter(match_id=match_id, queued_at=since).update(
            queued_at=now, attempts=F("attempts") + 1
        ):
            enqueue_on_commit(match_recompute_task, match_id)
            queued += 1
    return queued


def invitations(*, now: datetime) -> int:
    """Mark pending invitations past their expiry (``INVITATION_TTL_HOURS``) expired, so that
    the seats they held are free; the lobby and seat join already pass over them, this keeps
    the rows true. One indexed query (``invitation_pending_expiry``) when none is due."""
    return invitations_expire(now=now, limit=SWEEP_BATCH)


def quick_play(*, now: datetime) -> int:
    """Pair every quick play queue that has a player waiting (``games.quick_play.pairing``): a
    join's own pairing may have been lost, and a band widens, or a wait for bots runs out, with
    no request to pair again. Acts under each queue's lock; how many matches it started."""
    return queues_pair(now=now)
