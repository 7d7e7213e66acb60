"""The running totals the standings read (``CompetitionTotal``) are the sums of the result rows:
kept by the end-of-match task, recomputed alike by ``totals.rebuild`` and by the migration that
fills them for competitions that had results before they were kept."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Match, Player
from scoring.competitions import totals
from scoring.competitions.standings import standings
from scoring.models import Competition, CompetitionResult, CompetitionTotal

Counted = Callable[..., Match]
FIELDS = (
    "registration_id", "matches", "wins", "placement_points", "total_points", "rounds",
    "zero_rounds", "best_round",
)  # fmt: skip


def kept() -> list[dict[str, Any]]:
    return list(CompetitionTotal.objects.order_by("registration_id").values(*FIELDS))


def summed() -> list[dict[str, Any]]:
    """The totals added up here, row by row, from the result rows."""
    by: dict[int, dict[str, Any]] = defaultdict(
        lambda: dict.fromkeys(FIELDS[1:-1], 0) | {"best_round": None}
    )
    for result in CompetitionResult.objects.all():
        row = by[result.registration_id]
        row["matches"] += 1
        row["wins"] += result.place == 1
        row["placement_points"] += result.placement_points
        row["total_points"] += result.total
        row["rounds"] += result.rounds_played
        row["zero_rounds"] += result.zero_rounds
        if result.lowest_round is not None:
            best = row["best_round"]
            row["best_round"] = (
                result.lowest_round if best is None else min(best, result.lowest_round)
            )
    return [{"registration_id": key, **by[key]} for key in sorted(by)]


def play_season(league: Competition, players: list[Player], counted: Counted) -> None:
    ada, grace, alan, edsger = players
    counted(league, [ada, grace, alan], [[5, 0, 9], [0, 12, 3]])
    counted(league, [grace, alan], [[0, 0]])  # a shared first: a win each, no best round
    counted(league, [alan, edsger, ada], [[7, 7, 0]])
    counted(league, [edsger, grace], [[2, 30], [0, 4]])


@pytest.mark.django_db
def test_each_finished_match_adds_to_the_totals_the_standings_read(
    league: Competition, players: list[Player], counted: Counted
) -> None:
    play_season(league, players, counted)

    assert kept() == summed()
    assert len(kept()) == 4
    rows = {row["name"]: row for row in standings(competition=league)}
    assert rows["Grace"]["matches"] == 3
    assert rows["Grace"]["wins"] == 1  # the shared first place
    assert rows["Ada"]["wins"] == 2  # 5 points to 12 and 12, then 7 to 7 and 0
    assert rows["Grace"]["best_round"] == 4  # the lowest non-zero round of any of her matches
    assert rows["Alan"]["best_round"] == 3


@pytest.mark.django_db
def test_rebuild_recomputes_the_same_totals(
    league: Competition, players: list[Player], counted: Counted
) -> None:
    play_season(league, players, counted)
    before = kept()
    CompetitionTotal.objects.filter(registration__player=players[0]).update(matches=99)

    assert totals.rebuild(competition_ids=[league.pk]) == 4
    assert kept() == before


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_totals_of_earlier_results(
    league: Competition, players: list[Player], counted: Counted
) -> None:
    play_season(league, players, counted)
    before = kept()
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()

    executor.migrate([("scoring", "0006_finalisation_attempts")])  # no totals kept yet
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(leaves)

    assert kept() == before == summed()
