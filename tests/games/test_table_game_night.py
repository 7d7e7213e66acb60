"""A family's game night at the kitchen table: two players with accounts and two guests play
Mexican Train with real dominoes, one phone keeps the score, and the evening ends in the
players' history, statistics, head-to-head and ratings, and the guests' seats can be claimed."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from scoring.models import MatchResult, Rating
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db

SEATS = [
    {"kind": "creator"},
    {"kind": "player", "username": "grace"},
    {"kind": "guest", "name": "Grandma Rose"},
    {"kind": "guest", "name": "Uncle Tito"},
]

#: Three rounds on a double-9 set (round 1 starts with 9|9, round 2 with 8|8, round 3 with 7|7).
ROUNDS: list[list[dict[str, Any]]] = [
    [
        {"seat": 0, "points": 0, "went_out": True},
        {"seat": 1, "points": 14},
        {"seat": 2, "tiles": [[0, 0], [3, 4]]},  # the double blank counts 50: 57
        {"seat": 3, "points": 31},
    ],
    [
        {"seat": 0, "points": 22},
        {"seat": 1, "points": 9},
        {"seat": 2, "points": 0, "went_out": True},
        {"seat": 3, "tiles": [[9, 9], [1, 6]]},  # 25
    ],
    [
        {"seat": 0, "points": 5},
        {"seat": 1, "points": 0, "went_out": True},
        {"seat": 2, "points": 18},
        {"seat": 3, "points": 12},
    ],
]


def test_a_family_records_a_game_night_with_two_guests(
    players: list[Player],
    clients: list[APIClient],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: Ada creates the table on her phone, with Grace and two guests
    phone = clients[0]
    created = phone.post(
        "/api/matches",
        {
            "variant": "mexican_train",
            "play": "table",
            "options": {"max_pip": 9, "rounds": 3},
            "seats": SEATS,
        },
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    match = created.json()
    guests = [seat["player_id"] for seat in match["seats"][2:]]

    # when: one phone enters every round, the last one finishing the evening
    version = match["version"]
    with django_capture_on_commit_callbacks(execute=True):
        for number, scores in enumerate(ROUNDS, start=1):
            answer = phone.post(
                f"/api/matches/{match['id']}/rounds/{number}/scores",
                {"version": version, "scores": scores},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"night-round-{number}",
            )
            assert answer.status_code == HTTPStatus.CREATED, answer.content
            version = answer.json()["version"]

    # then: the totals add up the tiles as C-PIPS does, and C-WIN orders the table
    view = phone.get(f"/api/matches/{match['id']}").json()
    assert view["status"] == "finished"
    assert view["totals"] == [27, 23, 75, 68]
    assert [row["seat"] for row in view["standings"]] == [1, 0, 3, 2]
    places = dict(
        MatchResult.objects.filter(match_id=match["id"]).values_list("player_id", "place")
    )
    assert places == {players[1].pk: 1, players[0].pk: 2, guests[1]: 3, guests[0]: 4}
    # everyone at the table, guests included, is rated once
    rated = Rating.objects.filter(variant="mexican_train", matches=1)
    assert set(rated.values_list("player_id", flat=True)) == {players[0].pk, players[1].pk, *guests}
    # the evening is in Ada's and Grace's history, statistics and head-to-head
    history = phone.get(f"/api/players/{players[0].pk}/history", {"play": "table"}).json()
    assert [(row["match_id"], row["play"], row["place"]) for row in history["results"]] == [
        (match["id"], "table", 2)
    ]
    stats = clients[1].get(f"/api/players/{players[1].pk}/stats").json()
    assert (stats["matches"], stats["wins"]) == (1, 1)
    versus = phone.get(f"/api/players/{players[0].pk}/head-to-head/{players[1].pk}").json()
    assert versus["matches"] == 1
    # the score log keeps what the phone entered, round by round
    log = phone.get(f"/api/matches/{match['id']}/score-log").json()
    assert [(e["round"], e["kind"]) for e in log["entries"]] == [(n, "entry") for n in (1, 2, 3)]

    # and: Uncle Tito later takes his seat, and its result, into an account of his own
    code = phone.post(f"/api/matches/{match['id']}/seats/3/claim-code").json()["code"]
    tito = PlayerFactory()
    claimed = client_for(tito).post("/api/players/me/claims", {"code": code}, format="json")
    assert claimed.status_code == HTTPStatus.OK, claimed.content
    tito_history = client_for(tito).get(f"/api/players/{tito.pk}/history").json()
    assert [(row["match_id"], row["place"]) for row in tito_history["results"]] == [
        (match["id"], 3)
    ]
