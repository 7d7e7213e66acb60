"""A league played at real tables, through the API: its players create table matches for it,
score them round by round, correct one after it finished (its figures computed again), and
the season's end locks their scores until the organiser reopens one; and what such a league,
and an online one, refuse."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player, Seat
from scoring.models import CompetitionMatch, MatchResult, RatingChange
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.test_apis import assert_problem

API = "/api/competitions"
TABLE_LEAGUE = {
    "kind": "league",
    "play": "table",
    "name": "Kitchen table league",
    "variant": "chickenfoot",
    "options": {"max_pip": 6, "rounds": 2},
    "table_size": 3,
    "min_matches": 2,
    "confirmation": "any_other_seat",
}


def table_league(organiser_client: APIClient, clients: list[APIClient], **change: Any) -> int:
    created = organiser_client.post(API, {**TABLE_LEAGUE, **change}, format="json")
    assert created.status_code == HTTPStatus.CREATED, created.content
    league_id = created.json()["id"]
    for client in clients:
        assert client.post(f"{API}/{league_id}/register").status_code == HTTPStatus.OK
    organiser_client.post(f"{API}/{league_id}/close")
    started = organiser_client.post(f"{API}/{league_id}/start")
    assert started.json()["status"] == "running", started.content
    return league_id


def table_match(
    client: APIClient, league_id: int, seats: list[dict[str, Any]], **extra: Any
) -> Any:
    body = {"variant": "chickenfoot", "play": "table", "league": league_id, "seats": seats}
    return client.post("/api/matches", {**body, **extra}, format="json")


def by(player: Player) -> dict[str, Any]:
    return {"kind": "player", "player_id": player.pk}


def score(client: APIClient, match_id: int, number: int, points: list[int]) -> Any:
    version = client.get(f"/api/matches/{match_id}").json()["version"]
    scores = [
        {"seat": seat, "points": p, "went_out": p == 0 and seat == points.index(0)}
        for seat, p in enumerate(points)
    ]
    return client.post(
        f"/api/matches/{match_id}/rounds/{number}/scores",
        {"version": version, "scores": scores},
        format="json",
    )


def correct(client: APIClient, match_id: int, number: int, points: list[int]) -> Any:
    version = client.get(f"/api/matches/{match_id}").json()["version"]
    scores = [
        {"seat": seat, "points": p, "went_out": p == 0 and seat == points.index(0)}
        for seat, p in enumerate(points)
    ]
    body = {"version": version, "scores": scores, "reason": "Counted again"}
    return client.put(f"/api/matches/{match_id}/rounds/{number}/scores", body, format="json")


def standings(client: APIClient, league_id: int) -> dict[str, tuple[int, float]]:
    rows = client.get(f"{API}/{league_id}/standings").json()["standings"]
    return {row["name"]: (row["matches"], row["placement_points"]) for row in rows}


@pytest.mark.django_db(transaction=True)
def test_a_table_league_season_through_the_api(
    organiser: Player, organiser_client: APIClient, players: list[Player], clients: list[APIClient]
) -> None:
    # given: Ada, Grace and Alan in a running table league (scheme for 3: 4, 2, 1; for 2: 3, 1)
    ada, grace, alan = players[:3]
    league_id = table_league(organiser_client, clients[:3])
    league = organiser_client.get(f"{API}/{league_id}").json()
    assert (league["play"], league["confirmation"]) == ("table", "any_other_seat")

    # when: three matches at the table, each created by a player of the league
    first = table_match(clients[0], league_id, [{"kind": "creator"}, by(grace), by(alan)])
    assert first.status_code == HTTPStatus.CREATED, first.content
    m1 = first.json()["id"]
    assert first.json()["options"]["rounds"] == 2  # the league's options
    view = clients[1].get(f"/api/matches/{m1}").json()
    assert (view["play"], view["confirmation"]) == ("table", "any_other_seat")
    assert score(clients[0], m1, 1, [0, 10, 20]).status_code == HTTPStatus.CREATED
    assert score(clients[0], m1, 2, [5, 0, 30]).status_code == HTTPStatus.CREATED
    m2 = table_match(clients[1], league_id, [{"kind": "creator"}, by(alan)]).json()["id"]
    assert score(clients[1], m2, 1, [0, 9]).status_code == HTTPStatus.CREATED
    assert score(clients[1], m2, 2, [0, 9]).status_code == HTTPStatus.CREATED

    # then: both count for the league (Ada 5 to Grace's 10 at m1: Ada first)
    assert standings(organiser_client, league_id) == {
        "Ada": (1, 4.0),
        "Grace": (2, 5.0),
        "Alan": (2, 2.0),
    }
    ada_before = RatingChange.objects.get(match_id=m2, player=grace).mu_before

    # when: m1's round 2 is corrected after it finished: Ada held 60, not 5
    corrected = correct(clients[0], m1, 2, [60, 0, 30])
    assert corrected.status_code == HTTPStatus.OK, corrected.content

    # then: the recompute writes m1's places, the league's standings and later ratings again
    places = dict(MatchResult.objects.filter(match_id=m1).values_list("player_id", "place"))
    assert places == {ada.pk: 3, grace.pk: 1, alan.pk: 2}
    assert standings(organiser_client, league_id) == {
        "Grace": (2, 7.0),
        "Alan": (2, 3.0),
        "Ada": (1, 1.0),
    }
    assert RatingChange.objects.get(match_id=m2, player=grace).mu_before != ada_before
    history = clients[0].get(f"/api/players/{ada.pk}/history?competition={league_id}").json()
    assert [(row["match_id"], row["play"], row["place"]) for row in history["results"]] == [
        (m1, "table", 3)
    ]

    # when: a third match, then the organiser finishes the season
    m3 = table_match(clients[2], league_id, [{"kind": "creator"}, by(ada)]).json()["id"]
    assert score(clients[2], m3, 1, [0, 3]).status_code == HTTPStatus.CREATED
    assert score(clients[2], m3, 2, [0, 3]).status_code == HTTPStatus.CREATED
    finished = organiser_client.post(f"{API}/{league_id}/finish")
    assert finished.json()["status"] == "finished"

    # then: the final standings, and the season's scores stand
    body = organiser_client.get(f"{API}/{league_id}/standings").json()
    assert body["final"] is True
    rows = {row["name"]: row for row in body["standings"]}
    assert (rows["Alan"]["matches"], rows["Alan"]["placement_points"]) == (3, 6.0)
    assert all(row["ranked"] for row in rows.values())
    assert CompetitionMatch.objects.filter(competition_id=league_id).count() == 3
    locked = correct(clients[0], m1, 1, [0, 12, 20])
    assert_problem(locked, HTTPStatus.CONFLICT, "match_locked")
    # the organiser reopens m1: its correction counts again
    reopened = organiser_client.post(
        f"/api/matches/{m1}/reopen", {"reason": "Scores mixed up"}, format="json"
    )
    assert reopened.status_code == HTTPStatus.CREATED, reopened.content
    assert correct(clients[0], m1, 2, [0, 5, 30]).status_code == HTTPStatus.OK
    assert standings(organiser_client, league_id)["Ada"] == (2, 4.0 + 1.0)


@pytest.mark.django_db
def test_table_league_matches_refuse_guests_outsiders_and_the_other_play(
    organiser: Player, organiser_client: APIClient, players: list[Player], clients: list[APIClient]
) -> None:
    league_id = table_league(organiser_client, clients[:3])
    outsider = PlayerFactory(display_name="Outsider")
    before = (Match.objects.count(), Seat.objects.count(), CompetitionMatch.objects.count())

    guest = table_match(
        clients[0], league_id, [{"kind": "creator"}, {"kind": "guest", "name": "Joe"}]
    )
    stranger = table_match(clients[0], league_id, [{"kind": "creator"}, by(outsider)])
    not_registered = table_match(
        client_for(outsider), league_id, [{"kind": "creator"}, by(players[0])]
    )
    not_seated = table_match(clients[0], league_id, [by(players[1]), by(players[2])])
    online = clients[0].post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "league": league_id,
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        },
        format="json",
    )
    other_options = table_match(
        clients[0], league_id, [{"kind": "creator"}, by(players[1])], options={"rounds": 3}
    )
    too_big = table_match(
        clients[0], league_id, [{"kind": "creator"}, by(players[1]), by(players[2]), by(players[3])]
    )

    body = assert_problem(guest, HTTPStatus.BAD_REQUEST, "invalid_seats")
    assert "guest has no account to rank" in body["errors"]["seats.1.kind"][0]
    assert (
        "Outsider"
        not in assert_problem(stranger, HTTPStatus.FORBIDDEN, "not_league_player")["detail"]
    )
    assert_problem(not_registered, HTTPStatus.FORBIDDEN, "not_league_player")
    assert "seats" in assert_problem(not_seated, HTTPStatus.BAD_REQUEST, "invalid_seats")["errors"]
    body = assert_problem(online, HTTPStatus.BAD_REQUEST, "league_refused")
    assert "play: table" in body["errors"]["play"][0]
    assert_problem(other_options, HTTPStatus.BAD_REQUEST, "league_refused")
    assert_problem(too_big, HTTPStatus.BAD_REQUEST, "league_refused")
    assert (Match.objects.count(), Seat.objects.count(), CompetitionMatch.objects.count()) == before


@pytest.mark.django_db
def test_an_online_league_refuses_table_matches_and_a_table_league_bots_and_clocks(
    organiser: Player, organiser_client: APIClient, clients: list[APIClient], players: list[Player]
) -> None:
    online_id = table_league(organiser_client, clients[:2], play="online", confirmation=None)
    refused = table_match(clients[0], online_id, [{"kind": "creator"}, by(players[1])])
    body = assert_problem(refused, HTTPStatus.BAD_REQUEST, "league_refused")
    assert "played online" in body["errors"]["play"][0]
    assert not CompetitionMatch.objects.filter(competition_id=online_id).exists()

    bad = organiser_client.post(
        API,
        {**TABLE_LEAGUE, "allow_bots": True, "turn_seconds": 30, "options": {"hand_size": 5}},
        format="json",
    )
    body = assert_problem(bad, HTTPStatus.BAD_REQUEST, "invalid_competition")
    assert {"allow_bots", "turn_seconds", "options.hand_size"} <= set(body["errors"])
