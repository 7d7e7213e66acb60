"""A player's place in a leaderboard: ``?player=<id>`` answers the page that holds them."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Player
from games.services import bot_player
from scoring.services import match_finalise
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder() -> list[Player]:
    """Seven people, each beating the next once (p0 best), and a bot that beats everyone."""
    people = [PlayerFactory(user__username=f"p{n}", display_name=f"P{n}") for n in range(7)]
    bot = bot_player(level=2)
    start = timezone.now() - timedelta(days=1)
    for n in range(6, 0, -1):
        match = make_finished_match(
            seated=[people[n - 1], people[n]], scores=[[0, 5]], finished_at=start
        )
        match_finalise(match_id=match.pk)
        start += timedelta(minutes=1)
    for person in people:
        match = make_finished_match(seated=[bot, person], scores=[[0, 5]], finished_at=start)
        match_finalise(match_id=match.pk)
        start += timedelta(minutes=1)
    return people


def board(client: APIClient, query: str) -> dict:
    response = client.get(f"/api/leaderboards/chickenfoot?{query}")
    assert response.status_code == HTTPStatus.OK, response.content
    return response.json()


def test_player_answers_the_page_that_holds_them(ladder: list[Player]) -> None:
    client = client_for(ladder[0])
    everyone = board(client, "page_size=100")["results"]
    position = next(i for i, row in enumerate(everyone) if row["player_id"] == ladder[5].pk)

    # when
    page = board(client, f"page_size=3&player={ladder[5].pk}")

    # then: the page numbered as ?page= would number it, with the player's row and rank
    assert page == board(client, f"page_size=3&page={position // 3 + 1}") | {
        "next": page["next"],
        "previous": page["previous"],
    }
    row = next(r for r in page["results"] if r["player_id"] == ladder[5].pk)
    assert row["rank"] == everyone[position]["rank"]
    for link in (page["next"], page["previous"]):
        assert link is None or "player=" not in link
    assert page["count"] == 7


def test_a_bot_is_found_only_with_bots(ladder: list[Player]) -> None:
    client = client_for(ladder[0])
    bot = bot_player(level=2)

    page = board(client, f"bots=true&player={bot.pk}")
    missing = client.get(f"/api/leaderboards/chickenfoot?player={bot.pk}")

    assert page["results"][0]["player_id"] == bot.pk
    assert page["results"][0]["rank"] == 1
    assert missing.status_code == HTTPStatus.NOT_FOUND
    assert missing.json()["code"] == "not_on_leaderboard"


def test_player_off_the_board_or_with_page_is_refused(ladder: list[Player]) -> None:
    client = client_for(ladder[0])
    unrated = PlayerFactory(user__username="new", display_name="New")

    off = client.get(f"/api/leaderboards/chickenfoot?player={unrated.pk}")
    few = client.get(f"/api/leaderboards/chickenfoot?player={ladder[0].pk}&min_matches=9")
    both = client.get(f"/api/leaderboards/chickenfoot?player={ladder[0].pk}&page=1")
    other_variant = client.get(f"/api/leaderboards/mexican_train?player={ladder[0].pk}")

    assert off.status_code == few.status_code == HTTPStatus.NOT_FOUND
    assert other_variant.status_code == HTTPStatus.NOT_FOUND
    assert off.json()["detail"] == f"Player {unrated.pk} is not on this leaderboard."
    assert both.status_code == HTTPStatus.BAD_REQUEST
    assert both.json()["errors"] == {"player": ["Give player or page, not both."]}
