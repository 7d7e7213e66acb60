"""A public competition in tests: a stage whose table 1 is a match scored at the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Player
from scoring.models import Competition, CompetitionMatch, Registration, Stage

#: A display name that is markup: the wall must show it as text.
HOSTILE = "<script>alert(1)</script>&"


@dataclass
class Wall:
    competition: Competition
    match_id: int


def wall_world(players: list[Player], client: APIClient, *, public: bool = True) -> Wall:
    """``players[0]`` organises a tournament of ``players[0..1]`` and a guest named ``HOSTILE``
    at table 1 of stage 1, a two-round Chicken Foot match scored at the table."""
    now = timezone.now()
    competition = Competition.objects.create(
        kind=Competition.Kind.TOURNAMENT,
        name="Spring open",
        variant="chickenfoot",
        options={"rounds": 2},
        table_size=3,
        points_scheme={"3": [4, 2, 1]},
        stage_count=1,
        seed="ab" * 32,
        organiser=players[0],
        status=Competition.Status.RUNNING,
        current_stage=1,
        public=public,
    )
    for player in players[:2]:
        Registration.objects.create(competition=competition, player=player, registered_at=now)
    stage = Stage.objects.create(competition=competition, number=1, started_at=now)
    body = {
        "variant": "chickenfoot",
        "play": "table",
        "options": {"max_pip": 6, "rounds": 2},
        "seats": [
            {"kind": "creator"},
            {"kind": "player", "username": players[1].user.username},
            {"kind": "guest", "name": HOSTILE},
        ],
    }
    response = client.post("/api/matches", body, format="json")
    assert response.status_code == 201, response.content
    match_id = int(response.json()["id"])
    CompetitionMatch.objects.create(
        competition=competition, match_id=match_id, stage=stage, table_number=1
    )
    return Wall(competition=competition, match_id=match_id)


def enter_round(client: APIClient, match_id: int, number: int, version: int) -> Any:
    """Round ``number``: seat 0 went out, seat 1 holds 7 points, the guest 12."""
    scores = [
        {"seat": 0, "points": 0, "went_out": True},
        {"seat": 1, "points": 7},
        {"seat": 2, "points": 12},
    ]
    url = f"/api/matches/{match_id}/rounds/{number}/scores"
    response = client.post(url, {"version": version, "scores": scores}, format="json")
    assert response.status_code == 201, response.content
    return response.json()
