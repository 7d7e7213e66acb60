"""The data migration fills the result rows of matches that finished before they were kept."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Match, Player
from scoring.models import MatchFinalisation, MatchResult, Rating, RatingChange, RoundResult
from tests.games.helpers import play_to_end

BEFORE = [("scoring", "0001_results")]

ROUND_FIELDS = ("match_id", "round_number", "seat", "player_id", "points", "went_out")
RESULT_FIELDS = (
    "match_id", "player_id", "seat", "seat_count", "place", "total", "zero_rounds",
    "lowest_round", "rounds_played", "decided_by", "variant", "finished_at",
)  # fmt: skip


def migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def latest() -> list[tuple[str, str]]:
    """Every app's last migration: the backfill and whatever came after it (the schema whole
    again for the tests that follow)."""
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def snapshot() -> tuple[list, list, list]:
    return (
        list(
            RoundResult.objects.order_by("match_id", "round_number", "seat").values(*ROUND_FIELDS)
        ),
        list(MatchResult.objects.order_by("match_id", "seat").values(*RESULT_FIELDS)),
        list(
            Rating.objects.order_by("variant", "player_id").values(
                "player_id", "variant", "mu", "sigma", "matches"
            )
        ),
    )


@pytest.mark.django_db(transaction=True)
def test_backfill_writes_the_rows_the_live_code_writes(
    players: list[Player],
    clients: list,
    started_match: Callable[..., Match],
    django_capture_on_commit_callbacks: Callable,
) -> None:
    # given: two finished matches and one still running, as the live code records them
    finished = []
    for variant, seed in (("chickenfoot", 1), ("mexican_train", 2)):
        match = started_match(variant=variant, n=3, options={"rounds": 2})
        with django_capture_on_commit_callbacks(execute=True):
            play_to_end(clients[:3], match.pk, seed=seed)
        finished.append(match.pk)
    started_match(variant="chickenfoot", n=3, options={"rounds": 2})
    assert MatchFinalisation.objects.count() == 2
    live = snapshot()

    # when: the rows are gone (the schema as it was before the backfill), then the migration runs
    migrate(BEFORE)
    assert not RoundResult.objects.exists()
    assert not MatchResult.objects.exists()
    migrate(latest())

    # then: the same rows, for the finished matches only
    backfilled = snapshot()
    assert backfilled[0] == live[0]
    assert backfilled[1] == live[1]
    assert len(backfilled[1]) == 6
    assert {r["match_id"] for r in backfilled[0]} == set(finished)
    for ours, theirs in zip(backfilled[2], live[2], strict=True):
        assert ours["player_id"] == theirs["player_id"]
        assert ours["matches"] == theirs["matches"]
        assert ours["mu"] == pytest.approx(theirs["mu"])
        assert ours["sigma"] == pytest.approx(theirs["sigma"])
    assert RatingChange.objects.count() == 6
    assert set(MatchFinalisation.objects.values_list("match_id", flat=True)) == set(finished)
