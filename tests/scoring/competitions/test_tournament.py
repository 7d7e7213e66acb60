"""A whole tournament through the API: 12 players, bots filling tables of 5, three stages, to
final standings. Bots play through Celery (eager here; the ``worker`` variant runs in CI)."""

from __future__ import annotations

import os
import random
from collections import defaultdict
from http import HTTPStatus
from itertools import combinations, pairwise
from typing import Any

import pytest
from rest_framework.test import APIClient

from chickenfoot.celery import app as celery_app
from games.models import Player
from scoring.competitions.points import default_places, table_points
from scoring.models import MatchResult
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.drive import play_matches

TOURNAMENT = {
    "kind": "tournament",
    "name": "Autumn open",
    "variant": "chickenfoot",
    "options": {"max_pip": 6, "rounds": 2},
    "table_size": 5,
    "allow_bots": True,
    "stage_count": 3,
}


def run_tournament(organiser_client: APIClient) -> None:
    # given: an organiser's tournament and 12 registered players
    players = [
        PlayerFactory(user__username=f"p{i:02}", display_name=f"Player {i:02}") for i in range(12)
    ]
    clients = {p.pk: client_for(p) for p in players}
    created = organiser_client.post("/api/competitions", TOURNAMENT, format="json")
    assert created.status_code == HTTPStatus.CREATED, created.content
    base = f"/api/competitions/{created.json()['id']}"
    for client in clients.values():
        assert client.post(f"{base}/register").status_code == HTTPStatus.OK
    assert organiser_client.post(f"{base}/close").json()["status"] == "closed"

    # when: the organiser starts each stage and the players play its tables to the end
    rng = random.Random(7)
    stages: list[dict[str, Any]] = []
    for number in (1, 2, 3):
        response = organiser_client.post(f"{base}/stages", {"number": number}, format="json")
        assert response.status_code == HTTPStatus.CREATED, response.content
        stage = response.json()
        check_seating(stage, players)
        play_matches([t["match_id"] for t in stage["tables"]], clients, rng)
        stages.append(stage)
        if number < 3:
            between = organiser_client.get(f"{base}/stages").json()["stages"][-1]
            assert between["status"] == "finished"

    # then: the tournament is over, with standings the database computed
    detail = organiser_client.get(base).json()
    assert detail["status"] == "finished"
    body = organiser_client.get(f"{base}/standings").json()
    assert body["final"] is True
    check_standings(body["standings"], stages, players)
    csv_text = organiser_client.get(f"{base}/standings.csv").content.decode()
    lines = csv_text.strip().split("\n")
    assert lines[0].startswith("rank,shared,ranked,player_id,name,matches,wins,placement_points")
    assert len(lines) == 13


def check_seating(stage: dict[str, Any], players: list[Player]) -> None:
    """Three tables of five: four players and a bot at each; every player seated once."""
    tables = stage["tables"]
    assert len(tables) == 3
    for table in tables:
        assert len(table["seats"]) == 5
        assert sum(seat["bot"] for seat in table["seats"]) == 1
    humans = [s["player_id"] for t in tables for s in t["seats"] if not s["bot"]]
    assert sorted(humans) == sorted(p.pk for p in players)


def check_standings(
    rows: list[dict[str, Any]], stages: list[dict[str, Any]], players: list[Player]
) -> None:
    # every player ranked, three matches and six rounds each
    assert sorted(r["player_id"] for r in rows) == sorted(p.pk for p in players)
    assert all(r["matches"] == 3 and r["rounds"] == 6 and r["ranked"] for r in rows)
    assert all(len(r["by_stage"]) == 3 for r in rows)
    # placement points: recomputed here from the result rows and the default 6/4/3/2/1
    expected: dict[int, float] = defaultdict(float)
    wins: dict[int, int] = defaultdict(int)
    for stage in stages:
        for table in stage["tables"]:
            results = list(MatchResult.objects.filter(match_id=table["match_id"]).order_by("seat"))
            shares = table_points(
                places=[r.place for r in results], scheme_places=default_places(5)
            )
            for result, share in zip(results, shares, strict=True):
                expected[result.player_id] += share / 1000
                wins[result.player_id] += result.place == 1
    for row in rows:
        assert row["placement_points"] == pytest.approx(expected[row["player_id"]], abs=0.002)
        assert row["wins"] == wins[row["player_id"]]
        assert sum(s["placement_points"] for s in row["by_stage"]) == pytest.approx(
            row["placement_points"], abs=0.002
        )
    # ordered by placement points, wins, lower mean points per round, then head-to-head
    keys = [(-r["placement_points"], -r["wins"], r["mean_points_per_round"]) for r in rows]
    assert keys == sorted(keys)
    assert rows[0]["rank"] == 1
    for above, below in pairwise(rows):
        assert below["rank"] >= above["rank"]
        if below["rank"] == above["rank"]:
            assert above["shared"]
            assert below["shared"]
    # stage 2 and 3 are Swiss: nobody meets the same rival at every stage
    pairs: dict[frozenset[int], int] = defaultdict(int)
    for stage in stages:
        for table in stage["tables"]:
            seated = [s["player_id"] for s in table["seats"] if not s["bot"]]
            for pair in combinations(seated, 2):
                pairs[frozenset(pair)] += 1
    assert max(pairs.values()) < 3


@pytest.mark.django_db(transaction=True)
def test_a_12_player_tournament_over_3_stages_to_final_standings(
    organiser_client: APIClient,
) -> None:
    run_tournament(organiser_client)


@pytest.mark.worker
@pytest.mark.skipif(
    os.environ.get("CELERY_WORKER_EXPECTED") != "1",
    reason="no worker expected: set REDIS_URL, start a worker, and CELERY_WORKER_EXPECTED=1",
)
@pytest.mark.django_db(transaction=True)
def test_a_12_player_tournament_with_the_real_worker(organiser_client: APIClient) -> None:
    assert celery_app.conf.task_always_eager is False
    run_tournament(organiser_client)
