"""A finished competition's standings keep each player's rating as it was when it finished: a
later match changes the players' ratings, not the standings (JSON or CSV). The migration that
added the kept rating fills it for competitions that finished before, from the rating changes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Match, Player
from scoring.competitions.services import league_finish
from scoring.models import Competition, Rating, Registration
from scoring.ratings import display_rating
from scoring.services import match_finalise
from tests.games.conftest import client_for
from tests.scoring.competitions.conftest import make_competition, ref
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db

Counted = Callable[..., Match]


def rated_match_elsewhere(seated: list[Player], scores: list[list[int]]) -> None:
    """A match that counts for no competition but rates its players."""
    match = make_finished_match(seated=seated, scores=scores)
    assert match_finalise(match_id=match.pk).written


def rating_of(player: Player) -> int:
    return display_rating(Rating.objects.get(player=player, variant="chickenfoot").ordinal)


def test_a_finished_tournaments_csv_never_changes(
    organiser: Player, players: list[Player], counted: Counted
) -> None:
    # given: a one-stage tournament whose only table finishes, and so the tournament
    ada, grace = players[:2]
    tournament = make_competition(organiser, table_size=2, stage_count=1)
    for player in (ada, grace):
        Registration.objects.create(
            competition=tournament, player=player, registered_at=tournament.created_at
        )
    Competition.objects.filter(pk=tournament.pk).update(status="running", current_stage=1)
    stage = tournament.stages.create(number=1, started_at=tournament.created_at)
    counted(tournament, [ada, grace], [[0, 9]], stage=stage)
    tournament.refresh_from_db()
    assert tournament.status == Competition.Status.FINISHED
    client = client_for(grace)
    url = f"/api/competitions/{tournament.pk}/standings"
    csv_before = client.get(f"{url}.csv").content
    json_before = client.get(url).json()["standings"]
    at_finish = rating_of(ada)

    # when: ada and grace play a rated match elsewhere, grace winning
    rated_match_elsewhere([ada, grace], [[12, 0], [9, 0]])

    # then: their ratings changed; the finished tournament's standings did not
    assert rating_of(ada) != at_finish
    assert client.get(f"{url}.csv").content == csv_before
    assert client.get(url).json()["standings"] == json_before
    assert {r["player_id"]: r["rating"] for r in json_before}[ada.pk] == at_finish


def test_a_running_league_shows_todays_rating_and_a_finished_one_its_last(
    league: Competition, organiser: Player, players: list[Player], counted: Counted
) -> None:
    ada, grace = players[:2]
    counted(league, [ada, grace], [[0, 9]])
    url = f"/api/competitions/{league.pk}/standings"
    client = client_for(grace)

    def shown(player: Player) -> int:
        rows = client.get(url).json()["standings"]
        return {r["player_id"]: r["rating"] for r in rows}[player.pk]

    # while it runs: the rating of today, however it came about
    rated_match_elsewhere([ada, grace], [[12, 0]])
    assert shown(ada) == rating_of(ada)

    # once finished: the rating it finished with, whatever comes after
    league_finish(competition_id=league.pk, player=ref(organiser))
    at_finish = rating_of(ada)
    rated_match_elsewhere([ada, grace], [[12, 0]])
    assert rating_of(ada) != at_finish
    assert shown(ada) == at_finish
    assert Registration.objects.get(competition=league, player=players[3]).rating_at_finish is None


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_earlier_finished_competitions_the_ratings_they_finished_with(
    league: Competition, organiser: Player, players: list[Player], counted: Counted
) -> None:
    # given: a league finished with ada and grace rated, who then played on
    ada, grace = players[:2]
    counted(league, [ada, grace], [[0, 9]])
    league_finish(competition_id=league.pk, player=ref(organiser))
    kept = dict(
        Registration.objects.filter(competition=league).values_list("player_id", "rating_at_finish")
    )
    rated_match_elsewhere([ada, grace], [[12, 0]])
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()

    # when: the database goes back to before ratings were kept at the finish, and forward again
    executor.migrate([("scoring", "0007_competition_totals")])
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(leaves)

    # then: each registration has the rating its player had when the league finished
    filled = dict(
        Registration.objects.filter(competition=league).values_list("player_id", "rating_at_finish")
    )
    assert filled == kept
    assert filled[ada.pk] is not None
    assert filled[ada.pk] != Rating.objects.get(player=ada, variant="chickenfoot").ordinal
    assert filled[players[3].pk] is None  # unrated when it finished
