"""What the write services share: the match lock, recording rounds, scheduling bot turns."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.bot_matches import bot_turn_queue
from games.enqueue import enqueue_on_commit
from games.jobs import games_jobs
from games.models import Match, Player, Round, Seat
from games.notifications.services import match_over_notify
from games.problems import MatchNotFound
from games.selectors import match_with_seat
from games.services.standings import final_standings, left_seats
from scoring.services import match_finished, round_results_record


def match_lock(
    *, match_id: int, player: Player | None = None, columns: tuple[str, ...] | None = None
) -> Match:
    """The match row, locked until the end of the caller's transaction.

    Every writer of a match takes this one lock first (and no other match lock), so writers of
    the same match queue up and writers of different matches never wait for each other.
    Call it inside ``transaction.atomic()``. With ``player``, ``match.my_seat`` is their
    position (``None`` without a seat), read in the same query. ``columns`` limits what is
    loaded (``games.selectors.MOVE_COLUMNS``); by default every column.
    """
    match = match_with_seat(match_id=match_id, player=player, lock=True, columns=columns)
    if match is None:
        raise MatchNotFound(_("There is no match %(match_id)s.") % {"match_id": match_id})
    return match


def round_record_events(*, match: Match, state_json: dict[str, Any], events: list[dict]) -> None:
    """Close the rounds ``events`` ended and open those they started (C-SHUFFLE: reveal, commit).

    ``state_json`` is the state after the events: a round started by them started from it.
    """
    now = timezone.now()
    went_out: dict[int, int | None] = {}
    for index, event in enumerate(events):
        kind = event.get("type")
        if kind == "round_ended":
            Round.objects.filter(match=match, number=event["round"]).update(
                status=Round.Status.FINISHED, seed_revealed=event["seed"], ended_at=now
            )
            went_out[event["round"]] = event["seat"] if event.get("reason") == "out" else None
        elif kind == "round_scores":
            Round.objects.filter(match=match, number=event["round"]).update(scores=event["scores"])
            round_results_record(
                match_id=match.pk,
                round_number=event["round"],
                players=seat_players(match_id=match.pk),
                scores=event["scores"],
                went_out_seat=went_out.get(event["round"]),
            )
        elif kind == "round_started":
            round_create(
                match=match,
                number=event["round"],
                state_json=state_json,
                start_double=event["start_double"][0],
                opening=opening_in(events, index),
                started_at=now,
            )
        elif kind == "match_over":
            match.status = Match.Status.FINISHED
            # Players who left are marked (games/services/standings.py).
            match.standings = final_standings(
                standings=event["standings"], left=left_seats(match_id=match.pk)
            )
            match.finished_at = now
            on_commit_finalise(match_id=match.pk)


def went_out_as_dealt(scores: list[int]) -> int | None:
    """Who went out of a round that ended as it was dealt (CF-START with one-tile hands).

    The engine reports no events for it: its starter placed their only tile, the start double,
    and went out, the one seat left holding nothing (``None`` if the scores do not single it out).
    """
    zeros = [seat for seat, points in enumerate(scores) if points == 0]
    return zeros[0] if len(zeros) == 1 else None


def seat_players(*, match_id: int) -> list[int]:
    """The player id at each seat, in seat order (every seat is taken once play started)."""
    return list(
        Seat.objects.filter(match_id=match_id)
        .order_by("position")
        .values_list("player_id", flat=True)
    )


def on_commit_finalise(*, match_id: int) -> None:
    """Mark the match as waiting for its results (in this transaction) and queue the
    end-of-match task after commit (results, ratings), and its analysis (``games.analysis``).
    A broker error is logged and never fails the committed request (``games.enqueue``): the
    sweeper finds the waiting match again."""
    from games.analysis.services import analysis_on_finish
    from scoring.tasks import match_finalise_task

    match_finished(match_id=match_id)
    enqueue_on_commit(match_finalise_task, match_id)
    match_over_notify(match_id=match_id)
    analysis_on_finish(match_id=match_id)


def opening_in(events: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
    """The opening of the round whose ``round_started`` is ``events[start]``.

    A round's automatic start is the last thing a move reports unless the round ends at once
    (a one-tile hand that was the start double): its opening runs to that ``round_ended``.
    """
    end = start + 1
    while end < len(events) and events[end].get("type") != "round_ended":
        end += 1
    return events[start:end]


def round_create(
    *,
    match: Match,
    number: int,
    state_json: dict[str, Any],
    start_double: int | None = None,
    opening: list[dict[str, Any]] | None = None,
    started_at: datetime,
) -> Round:
    """The row of round ``number``: the snapshot it starts from, its commitment, its opening.

    ``started_at`` is the writer's one clock reading, the one a round ended in the same write
    ends at: a round never ends before it starts.
    """
    if start_double is None:  # C-ROUNDS: N, N-1, ...
        start_double = state_json["options"]["max_pip"] - (number - 1)
    row = Round.objects.create(
        match=match,
        number=number,
        start_double=start_double,
        commitment=state_json["commitments"][number - 1],
        snapshot=state_json,
        opening=opening or [],
        started_at=started_at,
    )
    match.current_round = row  # the caller saves the match
    return row


def bot_turn_schedule(*, match: Match) -> None:
    """Start the clock of a bot to move now (``bot_turn_since``), and queue its turn on commit.

    Call it on every change that can pass the turn, before saving ``bot_turn_since`` with the
    rest of the match: with no bot to move the clock is cleared. The sweeper
    (``games.sweeps.bot_turns``) queues again a bot turn whose clock is too old, so a lost
    message or a dead worker never leaves a match waiting for good. A match of bots only queues
    its turn on the bots' queue (``games.bot_matches``), so that it never delays a bot a person
    is waiting on.
    """
    turn = (match.state or {}).get("turn")
    if match.status != Match.Status.PLAYING or turn not in match.bot_seats:
        match.bot_turn_since = None
        return
    match.bot_turn_since = timezone.now()
    queue = bot_turn_queue(bot_seats=match.bot_seats, seat_count=match.seat_count)
    games_jobs().bot_turn_enqueue_on_commit(match_id=match.pk, version=match.version, queue=queue)
