"""The analysis of a finished online match: queued as it ends, run in slices on the bots' queue.

``analysis_queue`` (in the transaction that ends the match) writes the analysis row and queues
the task after commit, on the bots' queue at the lowest priority (``ANALYSIS_PRIORITY``): the
bots' worker takes every waiting bot turn before it, and it never runs on the main worker that
plays the bots a person waits on. ``analysis_run`` values the human moves from where the row
left off for at most ``ANALYSIS_SLICE_SECONDS`` of CPU, saves them, and says whether more is
left; the task then queues itself again, so one slice never holds the worker long. Idempotent:
a slice starts from what the row says is done, under the row's lock.
"""

from __future__ import annotations

import time
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.enqueue import enqueue_on_commit
from games.models import Match, Move, Player, Seat

from .marks import accuracy
from .models import MatchAnalysis
from .moves import analyse_step
from .walk import match_walk

#: Celery priority of an analysis slice on the Redis transport (0 is taken first, 9 last).
ANALYSIS_PRIORITY = 9
#: The analysis task's name (``games.analysis.tasks.match_analyse``).
ANALYSE_TASK = "games.analysis.tasks.match_analyse"


def analysis_on_finish(*, match_id: int) -> None:
    """In the transaction that ends ``match_id``: queue its analysis if it was played online
    and ``ANALYSIS_ON_FINISH`` holds (else it is queued when first asked for)."""
    if not settings.ANALYSIS_ON_FINISH:
        return
    play = Match.objects.filter(pk=match_id).values_list("play", flat=True).first()
    if play == Match.Play.ONLINE:
        analysis_queue(match_id=match_id)


def analysis_queue(*, match_id: int) -> MatchAnalysis:
    """Write the analysis row of online match ``match_id`` and queue its task after commit
    (once: a row already there is returned as it is)."""
    analysis, created = MatchAnalysis.objects.get_or_create(
        match_id=match_id, defaults={"total": 0, "queued_at": timezone.now()}
    )
    if created:
        analysis_send_on_commit(match_id=match_id)
    return analysis


def analysis_send_on_commit(*, match_id: int) -> None:
    """Queue a slice of ``match_id``'s analysis after commit (the sweeper's re-queue too).

    The task is looked up by name in Celery's registry: ``games.analysis.tasks`` imports this
    module, so importing the task here would make the two import each other."""
    match_analyse = current_app.tasks[ANALYSE_TASK]
    enqueue_on_commit(
        match_analyse, match_id, queue=settings.BOTS_QUEUE, priority=ANALYSIS_PRIORITY
    )


def analysis_requeued(*, match_id: int) -> None:
    """Note that a further slice of ``match_id``'s analysis was queued (the sweeper's clock)."""
    MatchAnalysis.objects.filter(match_id=match_id).update(queued_at=timezone.now())


def human_moves(*, match: Match) -> set[int]:
    """The seqs of the moves a person made (not a bot, not the server for an expired clock, not
    a bot playing for someone who left)."""
    seats = {
        s.position: s
        for s in Seat.objects.filter(match=match)
        .select_related("player")
        .only("position", "left_at", "player__kind")
    }
    out = set()
    for seq, seat, timed_out, at in Move.objects.filter(match=match).values_list(
        "seq", "seat", "timed_out", "created_at"
    ):
        row = seats.get(seat)
        if row is None or row.player is None or row.player.kind == Player.Kind.BOT or timed_out:
            continue
        if row.left_at is not None and at >= row.left_at:
            continue
        out.add(seq)
    return out


def analysis_run(*, match_id: int, slice_seconds: float | None = None) -> bool:
    """Analyse the next moves of ``match_id`` for at most ``slice_seconds`` of CPU (default
    ``ANALYSIS_SLICE_SECONDS``; ``0``: to the end) and save them. ``True`` if moves are left."""
    budget = settings.ANALYSIS_SLICE_SECONDS if slice_seconds is None else slice_seconds
    with transaction.atomic():
        analysis = MatchAnalysis.objects.select_for_update().filter(match_id=match_id).first()
        if analysis is None or analysis.status == MatchAnalysis.Status.DONE:
            return False
        match = Match.objects.get(pk=match_id)
        analysis.total = Move.objects.filter(match=match).count()
        humans = human_moves(match=match)
        started = time.process_time()
        found: list[dict[str, Any]] = []
        done = analysis.done
        for step in match_walk(match=match):
            seq = step.move.seq
            if seq <= done:
                continue
            if seq in humans:
                found.append(
                    analyse_step(step=step, match_seed=match.seed, deals=settings.ANALYSIS_DEALS)
                )
            done = seq
            if budget and time.process_time() - started >= budget:
                break
        spent = time.process_time() - started
        analysis.moves = [*analysis.moves, *found]
        analysis.done = done
        analysis.cpu_seconds += spent
        analysis.started_at = analysis.started_at or timezone.now()
        more = done < analysis.total
        if not more:
            analysis.status = MatchAnalysis.Status.DONE
            analysis.finished_at = timezone.now()
        analysis.save()
    return more


def analysis_summary(*, analysis: MatchAnalysis, seat_count: int) -> list[dict[str, Any]]:
    """Per seat with analysed moves: its accuracy per round and for the match, and how many
    moves it made of each mark (forced moves are counted apart and in no accuracy)."""
    out = []
    for seat in range(seat_count):
        mine = [m for m in analysis.moves if m["seat"] == seat]
        if not mine:
            continue
        chosen = [m for m in mine if not m["forced"]]
        rounds = sorted({m["round"] for m in mine})
        marks: dict[str, int] = {}
        for m in chosen:
            marks[m["mark"]] = marks.get(m["mark"], 0) + 1
        out.append(
            {
                "seat": seat,
                "moves": len(mine),
                "forced": len(mine) - len(chosen),
                "accuracy": accuracy(m["loss"] for m in chosen),
                "rounds": [
                    {
                        "round": r,
                        "accuracy": accuracy(m["loss"] for m in chosen if m["round"] == r),
                    }
                    for r in rounds
                ],
                "marks": marks,
            }
        )
    return out
