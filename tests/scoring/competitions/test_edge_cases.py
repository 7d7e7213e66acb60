"""Competitions at their edges: the turn clock reaches every match, an abandoned table never
holds a stage up."""

from __future__ import annotations

import random
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from scoring.models import Competition, CompetitionMatch, CompetitionResult, Stage
from tests.scoring.competitions.drive import play_matches
from tests.scoring.competitions.test_apis import assert_problem

TOURNAMENT = {
    "kind": "tournament",
    "name": "Clocked open",
    "variant": "chickenfoot",
    "options": {"max_pip": 6, "rounds": 1},
    "table_size": 3,
    "allow_bots": False,
    "stage_count": 2,
}


def closed_tournament(organiser_client: APIClient, clients: list[APIClient], **change: Any) -> str:
    created = organiser_client.post("/api/competitions", {**TOURNAMENT, **change}, format="json")
    assert created.status_code == HTTPStatus.CREATED, created.content
    base = f"/api/competitions/{created.json()['id']}"
    for client in clients:
        assert client.post(f"{base}/register").status_code == HTTPStatus.OK
    assert organiser_client.post(f"{base}/close").status_code == HTTPStatus.OK
    return base


def start_stage(organiser_client: APIClient, base: str, number: int) -> list[int]:
    response = organiser_client.post(f"{base}/stages", {"number": number}, format="json")
    assert response.status_code == HTTPStatus.CREATED, response.content
    return [table["match_id"] for table in response.json()["tables"]]


@pytest.mark.django_db
def test_a_tournaments_turn_clock_reaches_the_matches_it_creates(
    organiser_client: APIClient, clients: list[APIClient]
) -> None:
    base = closed_tournament(organiser_client, clients, turn_seconds=60)

    tables = start_stage(organiser_client, base, 1)

    assert organiser_client.get(base).json()["turn_seconds"] == 60
    for match in Match.objects.filter(pk__in=tables):
        assert match.options["turn_seconds"] == 60
        assert match.options["max_pip"] == 6
        assert match.turn_deadline is not None  # a human is to move: their clock runs
        assert 55 <= (match.turn_deadline - match.started_at).total_seconds() <= 60


@pytest.mark.django_db
def test_a_leagues_turn_clock_reaches_its_players_matches(
    organiser_client: APIClient, clients: list[APIClient]
) -> None:
    # given: a running league with a turn clock given among its options
    league = {**TOURNAMENT, "kind": "league", "stage_count": None, "min_matches": 0}
    created = organiser_client.post(
        "/api/competitions",
        {**league, "options": {"rounds": 1, "turn_seconds": 45}},
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    assert created.json()["turn_seconds"] == 45
    base = f"/api/competitions/{created.json()['id']}"
    for client in clients[:2]:
        client.post(f"{base}/register")
    organiser_client.post(f"{base}/close")
    organiser_client.post(f"{base}/start")

    # when: a player creates a league match
    made = clients[0].post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "league": created.json()["id"],
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        },
        format="json",
    )

    # then: it plays with the league's clock
    assert made.status_code == HTTPStatus.CREATED, made.content
    assert made.json()["options"]["turn_seconds"] == 45


@pytest.mark.django_db
def test_a_turn_clock_given_twice_must_agree(
    organiser_client: APIClient, clients: list[APIClient]
) -> None:
    before = Competition.objects.count()

    response = organiser_client.post(
        "/api/competitions",
        {**TOURNAMENT, "options": {"rounds": 1, "turn_seconds": 30}, "turn_seconds": 60},
        format="json",
    )

    body = assert_problem(response, HTTPStatus.BAD_REQUEST, "invalid_competition")
    assert any("turn_seconds" in problem for problem in body["problems"])
    assert Competition.objects.count() == before


@pytest.mark.django_db(transaction=True)
def test_an_abandoned_table_counts_for_nobody_and_never_stalls_its_stage(
    organiser_client: APIClient, clients: list[APIClient], players: list[Player]
) -> None:
    # given: four players at two tables of two in stage 1 of 2
    base = closed_tournament(organiser_client, clients)
    by_id = {p.pk: c for p, c in zip(players, clients, strict=True)}
    first, second = start_stage(organiser_client, base, 1)
    gone = set(Match.objects.get(pk=first).seats.values_list("player_id", flat=True))

    # when: the organiser abandons one table and the other is played to its end
    abandoned = organiser_client.post(f"/api/matches/{first}/abandon")
    assert abandoned.status_code == HTTPStatus.OK, abandoned.content
    stages = organiser_client.get(f"{base}/stages").json()["stages"]
    assert stages[0]["status"] == "playing"  # the other table still plays
    play_matches([second], by_id, random.Random(5))

    # then: the stage finishes; the abandoned table's players have played nothing
    stages = organiser_client.get(f"{base}/stages").json()["stages"]
    assert stages[0]["status"] == "finished"
    assert [t["match_status"] for t in stages[0]["tables"]] == ["abandoned", "finished"]
    rows = organiser_client.get(f"{base}/standings").json()["standings"]
    standings = {row["player_id"]: row for row in rows}
    assert all(standings[pid]["matches"] == 0 for pid in gone)
    assert all(standings[pid]["placement_points"] == 0 for pid in gone)
    assert not CompetitionResult.objects.filter(match_id=first).exists()
    assert sum(row["matches"] for row in standings.values()) == 2

    # and: the organiser starts stage 2; its tables abandoned, the tournament finishes
    for match_id in start_stage(organiser_client, base, 2):
        assert organiser_client.post(f"/api/matches/{match_id}/abandon").status_code == 200
    detail = organiser_client.get(base).json()
    assert detail["status"] == "finished"
    assert organiser_client.get(f"{base}/standings").json()["final"] is True


@pytest.mark.django_db
def test_the_next_stage_settles_tables_abandoned_without_a_word(
    organiser_client: APIClient, clients: list[APIClient]
) -> None:
    # given: stage 1's tables were abandoned by a path that told no competition
    base = closed_tournament(organiser_client, clients)
    tables = start_stage(organiser_client, base, 1)
    Match.objects.filter(pk__in=tables).update(status=Match.Status.ABANDONED)
    assert CompetitionMatch.objects.filter(match_id__in=tables, finished=False).count() == 2

    # when: the organiser starts stage 2
    stage_two = start_stage(organiser_client, base, 2)

    # then: stage 1 is settled and finished; stage 2 plays
    assert Stage.objects.get(number=1).status == Stage.Status.FINISHED
    assert len(stage_two) == 2
    assert not CompetitionResult.objects.exists()
