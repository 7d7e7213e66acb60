"""A league through the API, from creation to final standings; league matches' refusals."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player, Seat
from scoring.models import Competition, CompetitionMatch
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.drive import play_matches
from tests.scoring.competitions.test_apis import assert_problem

LEAGUE = {
    "kind": "league",
    "name": "Thursday league",
    "variant": "mexican_train",
    "options": {"max_pip": 9, "rounds": 2},
    "table_size": 3,
    "allow_bots": True,
    "min_matches": 2,
}


def league_match(
    client: APIClient, league_id: int, seats: list[dict[str, Any]], **extra: Any
) -> Any:
    return client.post(
        "/api/matches",
        {"variant": "mexican_train", "league": league_id, "seats": seats, **extra},
        format="json",
    )


def running_league(organiser_client: APIClient, clients: list[APIClient], **change: Any) -> int:
    league_id = organiser_client.post(
        "/api/competitions", {**LEAGUE, **change}, format="json"
    ).json()["id"]
    base = f"/api/competitions/{league_id}"
    for client in clients:
        client.post(f"{base}/register")
    organiser_client.post(f"{base}/close")
    started = organiser_client.post(f"{base}/start")
    assert started.json()["status"] == "running", started.content
    return league_id


@pytest.mark.django_db(transaction=True)
def test_a_league_from_creation_to_final_standings(
    organiser_client: APIClient, clients: list[APIClient], players: list[Player]
) -> None:
    # given: a running league of four players
    league_id = running_league(organiser_client, clients)
    base = f"/api/competitions/{league_id}"
    by_id = {p.pk: c for p, c in zip(players, clients, strict=True)}
    rng = random.Random(3)

    # when: they play league matches among themselves (one with a bot) and one outside it
    tables = [(0, 1, 2), (1, 2, 3), (3, 0, None), (2, 3, 0)]
    for table in tables:
        seats = [{"kind": "creator"}] + [
            {"kind": "bot", "level": 1} if i is None else {"kind": "open"} for i in table[1:]
        ]
        created = league_match(clients[table[0]], league_id, seats)
        assert created.status_code == HTTPStatus.CREATED, created.content
        match_id = created.json()["id"]
        assert created.json()["options"]["rounds"] == 2  # the league's options apply
        for i in table[1:]:
            if i is not None:
                assert clients[i].post(f"/api/matches/{match_id}/join").status_code == 200
        clients[table[0]].post(f"/api/matches/{match_id}/start")
        play_matches([match_id], by_id, rng)
    outside = clients[0].post(
        "/api/matches",
        {"variant": "mexican_train", "seats": [{"kind": "creator"}, {"kind": "bot", "level": 1}]},
        format="json",
    )
    assert outside.status_code == HTTPStatus.CREATED
    mid_season = organiser_client.get(f"{base}/standings").json()
    finished = organiser_client.post(f"{base}/finish")

    # then: the standings count the four league matches, and only them
    assert finished.json()["status"] == "finished"
    assert CompetitionMatch.objects.filter(competition_id=league_id).count() == 4
    body = organiser_client.get(f"{base}/standings").json()
    assert body["final"] is True
    assert body["standings"] == mid_season["standings"]  # nothing changed at the end
    rows = body["standings"]
    assert {r["name"]: r["matches"] for r in rows} == {
        "Ada": 3,
        "Grace": 2,
        "Alan": 3,
        "Edsger": 3,
    }
    assert all(r["ranked"] for r in rows)  # everyone played the minimum of 2
    assert sum(r["wins"] for r in rows) >= 3  # the bot may have won one table
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    # the chart adds the placement points up match by match, ending at each one's standing
    chart = organiser_client.get(f"{base}/standings.svg")
    assert chart.status_code == HTTPStatus.OK
    root = ET.fromstring(chart.content)  # noqa: S314 (our own output)
    points = {
        (c.get("data-series"), c.get("data-step")): float(c.get("data-value"))
        for c in root.iter("{http://www.w3.org/2000/svg}circle")
        if c.get("class") == "point"
    }
    league_matches = CompetitionMatch.objects.filter(competition_id=league_id)
    last = f"#{max(m.match_id for m in league_matches)}"
    assert {step for _, step in points} == {"start"} | {f"#{m.match_id}" for m in league_matches}
    for row in rows:
        assert points[(row["name"], last)] == row["placement_points"]
    # a league's season ends once: no more matches count
    late = league_match(clients[0], league_id, [{"kind": "creator"}, {"kind": "open"}])
    assert_problem(late, HTTPStatus.CONFLICT, "competition_status")


@pytest.mark.django_db
def test_league_match_refusals_write_nothing(
    organiser_client: APIClient, clients: list[APIClient], players: list[Player]
) -> None:
    league_id = running_league(organiser_client, clients[:3], allow_bots=False)
    outsider = client_for(PlayerFactory(display_name="Outsider"))
    before = (Match.objects.count(), Seat.objects.count(), CompetitionMatch.objects.count())
    two = [{"kind": "creator"}, {"kind": "open"}]

    not_registered = league_match(outsider, league_id, two)
    wrong_game = clients[0].post(
        "/api/matches", {"variant": "chickenfoot", "league": league_id, "seats": two}, format="json"
    )
    other_options = league_match(clients[0], league_id, two, options={"rounds": 5})
    too_big = league_match(clients[0], league_id, [{"kind": "creator"}] + [{"kind": "open"}] * 3)
    with_bot = league_match(
        clients[0], league_id, [{"kind": "creator"}, {"kind": "bot", "level": 2}]
    )
    not_seated = league_match(clients[0], league_id, [{"kind": "open"}, {"kind": "open"}])
    no_league = league_match(clients[0], 999, two)

    assert_problem(not_registered, HTTPStatus.FORBIDDEN, "not_league_player")
    assert_problem(wrong_game, HTTPStatus.BAD_REQUEST, "league_refused")
    assert_problem(other_options, HTTPStatus.BAD_REQUEST, "league_refused")
    assert_problem(too_big, HTTPStatus.BAD_REQUEST, "league_refused")
    assert_problem(with_bot, HTTPStatus.BAD_REQUEST, "league_refused")
    assert_problem(not_seated, HTTPStatus.BAD_REQUEST, "invalid_seats")
    assert_problem(no_league, HTTPStatus.NOT_FOUND, "competition_not_found")
    assert (Match.objects.count(), Seat.objects.count(), CompetitionMatch.objects.count()) == before

    # only the league's players join its matches
    match_id = league_match(clients[0], league_id, two).json()["id"]
    refused = clients[3].post(f"/api/matches/{match_id}/join")
    assert_problem(refused, HTTPStatus.FORBIDDEN, "not_league_player")
    assert Seat.objects.filter(match_id=match_id, player__isnull=False).count() == 1
    assert clients[1].post(f"/api/matches/{match_id}/join").status_code == HTTPStatus.OK


@pytest.mark.django_db
def test_a_league_needs_its_season_started(
    organiser_client: APIClient, clients: list[APIClient]
) -> None:
    league_id = organiser_client.post("/api/competitions", LEAGUE, format="json").json()["id"]
    clients[0].post(f"/api/competitions/{league_id}/register")

    early = league_match(clients[0], league_id, [{"kind": "creator"}, {"kind": "open"}])
    start_open = organiser_client.post(f"/api/competitions/{league_id}/start")
    organiser_client.post(f"/api/competitions/{league_id}/close")
    too_few = organiser_client.post(f"/api/competitions/{league_id}/start")
    no_stages = organiser_client.post(
        f"/api/competitions/{league_id}/stages", {"number": 1}, format="json"
    )

    assert_problem(early, HTTPStatus.CONFLICT, "competition_status")
    assert_problem(start_open, HTTPStatus.CONFLICT, "competition_status")
    assert_problem(too_few, HTTPStatus.CONFLICT, "too_few_players")
    assert_problem(no_stages, HTTPStatus.CONFLICT, "competition_status")
    assert Competition.objects.get(pk=league_id).status == "closed"
