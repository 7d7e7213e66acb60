"""Fixtures for the competition tests: an organiser, competitions, matches that count."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from scoring.competitions.services import CompetitionSpec, competition_create
from scoring.models import Competition, CompetitionMatch, Registration, Stage
from scoring.ports import PlayerRef
from scoring.services import match_finalise
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.conftest import make_finished_match


def ref(player: Player) -> PlayerRef:
    return PlayerRef(id=player.pk, display_name=player.display_name, organises=player.organises)


@pytest.fixture
def organiser(db: None) -> Player:
    return PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)


@pytest.fixture
def organiser_client(organiser: Player) -> APIClient:
    return client_for(organiser)


def make_competition(organiser: Player, **fields: Any) -> Competition:
    spec = {
        "kind": "tournament",
        "name": "Spring open",
        "variant": "chickenfoot",
        "table_size": 3,
        "options": {},
        "stage_count": 3,
        **fields,
    }
    if spec["kind"] == "league":
        spec.setdefault("min_matches", 0)
        spec["stage_count"] = fields.get("stage_count")
    return competition_create(organiser=ref(organiser), spec=CompetitionSpec(**spec))


@pytest.fixture
def league(organiser: Player, players: list[Player]) -> Competition:
    """A running league of the four ``players`` at tables of up to 3 (no minimum to rank)."""
    competition = make_competition(organiser, kind="league", name="Thursday league")
    for player in players:
        Registration.objects.create(
            competition=competition, player=player, registered_at=competition.created_at
        )
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    competition.refresh_from_db()
    return competition


def count_match(
    competition: Competition,
    seated: list[Player],
    scores: list[list[int]],
    stage: Stage | None = None,
) -> Match:
    """A finished match of ``seated`` scoring ``scores``, counted for ``competition``: its
    results written by the end-of-match service, which records the competition's."""
    match = make_finished_match(seated=seated, scores=scores)
    CompetitionMatch.objects.create(competition=competition, match=match, stage=stage)
    assert match_finalise(match_id=match.pk).written
    return match


@pytest.fixture
def counted() -> Callable[..., Match]:
    return count_match
