"""Fixtures for the scoring tests: players, and finished matches with chosen round scores."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.engine.scoring import final_order
from games.models import Match, Player, Seat
from scoring.services import round_results_record
from tests.games.conftest import (  # noqa: F401  (fixtures)
    _fast_password_hashing,
    clients,
    players,
    started_match,
)
from tests.games.factories import MatchFactory

FinishedMatch = Callable[..., Match]


def make_finished_match(
    *,
    seated: list[Player],
    scores: list[list[int]],
    variant: str = "chickenfoot",
    finished_at: datetime | None = None,
    standings: list[dict] | None = None,
) -> Match:
    """A finished match of ``seated`` (seat i = seated[i]) whose rounds scored ``scores``.

    The round rows are written as the moves would have; ``standings`` (the engine's order)
    defaults to the engine's own C-WIN order of ``scores``.
    """
    match = MatchFactory(variant=variant, seat_count=len(seated), created_by=seated[0])
    Match.objects.filter(pk=match.pk).update(
        options={**match.options, "rounds": len(scores)},
        status=Match.Status.FINISHED,
        standings=final_order(scores) if standings is None else standings,
        started_at=timezone.now(),
        finished_at=finished_at or timezone.now(),
    )
    for position, player in enumerate(seated):
        Seat.objects.filter(match=match, position=position).update(player=player)
    for number, row in enumerate(scores, start=1):
        round_results_record(
            match_id=match.pk,
            round_number=number,
            players=[p.pk for p in seated],
            scores=row,
            went_out_seat=row.index(0) if 0 in row else None,
        )
    match.refresh_from_db()
    return match


@pytest.fixture
def finished_match() -> FinishedMatch:
    return make_finished_match


@pytest.fixture
def clock() -> Callable[[int], datetime]:
    """``clock(n)``: a fixed instant plus ``n`` minutes (history order tests)."""
    start = timezone.now() - timedelta(days=30)
    return lambda minutes: start + timedelta(minutes=minutes)
