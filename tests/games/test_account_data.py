"""A player's data: the export holds what is theirs and the public record, never a hand; deleting
the account anonymises the player and changes nobody's standings or ratings."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import DeviceToken, Player
from scoring.models import Competition
from tests.games.factories import token_for
from tests.games.wall_world import HOSTILE, enter_round, wall_world

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"  # the player factory's


@pytest.fixture
def finished(
    players: list[Player], clients: list[APIClient], django_capture_on_commit_callbacks: Any
) -> int:
    """ada's running tournament, whose table match (ada, grace, a guest) has finished."""
    wall = wall_world(players, clients[0])
    with django_capture_on_commit_callbacks(execute=True):
        first = enter_round(clients[0], wall.match_id, 1, 0)
        enter_round(clients[0], wall.match_id, 2, first["version"])
    return wall.competition.pk


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def test_the_export_holds_the_players_own_record_and_nothing_of_anyone_else(
    players: list[Player], clients: list[APIClient], finished: int
) -> None:
    ada, grace = players[:2]

    answer = clients[1].get("/api/players/me/export")

    assert answer.status_code == HTTPStatus.OK, answer.content
    data = answer.json()
    assert data["account"]["username"] == "grace"
    assert data["account"]["display_name"] == "Grace"
    assert [t["id"] for t in data["tokens"]] == list(
        DeviceToken.objects.filter(user=grace.user).order_by("created").values_list("pk", flat=True)
    )
    assert [(s["position"], s["status"]) for s in data["seats"]] == [(1, "finished")]
    assert [(r["round_number"], r["seat"], r["points"]) for r in data["rounds"]] == [
        (1, 1, 7),
        (2, 1, 7),
    ]
    assert [(r["place"], r["total"]) for r in data["results"]] == [(2, 14)]
    assert [r["variant"] for r in data["ratings"]] == ["chickenfoot"]
    assert len(data["rating_changes"]) == 1
    assert [r["competition_id"] for r in data["registrations"]] == [finished]
    assert (data["organised"], data["score_entries"], data["claims"]) == ([], [], [])
    assert {n["kind"] for n in data["notifications"]} <= {
        "match_started",
        "your_turn",
        "match_over",
    }
    assert all(n["payload"]["match_id"] for n in data["notifications"])
    assert data["push_devices"] == []
    # never a hand, a token's key or digest, nor anyone else's name or points
    said = json.dumps(data)
    assert not keys_of(data) & {"hand", "hands", "tiles", "digest", "token_key", "key"}
    for other in (HOSTILE, "Ada", '"points": 12', '"points": 0'):
        assert other not in said
    # the organiser's own: what she organised and entered
    mine = clients[0].get("/api/players/me/export").json()
    assert [c["id"] for c in mine["organised"]] == [finished]
    assert [e["number"] for e in mine["score_entries"]] == [1, 2]
    assert ada.pk == mine["account"]["player_id"]


def _public_record(client: APIClient, competition_id: int) -> dict[str, Any]:
    wall = client.get(f"/api/public/competitions/{competition_id}/standings").json()
    wall.pop("now")  # the server's time as the wall was read (for its stage clock), not the record
    return {
        "standings": client.get(f"/api/competitions/{competition_id}/standings").json(),
        "leaderboard": client.get("/api/leaderboards/chickenfoot").json(),
        "wall": wall,
    }


def test_deleting_an_account_keeps_every_standing_and_rating_under_an_anonymous_name(
    players: list[Player], clients: list[APIClient], finished: int
) -> None:
    # given
    grace = players[1]
    before = _public_record(clients[2], finished)
    assert "Grace" in json.dumps(before)

    # when: a wrong password, then the right one
    wrong = clients[1].post("/api/players/me/delete", {"password": "not mine"}, format="json")
    deleted = clients[1].post("/api/players/me/delete", {"password": PASSWORD}, format="json")

    # then
    assert wrong.status_code == HTTPStatus.BAD_REQUEST
    assert wrong.json()["errors"] == {"password": ["Wrong password."]}
    assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted.content
    after = _public_record(clients[2], finished)
    anonymous = f"Deleted player {grace.pk}"
    assert json.dumps(after) == json.dumps(before).replace('"Grace"', f'"{anonymous}"')
    grace.refresh_from_db()
    assert (grace.user_id, grace.email, grace.display_name) == (None, "", anonymous)
    assert grace.deleted_at is not None
    # and: the account is gone: its token, its log-in; its username is free
    assert clients[1].get("/api/players/me").status_code == HTTPStatus.UNAUTHORIZED
    login = APIClient().post(
        "/api/auth/token", {"username": "grace", "password": PASSWORD}, format="json"
    )
    assert login.status_code == HTTPStatus.UNAUTHORIZED
    again = APIClient().post(
        "/api/players", {"username": "Grace", "password": "correct horse battery"}, format="json"
    )
    assert again.status_code == HTTPStatus.CREATED
    assert again.json()["player"]["id"] != grace.pk


def test_an_organiser_of_a_running_competition_is_refused_and_nothing_changes(
    players: list[Player], clients: list[APIClient], finished: int
) -> None:
    Competition.objects.filter(pk=finished).update(status=Competition.Status.RUNNING)

    refused = clients[0].post("/api/players/me/delete", {"password": PASSWORD}, format="json")

    assert refused.status_code == HTTPStatus.CONFLICT
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "still_organising"
    assert refused.json()["competitions"] == [finished]
    assert clients[0].get("/api/players/me").json()["name"] == "Ada"
    # once it has finished, the organiser may go
    Competition.objects.filter(pk=finished).update(status=Competition.Status.FINISHED)
    token_for(players[0], "spare")
    gone = clients[0].post("/api/players/me/delete", {"password": PASSWORD}, format="json")
    assert gone.status_code == HTTPStatus.NO_CONTENT
    assert not DeviceToken.objects.filter(user_id=players[0].user_id).exists()
    assert Competition.objects.get(pk=finished).organiser_id == players[0].pk


def test_deleting_needs_the_password(players: list[Player], clients: list[APIClient]) -> None:
    missing = clients[3].post("/api/players/me/delete")

    assert missing.status_code == HTTPStatus.BAD_REQUEST
    assert "password" in missing.json()["errors"]
    assert Player.objects.get(pk=players[3].pk).user_id is not None
