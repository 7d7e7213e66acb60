"""Standings by the database: each tie-break in order, shared ranks, the league minimum."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.models import Match, Player
from scoring.competitions.standings import met_counts, points_by_stage, standings
from scoring.models import Competition, CompetitionResult
from tests.games.conftest import client_for
from tests.scoring.competitions.conftest import make_competition

pytestmark = pytest.mark.django_db

Counted = Callable[..., Match]


def order(competition: Competition) -> list[tuple[int | None, str, bool]]:
    return [(r["rank"], r["name"], r["shared"]) for r in standings(competition=competition)]


def test_placement_points_rank_first(
    league: Competition, players: list[Player], counted: Counted
) -> None:
    ada, grace, alan, _ = players
    counted(league, [ada, grace, alan], [[5, 0, 9]])  # grace 1st (4), ada 2nd (2), alan 3rd (1)

    rows = standings(competition=league)

    assert [(r["rank"], r["name"], float(r["placement_points"])) for r in rows] == [
        (1, "Grace", 4.0),
        (2, "Ada", 2.0),
        (3, "Alan", 1.0),
        (4, "Edsger", 0.0),  # registered, no match yet: listed last
    ]
    grace = rows[0]
    assert grace["matches"] == 1
    assert grace["wins"] == 1
    assert grace["total_points"] == 0
    assert grace["rounds"] == 1
    assert grace["rounds_at_zero"] == 1
    assert grace["rating"] is not None  # rated by the end-of-match task
    assert rows[1]["best_round"] == 5
    assert rows[3]["mean_points_per_round"] is None


def test_wins_break_equal_placement_points_then_lower_mean_points(
    organiser: Player, players: list[Player], counted: Counted
) -> None:
    # given: places are worth 4 / 2 / 0 at a table of three
    league = make_competition(
        organiser,
        kind="league",
        points_scheme={"2": [2, 0], "3": [4, 2, 0]},
    )
    ada, grace, alan, _ = players
    for player in (ada, grace, alan):
        league.registrations.create(player=player, registered_at=league.created_at)
    Competition.objects.filter(pk=league.pk).update(status="running")
    # ada 1st then 3rd (4 points, a win, 20 pips in 2 rounds); alan 3rd then 1st (4, a win,
    # 10 pips); grace 2nd twice (4 points, no win, 10 pips: the lowest mean, but fewer wins)
    counted(league, [ada, grace, alan], [[0, 5, 10]])
    counted(league, [ada, grace, alan], [[20, 5, 0]])

    rows = standings(competition=league)

    assert [(r["name"], float(r["placement_points"]), r["wins"]) for r in rows] == [
        ("Alan", 4.0, 1),
        ("Ada", 4.0, 1),
        ("Grace", 4.0, 0),
    ]
    assert [r["mean_points_per_round"] for r in rows] == [5.0, 10.0, 5.0]
    assert [r["rank"] for r in rows] == [1, 2, 3]


def test_head_to_head_breaks_a_tie_on_every_other_key(
    organiser: Player, players: list[Player], counted: Counted
) -> None:
    # given: a league of two-player tables (3 / 1 points)
    league = make_competition(organiser, kind="league", table_size=2)
    ada, grace, alan, edsger = players
    for player in players:
        league.registrations.create(player=player, registered_at=league.created_at)
    Competition.objects.filter(pk=league.pk).update(status="running")
    counted(league, [ada, grace], [[0, 6]])  # ada beats grace
    counted(league, [grace, alan], [[0, 6]])  # grace beats alan
    counted(league, [ada, edsger], [[6, 0]])  # edsger beats ada

    rows = standings(competition=league)

    # ada and grace: 4 points, 1 win, 3 pips a round each; ada placed above grace
    assert [(r["rank"], r["name"], r["head_to_head"]) for r in rows] == [
        (1, "Ada", 1),
        (2, "Grace", -1),
        (3, "Edsger", 0),
        (4, "Alan", 0),
    ]


def test_players_equal_on_every_key_share_the_rank(
    organiser: Player, players: list[Player], counted: Counted
) -> None:
    league = make_competition(organiser, kind="league", table_size=2)
    ada, grace, alan, edsger = players
    for player in players:
        league.registrations.create(player=player, registered_at=league.created_at)
    Competition.objects.filter(pk=league.pk).update(status="running")
    counted(league, [ada, alan], [[0, 6]])
    counted(league, [grace, edsger], [[0, 6]])

    assert order(league) == [
        (1, "Ada", True),
        (1, "Grace", True),
        (3, "Alan", True),
        (3, "Edsger", True),
    ]


def test_a_shared_first_place_counts_as_a_win_for_each_and_shares_the_points(
    league: Competition, players: list[Player], counted: Counted
) -> None:
    ada, grace, alan, _ = players
    # ada and grace tie on every C-WIN key: they share first place at the table
    counted(league, [ada, grace, alan], [[0, 0, 7], [3, 3, 0]])

    rows = {r["name"]: r for r in standings(competition=league)}

    assert rows["Ada"]["wins"] == rows["Grace"]["wins"] == 1
    assert float(rows["Ada"]["placement_points"]) == (4 + 2) / 2
    assert rows["Ada"]["rank"] == rows["Grace"]["rank"] == 1
    assert rows["Ada"]["shared"]
    assert rows["Grace"]["shared"]
    assert rows["Alan"]["rank"] == 3


def test_a_league_ranks_only_players_with_its_minimum_of_matches(
    organiser: Player, players: list[Player], counted: Counted
) -> None:
    league = make_competition(organiser, kind="league", min_matches=2)
    ada, grace, alan, _ = players
    for player in (ada, grace, alan):
        league.registrations.create(player=player, registered_at=league.created_at)
    Competition.objects.filter(pk=league.pk).update(status="running")
    counted(league, [ada, grace], [[0, 9]])
    counted(league, [ada, grace], [[9, 0]])
    counted(league, [alan, ada], [[0, 9]])  # alan's only match: a win

    rows = standings(competition=league)

    assert [(r["rank"], r["name"], r["ranked"]) for r in rows] == [
        (1, "Ada", True),  # 1 + 3 + 1 = 5 points in 3 matches
        (2, "Grace", True),
        (None, "Alan", False),  # one match: below the minimum, listed after, unranked
    ]


def test_only_registered_players_get_standings_and_a_match_counts_once(
    league: Competition, players: list[Player], counted: Counted
) -> None:
    from tests.games.factories import PlayerFactory

    ada = players[0]
    guest = PlayerFactory(display_name="Guest")
    match = counted(league, [guest, ada], [[0, 5]])

    from scoring.competitions.services import competition_match_finished

    assert competition_match_finished(match_id=match.pk) is False  # already recorded
    assert CompetitionResult.objects.filter(competition=league).count() == 1
    assert next(r["name"] for r in standings(competition=league)) == "Ada"
    assert all(r["name"] != "Guest" for r in standings(competition=league))


def test_pairs_who_met_and_points_by_stage(
    organiser: Player, players: list[Player], counted: Counted
) -> None:
    tournament = make_competition(organiser)
    ada, grace, alan, edsger = players
    for player in players:
        tournament.registrations.create(player=player, registered_at=tournament.created_at)
    Competition.objects.filter(pk=tournament.pk).update(status="running", current_stage=2)
    one = tournament.stages.create(number=1, started_at=tournament.created_at)
    two = tournament.stages.create(number=2, started_at=tournament.created_at)
    counted(tournament, [ada, grace, alan], [[0, 1, 2]], stage=one)
    counted(tournament, [ada, edsger], [[3, 0]], stage=two)

    met = met_counts(competition=tournament)
    by_stage = points_by_stage(competition=tournament)

    assert met == {
        frozenset((ada.pk, grace.pk)): 1,
        frozenset((ada.pk, alan.pk)): 1,
        frozenset((grace.pk, alan.pk)): 1,
        frozenset((ada.pk, edsger.pk)): 1,
    }
    assert by_stage[ada.pk] == [
        {"stage": 1, "matches": 1, "placement_points": 4.0, "bye": False},
        {"stage": 2, "matches": 1, "placement_points": 1.0, "bye": False},
    ]


def test_best_round_is_the_same_figure_in_the_standings_and_a_players_statistics(
    league: Competition, players: list[Player], counted: Counted
) -> None:
    # given: ada's rounds are 0, 3 and 7: one at zero, the lowest non-zero 3
    ada, grace, alan, _ = players
    counted(league, [ada, grace, alan], [[0, 5, 9], [3, 0, 9]])
    counted(league, [ada, grace], [[7, 0]])
    client = client_for(grace)

    # when
    stats = client.get(f"/api/players/{ada.pk}/stats").json()
    table = client.get(f"/api/competitions/{league.pk}/standings").json()["standings"]

    # then: both read best_round as the lowest non-zero round, the zero counted apart
    row = next(r for r in table if r["player_id"] == ada.pk)
    assert (stats["best_round"], stats["rounds_at_zero"]) == (3, 1)
    assert (row["best_round"], row["rounds_at_zero"]) == (3, 1)
