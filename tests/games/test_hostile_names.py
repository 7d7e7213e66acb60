"""Hostile display names through the API: every picture, the CSV and every page carry a name as
text or an attribute value only, never as markup (the same elements and attributes as when the
same players have plain names), and the names the API cannot store are refused cleanly."""

from __future__ import annotations

import csv
import io
import json
import random
from html.parser import HTMLParser
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from tests.foundation.hostile import (
    STORABLE,
    UNSTORABLE,
    as_attribute,
    as_isolated_text,
    attribute_values,
    shape,
    texts,
)
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.drive import play_matches

TOURNAMENT = {
    "kind": "tournament",
    "name": STORABLE[0],
    "variant": "chickenfoot",
    "options": {"rounds": 1},
    "table_size": 3,
    "allow_bots": False,
    "stage_count": 1,
}


class _Markup(HTMLParser):
    """Every start tag's name and attribute names, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, tuple[str, ...]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, tuple(sorted(name for name, _ in attrs))))


def html_shape(html: str) -> list[tuple[str, tuple[str, ...]]]:
    parser = _Markup()
    parser.feed(html)
    return parser.tags


def _tournament(players: list[Player]) -> dict[str, Any]:
    """A one-stage tournament of ``players`` (three tables of three) played to the end."""
    organiser = client_for(PlayerFactory(is_organiser=True))
    created = organiser.post("/api/competitions", TOURNAMENT, format="json")
    assert created.status_code == HTTPStatus.CREATED, created.content
    competition_id = created.json()["id"]
    base = f"/api/competitions/{competition_id}"
    clients = {p.pk: client_for(p) for p in players}
    for client in clients.values():
        assert client.post(f"{base}/register").status_code == HTTPStatus.OK
    organiser.post(f"{base}/close")
    stage = organiser.post(f"{base}/stages", {"number": 1}, format="json")
    assert stage.status_code == HTTPStatus.CREATED, stage.content
    match_ids = [t["match_id"] for t in stage.json()["tables"]]
    play_matches(match_ids, clients, random.Random(5))
    return {"id": competition_id, "matches": match_ids, "client": organiser}


def _everything(client: APIClient, tournament: dict[str, Any], player_id: int) -> dict[str, str]:
    """Every picture, the CSV and every page, by what they are."""
    base = f"/api/competitions/{tournament['id']}"
    urls = {
        "standings.svg": f"{base}/standings.svg",
        "rating.svg": f"/api/players/{player_id}/rating.svg?variant=chickenfoot",
        "csv": f"{base}/standings.csv",
        "crosstable csv": f"{base}/crosstable.csv",
        "page /": "/",
        "page player": f"/players/{player_id}/",
        "page competition": f"/competitions/{tournament['id']}/",
    }
    for match_id in tournament["matches"]:
        urls[f"scores.svg {match_id}"] = f"/api/matches/{match_id}/scores.svg"
        urls[f"board.svg {match_id}"] = f"/api/matches/{match_id}/board.svg"
        urls[f"board.svg {match_id} round 1"] = f"/api/matches/{match_id}/board.svg?round=1"
        urls[f"page match {match_id}"] = f"/matches/{match_id}/"
    bodies = {}
    for what, url in urls.items():
        response = client.get(url)
        assert response.status_code == HTTPStatus.OK, (what, response.content)
        bodies[what] = response.content.decode()
    return bodies


@pytest.mark.django_db(transaction=True)  # the end-of-match work runs after commit
def test_hostile_names_are_text_and_values_in_every_picture_csv_and_page() -> None:
    # given nine players with hostile names, and a tournament they played to the end
    players = [
        PlayerFactory(user__username=f"h{i}", display_name=name) for i, name in enumerate(STORABLE)
    ]
    tournament = _tournament(players)
    viewer = client_for(players[0])

    # when everything is rendered with those names, and again once they are plain names
    hostile = _everything(viewer, tournament, players[0].pk)
    for index, player in enumerate(players):
        Player.objects.filter(pk=player.pk).update(display_name=f"Plain {index}")
    plain = _everything(viewer, tournament, players[0].pk)

    # then the markup is the same, and each name is there as it was written
    for what, body in hostile.items():
        if what.endswith("csv"):
            continue
        if what.startswith("page"):
            assert html_shape(body) == html_shape(plain[what]), what
            assert not any(name in body for name in STORABLE), what
        else:
            assert shape(body) == shape(plain[what]), what
    series = set(attribute_values(hostile["standings.svg"]))
    assert {as_attribute(name) for name in STORABLE} <= series
    title = f"{as_isolated_text(TOURNAMENT['name'])}: placement points by stage"
    assert title in texts(hostile["standings.svg"])
    for match_id in tournament["matches"]:
        charted = attribute_values(hostile[f"scores.svg {match_id}"])
        seated = texts(hostile[f"board.svg {match_id} round 1"])
        at_table = [p for p in players if p.seats.filter(match_id=match_id).exists()]
        assert len(at_table) == 3
        for player in at_table:
            assert as_attribute(player.display_name) in charted
            assert f"{as_isolated_text(player.display_name)} held" in seated
    for what in ("csv", "crosstable csv"):
        rows = list(csv.DictReader(io.StringIO(hostile[what], newline="")))
        shown = {row["name"] for row in rows}
        assert shown == {f"'{n}" if n.startswith("=") else n for n in STORABLE}, what


@pytest.mark.django_db
@pytest.mark.parametrize("name", UNSTORABLE)
def test_names_the_database_cannot_hold_are_refused_at_registration(name: str) -> None:
    body = {"username": "someone", "password": "a long enough passphrase", "display_name": name}
    response = APIClient().post(
        "/api/players", json.dumps(body), content_type="application/json"
    )  # json.dumps writes a lone surrogate as the escape \ud800, as a hostile client would
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "invalid"
    assert list(problem["errors"]) == ["display_name"]
    assert not Player.objects.exists()
