"""Every SVG answer carries a Content-Security-Policy of its own: nothing may load, nothing may
run, nobody may frame it (docs/web.md, "What a page may run"). The endpoints are taken from the
schema, so that a new picture is checked as soon as it is declared."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.avatars.initials import initials_digest
from games.models import Match, Player
from tests.games.schema_check import openapi
from tests.scoring.competitions.conftest import make_competition

pytestmark = pytest.mark.django_db

SVG_POLICY = {
    "default-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'none'"],
    "sandbox": [],
}


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


def svg_paths() -> list[str]:
    """Every path whose GET answers 200 with an SVG document, as the schema declares it."""
    found = []
    for path, operations in openapi()["paths"].items():
        answer = operations.get("get", {}).get("responses", {}).get("200", {})
        if "image/svg+xml" in answer.get("content", {}):
            found.append(path)
    return sorted(found)


def test_the_schema_declares_the_five_pictures() -> None:
    assert svg_paths() == [
        "/api/competitions/{competition_id}/standings.svg",
        "/api/matches/{match_id}/board.svg",
        "/api/matches/{match_id}/scores.svg",
        "/api/players/{player_id}/avatar/{digest}.svg",
        "/api/players/{player_id}/rating.svg",
    ]


@pytest.mark.parametrize("path", svg_paths())
def test_every_svg_answer_loads_nothing_and_runs_nothing(
    path: str,
    players: list[Player],
    clients: list[APIClient],
    started_match: Callable[..., Match],
) -> None:
    # given: a match in play seen by its seat 0, a competition and a player's ratings
    players[0].is_organiser = True
    players[0].save(update_fields=["is_organiser"])
    match = started_match()
    competition = make_competition(players[0])
    digest = initials_digest(players[0].display_name, players[0].pk)
    url = path.format(
        match_id=match.pk, competition_id=competition.pk, player_id=players[0].pk, digest=digest
    )
    if "rating.svg" in path:
        url += "?variant=chickenfoot"

    # when
    response = clients[0].get(url)

    # then
    assert response.status_code == HTTPStatus.OK, response.content
    assert response["Content-Type"].startswith("image/svg+xml")
    assert directives(response["Content-Security-Policy"]) == SVG_POLICY
    # and the picture needs nothing the policy refuses: no script, style sheet or outside load
    body = response.content.decode()
    for needed in ("<script", "<style", "<image", "<foreignObject", "href=", "url("):
        assert needed not in body, needed


def test_a_refusal_of_a_picture_stays_problem_json_under_the_site_policy(
    clients: list[APIClient],
) -> None:
    response = clients[0].get("/api/matches/999999/board.svg")
    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response["Content-Type"] == "application/problem+json"
    assert directives(response["Content-Security-Policy"])["default-src"] == ["'self'"]
