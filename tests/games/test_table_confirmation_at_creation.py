"""Who confirms a table match's rounds, chosen when it is created: a table match's own
``confirmation``, and a table competition's, which its stage matches get; refused online."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from scoring.models import CompetitionMatch
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db
API = "/api/competitions"
SEATS = [{"kind": "creator"}, {"kind": "player", "username": "grace"}]


@pytest.fixture
def organiser(db: None) -> Player:
    return PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)


@pytest.fixture
def organiser_client(organiser: Player) -> APIClient:
    return client_for(organiser)


def _match(client: APIClient, **body: Any) -> Any:
    return client.post(
        "/api/matches",
        {"variant": "chickenfoot", "options": {"rounds": 1}, "seats": SEATS, **body},
        format="json",
    )


def test_a_table_match_takes_its_confirmation_at_creation(
    players: list[Player], clients: list[APIClient]
) -> None:
    # when
    created = _match(clients[0], play="table", confirmation="every_seat")
    # then
    assert created.status_code == HTTPStatus.CREATED, created.content
    view = clients[0].get(f"/api/matches/{created.json()['id']}").json()
    assert view["confirmation"] == "every_seat"
    round_1 = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 5}]
    entered = clients[0].post(
        f"/api/matches/{view['id']}/rounds/1/scores",
        {"version": 0, "scores": round_1},
        format="json",
    )
    assert entered.status_code == HTTPStatus.CREATED
    view = clients[1].get(f"/api/matches/{view['id']}").json()
    assert view["table_rounds"][0]["status"] == "awaiting_confirmation"


def test_without_one_a_table_match_confirms_nothing_and_an_online_match_shows_null(
    players: list[Player], clients: list[APIClient]
) -> None:
    table = _match(clients[0], play="table").json()
    assert clients[0].get(f"/api/matches/{table['id']}").json()["confirmation"] == "nobody"
    online = _match(clients[0], seats=[{"kind": "creator"}, {"kind": "bot", "level": 1}]).json()
    assert clients[0].get(f"/api/matches/{online['id']}").json()["confirmation"] is None


def test_an_online_match_refuses_a_confirmation_with_the_rest_at_once(
    players: list[Player], clients: list[APIClient]
) -> None:
    refused = _match(
        clients[0],
        seats=[{"kind": "creator"}, {"kind": "bot", "level": 9}],
        confirmation="every_seat",
    )
    assert refused.status_code == HTTPStatus.BAD_REQUEST
    body = refused.json()
    assert body["code"] == "invalid"
    assert "play: table" in body["errors"]["confirmation"][0]
    assert "seats.1.level" in body["errors"]  # every field at once
    alone = _match(clients[0], seats=[{"kind": "creator"}, {"kind": "open"}], confirmation="nobody")
    assert (alone.status_code, list(alone.json()["errors"])) == (400, ["confirmation"])


def test_a_table_match_refuses_an_unknown_confirmation(
    players: list[Player], clients: list[APIClient]
) -> None:
    refused = _match(clients[0], play="table", confirmation="everybody")
    assert refused.status_code == HTTPStatus.BAD_REQUEST
    assert "confirmation" in refused.json()["errors"]


def _tournament(client: APIClient, **fields: Any) -> Any:
    body = {
        "kind": "tournament",
        "play": "table",
        "name": "Club night",
        "variant": "chickenfoot",
        "table_size": 2,
        "stage_count": 1,
        "options": {"rounds": 1},
        **fields,
    }
    return client.post(API, body, format="json")


def test_a_table_tournament_s_confirmation_reaches_its_stage_matches(
    organiser: Player, organiser_client: APIClient
) -> None:
    # given
    created = _tournament(organiser_client, confirmation="any_other_seat")
    assert created.status_code == HTTPStatus.CREATED, created.content
    cid = created.json()["id"]
    assert created.json()["confirmation"] == "any_other_seat"
    assert organiser_client.get(f"{API}/{cid}").json()["confirmation"] == "any_other_seat"
    ann, ben = PlayerFactory(display_name="Ann"), PlayerFactory(display_name="Ben")
    for player in (ann, ben):
        client = client_for(player)
        assert client.post(f"{API}/{cid}/register").status_code == HTTPStatus.OK
    assert organiser_client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    for player in (ann, ben):
        client_for(player).post(f"{API}/{cid}/check-in", {}, format="json")
    # when
    started = organiser_client.post(f"{API}/{cid}/stages", {"number": 1}, format="json")
    assert started.status_code == HTTPStatus.CREATED, started.content
    # then
    match_id = CompetitionMatch.objects.get(competition_id=cid).match_id
    view = client_for(ann).get(f"/api/matches/{match_id}").json()
    assert view["confirmation"] == "any_other_seat"
    # the match's creator may still set its own
    settings = organiser_client.patch(
        f"/api/matches/{match_id}/table-settings", {"confirmation": "nobody"}, format="json"
    )
    assert settings.status_code == HTTPStatus.OK
    assert client_for(ann).get(f"/api/matches/{match_id}").json()["confirmation"] == "nobody"


def test_a_competition_without_one_confirms_nothing_and_online_refuses_one(
    organiser: Player, organiser_client: APIClient
) -> None:
    assert _tournament(organiser_client).json()["confirmation"] == "nobody"
    online = _tournament(organiser_client, play="online", table_size=4)
    assert online.json()["confirmation"] is None
    refused = _tournament(organiser_client, play="online", confirmation="every_seat")
    assert refused.status_code == HTTPStatus.BAD_REQUEST
    body = refused.json()
    assert body["code"] == "invalid_competition"
    assert "play: table" in body["errors"]["confirmation"][0]
    bad = _tournament(organiser_client, confirmation="sometimes")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    assert "confirmation" in bad.json()["errors"]
