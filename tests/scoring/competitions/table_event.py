"""A table tournament whose first stage has started, made through the API, for the tests of a
stage's scorer links and paper."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from rest_framework.test import APIClient

from games.models import Player
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

API = "/api/competitions"


def started_event(
    organiser_client: APIClient, names: list[str], **fields: Any
) -> tuple[int, list[Player]]:
    """A tournament (at the table unless ``fields`` say otherwise) with players of ``names``
    registered and checked in, and stage 1 started: its id and the players."""
    body = {
        "kind": "tournament",
        "play": "table",
        "name": "Club night",
        "variant": "chickenfoot",
        "table_size": 2,
        "stage_count": 2,
        "options": {"rounds": 2},
        **fields,
    }
    created = organiser_client.post(API, body, format="json")
    assert created.status_code == HTTPStatus.CREATED, created.content
    cid = created.json()["id"]
    players = [PlayerFactory(display_name=name) for name in names]
    for player in players:
        assert client_for(player).post(f"{API}/{cid}/register").status_code == HTTPStatus.OK
    assert organiser_client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    if body["play"] == "table":
        for player in players:
            checked = organiser_client.post(
                f"{API}/{cid}/check-in", {"player_id": player.pk}, format="json"
            )
            assert checked.status_code == HTTPStatus.OK, checked.content
    started = organiser_client.post(f"{API}/{cid}/stages", {"number": 1}, format="json")
    assert started.status_code == HTTPStatus.CREATED, started.content
    return cid, players
