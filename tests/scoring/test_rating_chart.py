"""A player's rating over their matches, as an SVG chart read back point by point."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Player
from scoring import ratings
from scoring.models import RatingChange
from scoring.services import match_finalise
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def points(svg: bytes) -> list[tuple[str, float]]:
    root = ET.fromstring(svg)  # noqa: S314 (our own output)
    return [
        (c.get("data-step", ""), float(c.get("data-value", "nan")))
        for c in root.iter(f"{SVG}circle")
        if c.get("class") == "point"
    ]


def test_rating_chart_follows_the_rating_changes(
    players: list[Player], clients: list[APIClient]
) -> None:
    matches = []
    for scores in ([[0, 10, 20]], [[15, 0, 5]], [[0, 3, 9]]):
        match = make_finished_match(seated=players[:3], scores=scores)
        match_finalise(match_id=match.pk)
        matches.append(match)

    response = clients[1].get(
        f"/api/players/{players[0].pk}/rating.svg", {"variant": "chickenfoot"}
    )

    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"].startswith("image/svg+xml")
    changes = list(RatingChange.objects.filter(player=players[0]).order_by("id"))
    expected = [("before", ratings.display_rating(changes[0].ordinal_before))]
    expected += [(f"#{c.match_id}", ratings.display_rating(c.ordinal_after)) for c in changes]
    assert points(response.content) == [(step, float(value)) for step, value in expected]
    assert [step for step, _ in expected[1:]] == [f"#{m.pk}" for m in matches]

    latest = clients[1].get(
        f"/api/players/{players[0].pk}/rating.svg", {"variant": "chickenfoot", "matches": 1}
    )
    assert [step for step, _ in points(latest.content)] == ["before", f"#{matches[-1].pk}"]


def test_rating_chart_without_matches_and_refusals(
    players: list[Player], clients: list[APIClient]
) -> None:
    empty = clients[0].get(f"/api/players/{players[0].pk}/rating.svg", {"variant": "chickenfoot"})
    assert empty.status_code == HTTPStatus.OK
    assert points(empty.content) == []
    assert b"No data yet" in empty.content

    for query, status, code in (
        ({}, HTTPStatus.BAD_REQUEST, "invalid"),
        ({"variant": "poker"}, HTTPStatus.BAD_REQUEST, "invalid"),
        ({"variant": "chickenfoot", "colour": "red"}, HTTPStatus.BAD_REQUEST, "invalid"),
    ):
        refused = clients[0].get(f"/api/players/{players[0].pk}/rating.svg", query)
        assert refused.status_code == status
        assert refused["Content-Type"] == "application/problem+json"
        assert refused.json()["code"] == code
    unknown = clients[0].get("/api/players/999999/rating.svg", {"variant": "chickenfoot"})
    assert unknown.status_code == HTTPStatus.NOT_FOUND
    assert unknown.json()["code"] == "player_not_found"
