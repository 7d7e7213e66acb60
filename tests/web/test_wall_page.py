"""The wall's page, ``/events/{id}/``: anyone reads a public competition's (404 while private,
for everyone), names are escaped by the template, two layouts, and no inline script or style."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Player
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.wall_world import HOSTILE, enter_round, wall_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(db: None) -> list[Player]:
    return [
        PlayerFactory(user__username=name, display_name=name.title()) for name in ("ada", "grace")
    ]


@pytest.fixture
def clients(players: list[Player]) -> list[APIClient]:
    return [client_for(p) for p in players]


def test_a_private_competition_s_page_is_not_found(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = wall_world(players, clients[0], public=False)
    organiser = Client()
    organiser.force_login(players[0].user)
    for client in (Client(), organiser):
        assert client.get(f"/events/{wall.competition.pk}/").status_code == HTTPStatus.NOT_FOUND


def test_the_page_shows_the_standings_and_tables_with_names_escaped(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = wall_world(players, clients[0])
    enter_round(clients[0], wall.match_id, 1, 0)
    response = Client().get(f"/events/{wall.competition.pk}/")
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert HOSTILE not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&amp;" in html
    assert re.search(r"<td class=\"name\">Ada</td>", html)
    assert "round 1 of 2 entered" in html
    assert 'class="wall layout-phone"' in html
    # no inline script or style: the policy allows the site's own files only
    assert re.findall(r"<script[^>]*>", html) == [
        '<script src="/jsi18n/">',
        '<script type="module" src="/static/games/web/language.js">',
        '<script type="module" src="/static/games/web/wall.js">',
    ]
    assert "<style" not in html
    assert " style=" not in html
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_the_projector_layout_is_asked_for_by_the_query(
    players: list[Player], clients: list[APIClient]
) -> None:
    wall = wall_world(players, clients[0])
    page = Client().get(f"/events/{wall.competition.pk}/?layout=projector").content.decode()
    assert 'class="wall layout-projector"' in page
    other = Client().get(f"/events/{wall.competition.pk}/?layout=%3Cb%3E").content.decode()
    assert 'class="wall layout-phone"' in other


def test_the_standings_show_a_column_per_tie_break_of_the_order(
    players: list[Player], clients: list[APIClient], django_capture_on_commit_callbacks: Any
) -> None:
    wall = wall_world(players, clients[0])
    wall.competition.tie_breaks = ["placement_points", "buchholz", "head_to_head", "total_points"]
    wall.competition.save(update_fields=["tie_breaks"])
    enter_round(clients[0], wall.match_id, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        enter_round(clients[0], wall.match_id, 2, 1)  # the results come in

    html = Client().get(f"/events/{wall.competition.pk}/").content.decode()

    head = re.search(r"<thead>(.*?)</thead>", html, re.S)
    assert head is not None
    assert re.findall(r"<th[^>]*>([^<]*)</th>", head.group(1)) == [
        "#", "Name", "Points", "Buchholz", "Head-to-head", "Total", "Matches", "By stage",
    ]  # fmt: skip
    assert 'data-key="buchholz"' in html
    # Ada: 4 points, Buchholz 2.0 (Grace's points), head-to-head 0 (nobody tied), 0 pips
    rows = re.findall(r"<tr>(<td>.*?)</tr>", html, re.S)
    cells = [re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in rows]
    assert cells[0][:6] == ["1", "Ada", "4.0", "2.0", "0", "0"]
    assert cells[1][:6] == ["2", "Grace", "2.0", "4.0", "0", "14"]
    assert HOSTILE not in html
    # and the sheets to print, which a public competition's wall offers anyone
    base = f"/api/competitions/{wall.competition.pk}"
    assert f'<a href="{base}/standings.pdf">Standings to print (PDF)</a>' in html
    assert f'<a href="{base}/crosstable.pdf">Crosstable to print (PDF)</a>' in html
    assert Client().get(f"{base}/standings.pdf")["Content-Type"] == "application/pdf"
