"""A corrected finished match's figures, computed again: results, standings, later ratings.

A correction of a finished match (``games.tables.corrections``) marks it pending
(``match_corrected``, in the correction's transaction) and queues ``match_recompute_task``
after commit; the sweeper (``games.sweeps.match_recomputes``) queues it again while the marker
stays pending. ``match_recompute`` writes everything in one transaction, so a reader sees the
old figures or the new ones, never a mix. When a public competition's figures were written
again, its wall is told after commit (``standings_changed``, through the games port).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.apps import apps
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from scoring import ratings
from scoring.competition_models import CompetitionMatch, CompetitionResult
from scoring.competitions import pairing_stale, totals
from scoring.competitions.services import competition_results_write
from scoring.models import MatchRecompute, MatchResult, Rating, RatingChange
from scoring.order import order_from_rows
from scoring.ports import games_port

#: The figures of a result row that a recompute writes again.
RESULT_FIELDS = ["place", "total", "zero_rounds", "lowest_round", "rounds_played", "decided_by"]


@dataclass(frozen=True)
class RecomputeOutcome:
    """What ``match_recompute`` did: ``written`` when this run wrote the new figures."""

    match_id: int
    written: bool
    reason: str = ""
    rated_matches: int = 0


def match_corrected(*, match_id: int) -> None:
    """Mark finished match ``match_id`` as waiting for a recompute (pending again if it was
    recomputed before). Call it in the transaction that corrects the match."""
    now = timezone.now()
    marker = MatchRecompute.objects.filter(match_id=match_id)
    if not marker.update(done_at=None, queued_at=now, attempts=1):
        MatchRecompute.objects.create(match_id=match_id, queued_at=now)


def recompute_pending(*, match_id: int) -> bool:
    """Whether a correction of ``match_id`` still waits for its figures to be recomputed."""
    return MatchRecompute.objects.filter(match_id=match_id, done_at__isnull=True).exists()


def match_recompute(*, match_id: int) -> RecomputeOutcome:
    """Compute corrected match ``match_id``'s figures again from its round rows, once per
    correction, in one transaction: its result rows (C-WIN places), its competition's results
    and totals, and the rating of every rated match of its variant from it on that the
    correction can reach, replayed in the order they finished (``ratings_replay``).

    Holds the match row's lock (as the correction does), then the ratings', then the
    competition's. Idempotent: the marker's compare-and-set lets one run write; a repeat finds
    nothing pending. A match whose results are not written yet (its end-of-match task has not
    committed) is left pending, unclaimed: that task may have read the rows before the
    correction, so the sweeper queues the recompute again until the results are there.
    """
    match_model = apps.get_model("games", "Match")  # scoring never imports games
    with transaction.atomic():
        match = (
            match_model.objects.select_for_update()
            .filter(pk=match_id)
            .values("status", "variant")
            .first()
        )
        if match is None:
            return RecomputeOutcome(match_id=match_id, written=False, reason="no such match")
        current = {row.seat: row for row in MatchResult.objects.filter(match_id=match_id)}
        if not current:  # left pending: the sweeper comes back once the results are written
            return RecomputeOutcome(match_id=match_id, written=False, reason="not finalised yet")
        claimed = MatchRecompute.objects.filter(match_id=match_id, done_at__isnull=True).update(
            done_at=timezone.now()
        )
        if not claimed:
            return RecomputeOutcome(match_id=match_id, written=False, reason="nothing pending")
        for row in order_from_rows(match_id=match_id):
            result = current[row["seat"]]
            for name in RESULT_FIELDS:
                setattr(result, name, row[name])
        MatchResult.objects.bulk_update(list(current.values()), RESULT_FIELDS)
        first = next(iter(current.values()))
        rated = ratings_replay(
            variant=first.variant, match_id=match_id, finished_at=first.finished_at
        )
        competition_match_recount(match_id=match_id)
        games_port().results_written(match_id=match_id)
    return RecomputeOutcome(match_id=match_id, written=True, rated_matches=rated)


def competition_match_recount(*, match_id: int) -> bool:
    """Write again the competition results of ``match_id`` from its (corrected) result rows
    and rebuild its competition's totals; ``False`` if it counts for none or was not
    recorded. The stages and the competition's status stay as they are."""
    link = CompetitionMatch.objects.filter(match_id=match_id).select_related("competition").first()
    if link is None:
        return False
    competition_model = type(link.competition)
    competition = competition_model.objects.select_for_update().get(pk=link.competition_id)
    recorded = CompetitionResult.objects.filter(match_id=match_id)
    if not recorded.exists():
        return False
    watched = pairing_stale.watch(competition=competition, link=link)
    recorded.delete()
    competition_results_write(competition=competition, link=link)
    totals.rebuild(competition_ids=[competition.pk])
    if watched is not None:  # the stage seated last was paired from the standings before
        pairing_stale.mark(competition=competition, watched=watched, link=link)
    if competition.public:
        games_port().wall_changed(match_id=match_id)  # after commit, to the public wall
    return True


def ratings_replay(*, variant: str, match_id: int, finished_at: datetime) -> int:
    """Rate again the rated matches of ``variant`` from ``match_id`` on that its correction
    can reach, in the order they finished (``finished_at``, then id); replace those matches'
    ``RatingChange`` rows and set their players' ``Rating``. Returns how many matches were
    rated. The caller holds a transaction.

    A later match is reached when one of its players is a player of ``match_id`` or of a match
    reached before it: only their ratings can have changed. A match none of whose players has
    been reached rates exactly as it did (the same players, places and ratings before), so it
    keeps its rows. Each player starts from their rating before their first reached match: the
    rating after their last rated match before it, which the replay leaves as it was.
    """
    later = MatchResult.objects.filter(variant=variant).filter(
        Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, match_id__gte=match_id)
    )
    matches: dict[int, list[dict[str, Any]]] = {}
    for row in later.order_by("finished_at", "match_id", "seat").values(
        "match_id", "player_id", "place", "finished_at", "unrated_reason"
    ):
        matches.setdefault(row["match_id"], []).append(row)
    reached: dict[int, list[dict[str, Any]]] = {}
    first: dict[int, tuple[datetime, int]] = {}  # player -> their first reached match
    for rated_id, rows in matches.items():
        if rows[0]["unrated_reason"]:  # not rated (``ratings.unrated_reason``)
            continue
        if rated_id == match_id or any(row["player_id"] in first for row in rows):
            reached[rated_id] = rows
            for row in rows:
                first.setdefault(row["player_id"], (row["finished_at"], rated_id))
    player_ids = sorted(first)
    stored = {
        rating.player_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(variant=variant, player_id__in=player_ids)
        .order_by("player_id")
    }
    state = _ratings_before(variant=variant, first=first)
    RatingChange.objects.filter(variant=variant, match_id__in=list(reached)).delete()
    changes = []
    for rated_id, rows in reached.items():
        rows = ratings.rated_places(rows)
        before = [state[row["player_id"]] for row in rows]
        after = ratings.rate(before, [row["place"] for row in rows])
        for row, (mu0, sigma0), (mu1, sigma1) in zip(rows, before, after, strict=True):
            state[row["player_id"]] = (mu1, sigma1)
            changes.append(
                RatingChange(
                    player_id=row["player_id"],
                    match_id=rated_id,
                    variant=variant,
                    mu_before=mu0,
                    sigma_before=sigma0,
                    mu_after=mu1,
                    sigma_after=sigma1,
                    ordinal_before=ratings.ordinal(mu0, sigma0),
                    ordinal_after=ratings.ordinal(mu1, sigma1),
                )
            )
    RatingChange.objects.bulk_create(changes)
    _ratings_set(variant=variant, stored=stored, state=state)
    return len(reached)


def _ratings_before(
    *, variant: str, first: dict[int, tuple[datetime, int]]
) -> dict[int, tuple[float, float]]:
    """Each player's (mu, sigma) after their last rated match before ``first[player]`` (the
    finish and id of their first reached match; a match not rated changed nothing)."""
    state = {}
    for player_id, (finished_at, match_id) in first.items():
        last = (
            MatchResult.objects.filter(variant=variant, player_id=player_id, unrated_reason="")
            .filter(
                Q(finished_at__lt=finished_at) | Q(finished_at=finished_at, match_id__lt=match_id)
            )
            .order_by("-finished_at", "-match_id")
            .values_list("match_id", flat=True)
            .first()
        )
        change = (
            RatingChange.objects.filter(match_id=last, player_id=player_id).first()
            if last is not None
            else None
        )
        state[player_id] = (
            (change.mu_after, change.sigma_after)
            if change is not None
            else (ratings.MU, ratings.SIGMA)
        )
    return state


def _ratings_set(
    *, variant: str, stored: dict[int, Rating], state: dict[int, tuple[float, float]]
) -> None:
    now = timezone.now()
    counts = dict(
        RatingChange.objects.filter(variant=variant, player_id__in=list(stored))
        .values("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
        .order_by()
    )
    for player_id, rating in stored.items():
        rating.mu, rating.sigma = state[player_id]
        rating.ordinal = ratings.ordinal(rating.mu, rating.sigma)
        rating.matches = counts.get(player_id, 0)
        rating.updated_at = now
    Rating.objects.bulk_update(
        list(stored.values()), ["mu", "sigma", "ordinal", "matches", "updated_at"]
    )
