"""Writes: each registered player's running totals in a competition (``CompetitionTotal``).

A competition's standings would otherwise aggregate every result row it has ever had (a
season of 70,000 matches holds 280,000 of them); the totals are those sums kept per player, so
the standings read one row per registered player. ``add`` is called by
``competition_match_finished`` in the transaction that writes a match's ``CompetitionResult``
rows, under the competition's lock, so two matches finishing at once add in turn. ``rebuild``
computes them afresh from the result rows (``seed_league``'s bulk loads); the migration that
introduced them keeps its own copy of that aggregate, as a migration must not change with the
code.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Case, Count, F, Min, PositiveIntegerField, Q, Sum, Value, When

from scoring.competition_models import Bye, CompetitionResult, CompetitionTotal


def add(results: Iterable[CompetitionResult]) -> None:
    """Add each result row to its registration's totals (zero until the first); the caller
    leaves a final table's out (it decides places of its own, docs/scoring.md)."""
    for result in results:
        best = result.lowest_round
        changes: dict[str, Any] = {
            "matches": F("matches") + 1,
            "wins": F("wins") + (1 if result.place == 1 else 0),
            "placement_points": F("placement_points") + result.placement_points,
            "total_points": F("total_points") + result.total,
            "rounds": F("rounds") + result.rounds_played,
            "zero_rounds": F("zero_rounds") + result.zero_rounds,
        }
        if best is not None:
            changes["best_round"] = Case(
                When(Q(best_round__isnull=True) | Q(best_round__gt=best), then=Value(best)),
                default=F("best_round"),
                output_field=PositiveIntegerField(),
            )
        CompetitionTotal.objects.get_or_create(registration_id=result.registration_id)
        CompetitionTotal.objects.filter(registration_id=result.registration_id).update(**changes)


def add_bye(bye: Bye) -> None:
    """Add a bye to its registration's totals: its placement points, and one more bye."""
    CompetitionTotal.objects.get_or_create(registration_id=bye.registration_id)
    CompetitionTotal.objects.filter(registration_id=bye.registration_id).update(
        byes=F("byes") + 1, placement_points=F("placement_points") + bye.placement_points
    )


def rebuild(*, competition_ids: Iterable[int] | None = None) -> int:
    """Recompute the totals of the given competitions (all when ``None``) from their result
    rows and byes, replacing what was there; returns how many registrations have totals."""
    results = CompetitionResult.objects.exclude(stage__final=True)  # the final counts apart
    byes = Bye.objects.all()
    totals = CompetitionTotal.objects.all()
    if competition_ids is not None:
        ids = list(competition_ids)
        results = results.filter(competition_id__in=ids)
        byes = byes.filter(competition_id__in=ids)
        totals = totals.filter(registration__competition_id__in=ids)
    totals.delete()
    sat_out = {
        row["registration_id"]: (row["n"], row["points"])
        for row in byes.values("registration_id")
        .annotate(n=Count("id"), points=Sum("placement_points"))
        .order_by()
    }
    rows = (
        results.values("registration_id")
        .annotate(
            n=Count("id"),
            first=Count("id", filter=Q(place=1)),
            points=Sum("placement_points"),
            total=Sum("total"),
            played=Sum("rounds_played"),
            zeros=Sum("zero_rounds"),
            best=Min("lowest_round"),
        )
        .order_by("registration_id")
    )

    def made_from_results() -> Iterable[CompetitionTotal]:
        for row in rows.iterator(chunk_size=2000):
            bye_count, bye_points = sat_out.pop(row["registration_id"], (0, 0))
            yield CompetitionTotal(
                registration_id=row["registration_id"],
                matches=row["n"],
                wins=row["first"],
                placement_points=row["points"] + bye_points,
                byes=bye_count,
                total_points=row["total"],
                rounds=row["played"],
                zero_rounds=row["zeros"],
                best_round=row["best"],
            )

    made = len(CompetitionTotal.objects.bulk_create(made_from_results(), batch_size=1000))
    made += len(
        CompetitionTotal.objects.bulk_create(
            CompetitionTotal(registration_id=pk, byes=count, placement_points=points)
            for pk, (count, points) in sat_out.items()
        )
    )
    return made
