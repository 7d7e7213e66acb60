"""The end of a match: results from the round rows, checked against the engine, and ratings."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import IntegrityError, transaction
from django.utils import timezone

from chickenfoot.metrics.counters import FINALISATIONS_FAILED, count_on_commit
from scoring import ratings
from scoring.competitions.services import competition_match_finished
from scoring.models import MatchFinalisation, MatchResult, Rating, RatingChange
from scoring.order import order_differences, order_from_rows
from scoring.ports import games_port

logger = logging.getLogger(__name__)

FINISHED = "finished"


class ResultsIncomplete(Exception):
    """A finished match whose round rows do not add up to a result (logged; nothing written)."""


#: How long a recorded error may be (the rest is in the log).
ERROR_CHARS = 2000


@dataclass(frozen=True)
class FinaliseOutcome:
    """What ``match_finalise`` did: ``written`` when this run wrote the results."""

    match_id: int
    written: bool
    reason: str = ""
    failed: bool = False
    engine_agreed: bool | None = None
    results: list[dict[str, Any]] = field(default_factory=list)


def _match_row(match_id: int) -> dict[str, Any] | None:
    """The match's row, locked first (as its writers and the recompute lock it): the results
    move its version on (``GamesPort.results_written``)."""
    # Read through the app registry: scoring never imports games (pyproject's contract).
    match_model = apps.get_model("games", "Match")
    return (
        match_model.objects.select_for_update()
        .filter(pk=match_id)
        .values("status", "variant", "seat_count", "finished_at", "standings", "options", "hints")
        .first()
    )


def match_finished(*, match_id: int) -> None:
    """Mark ``match_id`` as waiting for its results. Call it in the transaction that ends the
    match (games does): the sweeper (``games.sweeps.match_results``) then finds the match until
    the end-of-match task has written them, even if its message was lost."""
    MatchFinalisation.objects.create(match_id=match_id, queued_at=timezone.now(), attempts=1)


def finalisation_failed(*, match_id: int, error: str, give_up: bool) -> None:
    """Record why a run could not finalise ``match_id`` (its marker's ``last_error``); with
    ``give_up`` the sweeper stops queuing it (``failed_at``). Runs in a transaction of its own
    (the failed run's has rolled back); a marker already finalised is left alone."""
    changes: dict[str, Any] = {"last_error": error[:ERROR_CHARS]}
    if give_up:
        changes["failed_at"] = timezone.now()
    with transaction.atomic():
        markers = MatchFinalisation.objects.filter(match_id=match_id)
        if not markers.filter(finalised_at__isnull=True).update(**changes) and not markers.exists():
            # a match that finished before markers were written at its end
            MatchFinalisation.objects.get_or_create(match_id=match_id, defaults=changes)
        if give_up:
            count_on_commit(FINALISATIONS_FAILED)


def _claim(match_id: int) -> bool:
    """Claim the match's marker for this run (compare-and-set: pending to finalised, now);
    ``False`` if another run has.

    On PostgreSQL a concurrent run's claim waits for the first run's row lock (or its insert,
    for a match that finished without a marker): when that run commits, the claim finds the
    marker finalised and this run stops; if it rolls back, this run carries on.
    """
    now = timezone.now()
    claimed = MatchFinalisation.objects.filter(match_id=match_id, finalised_at__isnull=True).update(
        finalised_at=now
    )
    if claimed:
        return True
    if MatchFinalisation.objects.filter(match_id=match_id).exists():
        return False
    try:  # a match that finished before markers were written at its end
        with transaction.atomic():
            MatchFinalisation.objects.create(match_id=match_id, queued_at=now, finalised_at=now)
    except IntegrityError:
        return False
    return True


def match_finalise(*, match_id: int) -> FinaliseOutcome:
    """Write the results and ratings of finished match ``match_id``, once.

    Every finished match gets its result rows (places, history); the ratings change only
    where at least two distinct players took part, and the rows of a match that is not rated
    say why (``unrated_reason``: one bot level at every seat is one player).

    The order comes from the round rows (``scoring.order``), not from the engine's JSON; the
    engine's order (``games.Match.standings``) is compared and a difference logged as an error
    (the rows decide). Idempotent: the marker's compare-and-set and the unique constraints let
    one run write; any other run, concurrent or later, returns ``written=False``. One
    transaction: a failure leaves nothing behind (the marker stays pending for the sweeper).
    Round rows that do not add up to a result cannot be mended by a retry: the run writes
    nothing, marks the match failed (the sweeper stops queuing it) and returns ``failed=True``.
    """
    try:
        return _finalise(match_id)
    except ResultsIncomplete as exc:
        finalisation_failed(match_id=match_id, error=str(exc), give_up=True)
        return FinaliseOutcome(match_id=match_id, written=False, reason=str(exc), failed=True)


def _finalise(match_id: int) -> FinaliseOutcome:
    with transaction.atomic():
        match = _match_row(match_id)
        if match is None:
            return FinaliseOutcome(match_id=match_id, written=False, reason="no such match")
        if match["status"] != FINISHED:
            return FinaliseOutcome(
                match_id=match_id, written=False, reason=f"the match is {match['status']}"
            )
        if not _claim(match_id):
            return FinaliseOutcome(match_id=match_id, written=False, reason="already finalised")
        rows = order_from_rows(match_id=match_id)
        _check_complete(match_id=match_id, match=match, rows=rows)
        differences = order_differences(rows, match["standings"])
        MatchFinalisation.objects.filter(match_id=match_id).update(engine_agreed=not differences)
        if differences:
            logger.error(
                "Match %s: the engine's order differs from the round rows' (the rows decide): %s",
                match_id,
                "; ".join(differences),
            )
        unrated = ratings.HINTS if match["hints"] else ratings.unrated_reason(rows)
        MatchResult.objects.bulk_create(
            [
                MatchResult(
                    match_id=match_id,
                    player_id=row["player_id"],
                    seat=row["seat"],
                    seat_count=match["seat_count"],
                    place=row["place"],
                    total=row["total"],
                    zero_rounds=row["zero_rounds"],
                    lowest_round=row["lowest_round"],
                    rounds_played=row["rounds_played"],
                    decided_by=row["decided_by"],
                    variant=match["variant"],
                    finished_at=match["finished_at"],
                    unrated_reason=unrated,
                )
                for row in rows
            ]
        )
        if not unrated:
            ratings_update(match_id=match_id, variant=match["variant"], rows=rows)
        competition_match_finished(match_id=match_id)  # a tournament's table, a league's match
        games_port().results_written(match_id=match_id)
    return FinaliseOutcome(
        match_id=match_id, written=True, engine_agreed=not differences, results=rows
    )


def _check_complete(*, match_id: int, match: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    expected_rounds = (match["options"] or {}).get("rounds")
    problems = []
    if len(rows) != match["seat_count"]:
        problems.append(f"{len(rows)} seats have round rows, {match['seat_count']} sat")
    played = {row["rounds_played"] for row in rows}
    if len(played) > 1:
        problems.append(f"seats have different round counts: {sorted(played)}")
    elif expected_rounds is not None and played != {expected_rounds}:
        problems.append(f"{sorted(played)} rounds recorded, {expected_rounds} played")
    if problems:
        logger.error("Match %s cannot be finalised: %s", match_id, "; ".join(problems))
        raise ResultsIncomplete(f"match {match_id}: " + "; ".join(problems))


def ratings_update(*, match_id: int, variant: str, rows: list[dict[str, Any]]) -> None:
    """Rate the match's players in ``variant`` by their places, and keep each change (a
    player at several seats, a bot level, once at its best: ``ratings.rated_places``). The
    caller checks that the match is rated (``ratings.unrated_reason``): two players at least.

    The ratings rows are locked in player order (no two finalisations can deadlock); a player's
    first match creates their row (``ignore_conflicts``: a concurrent first match waits for it).
    """
    rows = ratings.rated_places(rows)
    player_ids = sorted(row["player_id"] for row in rows)
    fresh = ratings.ordinal(ratings.MU, ratings.SIGMA)
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=pid, variant=variant, mu=ratings.MU, sigma=ratings.SIGMA, ordinal=fresh
            )
            for pid in player_ids
        ],
        ignore_conflicts=True,
    )
    current = {
        rating.player_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(variant=variant, player_id__in=player_ids)
        .order_by("player_id")
    }
    before = [(current[row["player_id"]].mu, current[row["player_id"]].sigma) for row in rows]
    after = ratings.rate(before, [row["place"] for row in rows])
    now = timezone.now()
    changes = []
    for row, (mu0, sigma0), (mu1, sigma1) in zip(rows, before, after, strict=True):
        rating = current[row["player_id"]]
        rating.mu, rating.sigma = mu1, sigma1
        rating.ordinal = ratings.ordinal(mu1, sigma1)
        rating.matches += 1
        rating.updated_at = now
        changes.append(
            RatingChange(
                player_id=row["player_id"],
                match_id=match_id,
                variant=variant,
                mu_before=mu0,
                sigma_before=sigma0,
                mu_after=mu1,
                sigma_after=sigma1,
                ordinal_before=ratings.ordinal(mu0, sigma0),
                ordinal_after=rating.ordinal,
            )
        )
    Rating.objects.bulk_update(
        list(current.values()), ["mu", "sigma", "ordinal", "matches", "updated_at"]
    )
    RatingChange.objects.bulk_create(changes)
