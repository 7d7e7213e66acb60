"""A finished match: public to anyone signed in (spectator view), its results in the match
view, its full record replayable offline; organisers may finalise it now."""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.record import record_verify
from scoring.models import MatchFinalisation, MatchResult, Rating
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_to_end
from tests.games.schema_check import check_response

pytestmark = pytest.mark.django_db


@pytest.fixture
def outsider() -> APIClient:
    return client_for(PlayerFactory(user__username="outsider"))


@pytest.fixture
def played(
    clients: list[APIClient],
    started_match: Callable[..., Match],
    django_capture_on_commit_callbacks: Callable,
) -> Match:
    """A three-seat Chicken Foot match of three rounds, played to its end and finalised."""
    match = started_match(n=3, options={"rounds": 3})
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(clients[:3], match.pk, seed=5)
    match.refresh_from_db()
    return match


def test_results_pending_until_the_end_of_match_task_has_run(
    clients: list[APIClient], started_match: Callable[..., Match], players: list[Player]
) -> None:
    # given: a match played to its end, its end-of-match task not run (no commit callbacks)
    match = started_match(n=2, options={"rounds": 1})
    play_to_end(clients[:2], match.pk, seed=1)

    pending = clients[0].get(f"/api/matches/{match.pk}").json()

    assert pending["status"] == "finished"
    assert pending["results_pending"] is True
    assert pending["standings"] is None  # the rows decide: none before the task

    # when: the task runs, the view shows the results with each seat's player
    from scoring.tasks import match_finalise_task

    match_finalise_task.delay(match.pk)
    done = clients[0].get(f"/api/matches/{match.pk}").json()

    assert done["results_pending"] is False
    assert {(r["seat"], r["player_id"], r["name"]) for r in done["standings"]} == {
        (0, players[0].pk, "Ada"),
        (1, players[1].pk, "Grace"),
    }
    places = [r["place"] for r in done["standings"]]
    assert places == sorted(places)
    mine = clients[0].get("/api/matches/mine?status=finished").json()["results"]
    assert mine[0]["standings"] == done["standings"]
    assert mine[0]["results_pending"] is False


def test_a_match_in_play_is_not_results_pending(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=2)

    body = clients[0].get(f"/api/matches/{match.pk}").json()

    assert (body["results_pending"], body["standings"]) == (False, None)


def test_an_outsider_watches_a_finished_match_as_a_spectator(
    played: Match, outsider: APIClient
) -> None:
    response = outsider.get(f"/api/matches/{played.pk}")

    assert response.status_code == HTTPStatus.OK, response.content
    body = response.json()
    assert body["your_seat"] is None
    assert body["results_pending"] is False
    assert len(body["standings"]) == 3
    log = outsider.get(f"/api/matches/{played.pk}/log")
    assert log.status_code == HTTPStatus.OK


def test_an_outsider_still_may_not_watch_a_match_in_play(
    started_match: Callable[..., Match], outsider: APIClient
) -> None:
    match = started_match(n=2)

    for path in ("", "/log", "/record"):
        response = outsider.get(f"/api/matches/{match.pk}{path}")
        assert response.status_code == HTTPStatus.FORBIDDEN, path
        assert response.json()["code"] == "not_your_match"
        assert "hands" not in response.content.decode()


def test_the_record_of_a_match_in_play_is_refused_even_to_its_players(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=2)

    response = clients[0].get(f"/api/matches/{match.pk}/record")

    assert response.status_code == HTTPStatus.CONFLICT
    assert response.json()["code"] == "match_not_finished"
    assert match.seed not in response.content.decode()


def test_the_record_replays_offline_from_the_document_alone(
    played: Match, outsider: APIClient, players: list[Player]
) -> None:
    # when: anyone fetches the record, and it goes through JSON (as a file would)
    response = outsider.get(f"/api/matches/{played.pk}/record")
    assert response.status_code == HTTPStatus.OK
    record = json.loads(response.content)

    # then: it holds what it promises, and the engine replays it to the same results
    assert record["format"] == "chickenfoot-match-record/1"
    assert [s["player_id"] for s in record["seats"]] == [p.pk for p in players[:3]]
    assert len(record["rounds"]) == 3
    assert all(r["seed"] for r in record["rounds"])
    assert len(record["moves"]) == played.moves_played
    assert len(record["results"]) == 3
    assert record_verify(record) == []


def test_the_record_gives_tiles_options_and_events_as_the_rest_of_the_api_does(
    played: Match, outsider: APIClient
) -> None:
    # when: the record, the match's rounds and its view
    record = outsider.get(f"/api/matches/{played.pk}/record")
    rounds = outsider.get(f"/api/matches/{played.pk}/rounds").json()["rounds"]
    view = outsider.get(f"/api/matches/{played.pk}").json()

    # then: a start double is a tile, [n, n], as in the rounds; options are the view's; the
    # record fits its schema (the events, standings and options typed), as openapi-core reads it
    assert [r["start_double"] for r in record.json()["rounds"]] == [
        r["start_double"] for r in rounds
    ]
    assert record.json()["rounds"][0]["start_double"] == [9, 9]
    assert record.json()["match"]["options"] == view["options"]
    check_response(record, "/api/matches/{match_id}/record", "GET")


def test_a_tampered_record_fails_the_offline_check(played: Match, outsider: APIClient) -> None:
    record = json.loads(outsider.get(f"/api/matches/{played.pk}/record").content)

    record["rounds"][1]["scores"][0] += 1
    record["results"][0]["place"] = 3
    record["moves"][0]["events"] = []

    problems = record_verify(record)
    assert "move 1: its events differ" in problems
    assert "the rounds' scores differ from the replay's" in problems
    assert "the results differ from the replay's" in problems


def test_only_organisers_may_finalise_a_match(
    clients: list[APIClient],
    started_match: Callable[..., Match],
    players: list[Player],
) -> None:
    # given: a finished match whose task has not run
    match = started_match(n=2, options={"rounds": 1})
    play_to_end(clients[:2], match.pk, seed=2)

    refused = clients[0].post(f"/api/matches/{match.pk}/finalise")

    assert refused.status_code == HTTPStatus.FORBIDDEN
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "not_organiser"
    assert refused.json()["title"] == "Not an organiser"
    assert MatchFinalisation.objects.get().finalised_at is None  # pending, as the end left it
    assert not MatchResult.objects.exists()
    assert not Rating.objects.exists()

    organiser = PlayerFactory(is_organiser=True)
    done = client_for(organiser).post(f"/api/matches/{match.pk}/finalise")
    again = client_for(organiser).post(f"/api/matches/{match.pk}/finalise")

    assert done.status_code == HTTPStatus.OK
    assert done.json()["written"] is True
    assert len(done.json()["standings"]) == 2
    assert again.json()["written"] is False
    assert again.json()["standings"] == done.json()["standings"]
    assert MatchResult.objects.count() == 2


def test_finalising_a_match_in_play_is_refused(
    started_match: Callable[..., Match],
) -> None:
    match = started_match(n=2)
    organiser = client_for(PlayerFactory(is_organiser=True))

    response = organiser.post(f"/api/matches/{match.pk}/finalise")

    assert response.status_code == HTTPStatus.CONFLICT
    assert response.json()["code"] == "match_not_finished"
    assert not MatchFinalisation.objects.exists()
