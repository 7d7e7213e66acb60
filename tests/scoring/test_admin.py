"""The admin lists the end-of-match markers the sweeper gave up on, with why; competitions,
results and ratings, read-only; and runs the end-of-match task again through its service."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Player
from scoring.competitions.services import CompetitionSpec, competition_create, league_finish
from scoring.models import (
    Competition,
    CompetitionMatch,
    CompetitionResult,
    MatchFinalisation,
    MatchResult,
    Rating,
    Registration,
    RoundResult,
)
from scoring.ports import PlayerRef
from scoring.ratings import display_rating
from scoring.services import match_finalise, match_finished
from tests.games.factories import PlayerFactory
from tests.scoring.conftest import FinishedMatch

pytestmark = pytest.mark.django_db


def test_failed_finalisations_are_listed_with_their_error(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    # given: one match finalised, one whose round rows are incomplete
    good = finished_match(seated=players[:2], scores=[[0, 4]])
    bad = finished_match(seated=players[:2], scores=[[0, 4], [3, 0]])
    RoundResult.objects.filter(match=bad, round_number=2).delete()
    assert match_finalise(match_id=good.pk).written
    assert match_finalise(match_id=bad.pk).failed
    admin = User.objects.create_superuser("admin", "admin@example.com", "a long admin passphrase")
    browser = Client()
    browser.force_login(admin)

    # when: an administrator lists the failed ones
    page = browser.get("/admin/scoring/matchfinalisation/?state=failed")

    # then: the bad match is there with its error; the good one is not
    assert page.status_code == HTTPStatus.OK
    assert f"Match {bad.pk}: failed" in page.text
    assert "[1] rounds recorded, 2 played" in page.text
    assert f"Match {good.pk}:" not in page.text
    assert MatchFinalisation.objects.filter(failed_at__isnull=False).count() == 1


@pytest.fixture
def admin_browser(db: None) -> Client:
    admin = User.objects.create_superuser("admin", "admin@example.com", "a long admin passphrase")
    browser = Client()
    browser.force_login(admin)
    return browser


@pytest.fixture
def finished_league(players: list[Player], finished_match: FinishedMatch) -> Competition:
    """A finished league whose one match, ada against grace, counted (and rated them)."""
    organiser = PlayerFactory(display_name="<i>Olga</i>", is_organiser=True)
    league = competition_create(
        organiser=PlayerRef(id=organiser.pk, display_name="Olga", organises=True),
        spec=CompetitionSpec(
            kind="league",
            name="Thursday <league>",
            variant="chickenfoot",
            table_size=2,
            options={},
            min_matches=0,
        ),
    )
    for player in players[:2]:
        Registration.objects.create(
            competition=league, player=player, registered_at=league.created_at
        )
    Competition.objects.filter(pk=league.pk).update(status=Competition.Status.RUNNING)
    match = finished_match(seated=players[:2], scores=[[0, 7]])
    CompetitionMatch.objects.create(competition=league, match=match)
    assert match_finalise(match_id=match.pk).written
    league_finish(
        competition_id=league.pk,
        player=PlayerRef(id=organiser.pk, display_name="Olga", organises=True),
    )
    return league


LISTS = [
    "competition",
    "competitionmatch",
    "competitionresult",
    "bye",
    "matchresult",
    "rating",
    "ratingchange",
    "matchfinalisation",
]


@pytest.mark.parametrize("model", LISTS)
def test_scoring_rows_are_never_added_in_the_admin(admin_browser: Client, model: str) -> None:
    assert admin_browser.get(f"/admin/scoring/{model}/add/").status_code == HTTPStatus.FORBIDDEN


def test_competitions_results_and_ratings_are_listed(
    admin_browser: Client, finished_league: Competition, players: list[Player]
) -> None:
    ada, grace = players[:2]
    rating = Rating.objects.get(player=ada, variant="chickenfoot")

    pages = {model: admin_browser.get(f"/admin/scoring/{model}/") for model in LISTS}

    assert {model: page.status_code for model, page in pages.items()} == dict.fromkeys(
        LISTS, HTTPStatus.OK
    )
    # names are escaped, as Django does
    assert "Thursday &lt;league&gt;" in pages["competition"].text
    assert "&lt;i&gt;Olga&lt;/i&gt;" in pages["competition"].text
    assert "<i>Olga</i>" not in pages["competition"].text
    assert "Finished" in pages["competition"].text
    assert "Ada" in pages["competitionresult"].text
    assert "3.000" in pages["competitionresult"].text  # ada's win at a table of 2
    assert "Grace" in pages["matchresult"].text
    assert str(display_rating(rating.ordinal)) in pages["rating"].text
    assert "Ada" in pages["ratingchange"].text
    searched = admin_browser.get("/admin/scoring/rating/?q=grace").text
    assert "Grace" in searched
    assert "Ada" not in searched
    filtered = admin_browser.get("/admin/scoring/competition/?kind__exact=tournament").text
    assert "Thursday &lt;league&gt;" not in filtered
    detail = admin_browser.get(f"/admin/scoring/competition/{finished_league.pk}/change/").text
    assert finished_league.seed not in detail
    assert "Rating at finish" in detail
    assert grace.display_name in detail


def test_scoring_rows_are_never_changed_or_deleted_in_the_admin(
    admin_browser: Client, finished_league: Competition, players: list[Player]
) -> None:
    rating = Rating.objects.get(player=players[0], variant="chickenfoot")
    result = CompetitionResult.objects.get(competition=finished_league, player=players[0])
    pages = [
        (f"/admin/scoring/competition/{finished_league.pk}/", {"name": "Renamed"}),
        (f"/admin/scoring/rating/{rating.pk}/", {"ordinal": "99", "mu": "99"}),
        (f"/admin/scoring/competitionresult/{result.pk}/", {"place": "2"}),
    ]

    changed = [admin_browser.post(f"{page}change/", data) for page, data in pages]
    deleted = [admin_browser.post(f"{page}delete/", {"post": "yes"}) for page, _ in pages]

    assert [a.status_code for a in changed + deleted] == [HTTPStatus.FORBIDDEN] * 6
    finished_league.refresh_from_db()
    assert finished_league.name == "Thursday <league>"
    assert Rating.objects.get(pk=rating.pk).ordinal == rating.ordinal
    assert CompetitionResult.objects.get(pk=result.pk).place == result.place


def test_running_the_end_of_match_task_again_from_the_admin(
    admin_browser: Client, players: list[Player], finished_match: FinishedMatch
) -> None:
    # given: a finished match whose end-of-match task has not run (its marker pending)
    match = finished_match(seated=players[:2], scores=[[0, 4]])
    match_finished(match_id=match.pk)
    assert not MatchResult.objects.filter(match=match).exists()

    # when: the administrator runs it from the markers' list, twice
    first = admin_browser.post(
        "/admin/scoring/matchfinalisation/",
        {"action": "finalise", "_selected_action": [match.pk]},
        follow=True,
    )
    again = admin_browser.post(
        "/admin/scoring/matchfinalisation/",
        {"action": "finalise", "_selected_action": [match.pk]},
        follow=True,
    )

    # then: the service wrote the results once; the second run wrote nothing
    assert f"Match {match.pk}: results written." in first.text
    assert f"Match {match.pk}: nothing written" in again.text
    assert MatchResult.objects.filter(match=match).count() == 2
    assert MatchFinalisation.objects.get(match=match).finalised_at is not None
