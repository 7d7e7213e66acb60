"""Byes: the players who sit a tournament's stage out, and what a bye is worth.

``seating.byes_needed`` says how many (an odd number at tables of 2 without bots: one);
``bye_players_for`` picks them (stage 1: drawn from the seed; later: the lowest-ranked of those
with the fewest byes so far, ``seating.bye_players``); ``byes_record`` writes their ``Bye`` rows,
each worth the placement points of a win at a full table (``bye_points``), into their totals.
``stage_start`` calls both under the competition's lock.
"""

from __future__ import annotations

import random

from django.db.models import Count

from scoring.competitions import points, seating, totals
from scoring.models import Bye, Competition, Registration, Stage


def bye_players_for(
    *, competition: Competition, ranked: list[int], rng: random.Random, first: bool
) -> list[int]:
    """Who sits this stage out (``seating.byes_needed``): at stage 1 drawn from the seed, later
    the lowest-ranked of the players with the fewest byes so far."""
    count = seating.byes_needed(
        players=len(ranked),
        table_size=competition.table_size,
        fill_with_bots=competition.allow_bots,
    )
    if not count:
        return []
    if first:
        return rng.sample(sorted(ranked), count)
    had = dict(
        Bye.objects.filter(competition=competition)
        .values("player_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("player_id", "n")
    )
    return seating.bye_players(ranked=ranked, count=count, byes_had=had)


def bye_points(competition: Competition) -> int:
    """What a bye is worth, in thousandths: the points of a win at a full table."""
    size = competition.table_size
    scheme = competition.points_scheme.get(str(size)) or points.default_places(size)
    return scheme[0] * points.POINTS_SCALE


def byes_record(*, competition: Competition, stage: Stage, player_ids: list[int]) -> None:
    """A ``Bye`` row for each of ``player_ids`` at ``stage``, added to their totals (the caller
    holds the competition's lock, in the transaction that starts the stage)."""
    registrations = dict(
        Registration.objects.filter(
            competition=competition, withdrawn_at__isnull=True, player_id__in=player_ids
        ).values_list("player_id", "pk")
    )
    for player_id in player_ids:
        bye = Bye.objects.create(
            competition=competition,
            stage=stage,
            registration_id=registrations[player_id],
            player_id=player_id,
            placement_points=bye_points(competition),
        )
        totals.add_bye(bye)
