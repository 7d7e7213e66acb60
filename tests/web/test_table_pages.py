"""The pages of play at a table, as served: the scorer's page (``/score/<code>/``) is the same
shell for any code, keeps the code out of its markup and sends no referrer; the organiser's
stage dashboard is a shell too. Both run the site's own scripts only."""

from __future__ import annotations

import re
from http import HTTPStatus

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Player
from games.tables.scorer_links import scorer_link_issue
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.wall_world import wall_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(db: None) -> list[Player]:
    return [
        PlayerFactory(user__username=name, display_name=name.title()) for name in ("ada", "grace")
    ]


@pytest.fixture
def clients(players: list[Player]) -> list[APIClient]:
    return [client_for(p) for p in players]


def only_own_scripts(html: str, script: str) -> None:
    assert re.findall(r"<script[^>]*>", html) == [
        '<script src="/jsi18n/">',
        '<script type="module" src="/static/games/web/language.js">',
        f'<script type="module" src="/static/games/web/{script}">',
    ]
    assert re.search(r"\son[a-z]+=", html) is None
    assert "<style" not in html
    assert " style=" not in html


def test_the_scorer_page_is_one_shell_for_a_live_code_a_revoked_one_and_nonsense(
    players: list, clients: list
) -> None:
    # given: a live link, a revoked one, and codes that open nothing
    wall = wall_world(players, clients[0])
    live = scorer_link_issue(match_id=wall.match_id, player=players[0])
    revoked = scorer_link_issue(match_id=wall.match_id, player=players[0])
    clients[0].delete(f"/api/matches/{wall.match_id}/scorer-links/{revoked.link.pk}")
    codes = [live.code, revoked.code, "ABCDEFGHJK", "%3Cscript%3E"]

    # when
    answers = [Client().get(f"/score/{code}/") for code in codes]

    # then: the same page for each, which tells nothing of the code
    bodies = {answer.content for answer in answers}
    assert [answer.status_code for answer in answers] == [HTTPStatus.OK] * len(codes)
    assert len(bodies) == 1
    html = answers[0].content.decode()
    assert live.code not in html
    assert "<script>" not in html
    only_own_scripts(html, "scorer.js")
    for answer in answers:
        assert answer["Referrer-Policy"] == "no-referrer"
        assert answer["Cache-Control"] == "no-store"
        assert "script-src 'self'" in answer["Content-Security-Policy"]
    assert '<meta name="referrer" content="no-referrer">' in html


def test_the_dashboard_page_is_a_shell_under_the_policy(players: list, clients: list) -> None:
    wall = wall_world(players, clients[0])

    answer = Client().get(f"/competitions/{wall.competition.pk}/stages/1/")

    assert answer.status_code == HTTPStatus.OK
    only_own_scripts(answer.content.decode(), "stage.js")
    assert "script-src 'self'" in answer["Content-Security-Policy"]
    assert f'data-competition-id="{wall.competition.pk}"' in answer.content.decode()
