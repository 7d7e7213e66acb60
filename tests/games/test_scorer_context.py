"""What a scorer code opens, for the scorer's page (``GET /api/scorer``), and the score log a
scorer link reads (its own match's only)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Competition
from tests.games.test_table_scorer_links import issue, scorer
from tests.games.test_table_scores import GOOD, create, post
from tests.games.wall_world import HOSTILE, wall_world

pytestmark = pytest.mark.django_db


def test_a_code_names_its_match_and_no_event_for_a_standalone_table(
    clients: list[APIClient],
) -> None:
    # given
    table = create(clients[0])
    phone = scorer(issue(clients[0], table["id"])["code"])

    # when
    answer = phone.get("/api/scorer")

    # then
    assert answer.status_code == HTTPStatus.OK, answer.content
    body = answer.json()
    assert body.pop("now")  # the server's time, for a clock
    assert body == {"match_id": table["id"], "variant": table["variant"], "event": None}
    assert answer["Cache-Control"] == "no-store"


def test_a_code_of_an_event_table_names_the_competition_stage_and_table(
    clients: list[APIClient], players: list[Any]
) -> None:
    # given: the table match is table 1 of stage 1 of a tournament
    wall = wall_world(players, clients[0])
    Competition.objects.filter(pk=wall.competition.pk).update(name=HOSTILE)
    phone = scorer(issue(clients[0], wall.match_id)["code"])

    # when
    answer = phone.get("/api/scorer").json()

    # then: the name is data, as written
    assert answer["event"] == {
        "competition_id": wall.competition.pk,
        "name": HOSTILE,
        "stage": 1,
        "table": 1,
        "clock": None,  # no stage clock started
    }


def test_a_token_an_unknown_code_and_a_revoked_one_are_refused(clients: list[APIClient]) -> None:
    table = create(clients[0])
    link = issue(clients[0], table["id"])
    clients[0].delete(f"/api/matches/{table['id']}/scorer-links/{link['id']}")

    answers = {
        "token": clients[0].get("/api/scorer"),
        "nobody": APIClient().get("/api/scorer"),
        "unknown": scorer("ABCDEFGHJK").get("/api/scorer"),
        "revoked": scorer(link["code"]).get("/api/scorer"),
    }

    assert {name: (a.status_code, a.json()["code"]) for name, a in answers.items()} == {
        "token": (HTTPStatus.FORBIDDEN, "not_scorer"),
        "nobody": (HTTPStatus.UNAUTHORIZED, "not_authenticated"),
        "unknown": (HTTPStatus.UNAUTHORIZED, "authentication_failed"),
        "revoked": (HTTPStatus.UNAUTHORIZED, "authentication_failed"),
    }


def test_a_link_reads_its_own_match_score_log_and_no_other(clients: list[APIClient]) -> None:
    # given: round 1 entered by the phone
    table = create(clients[0])
    other = create(clients[0])
    phone = scorer(issue(clients[0], table["id"])["code"])
    assert post(phone, table["id"], 1, GOOD).status_code == HTTPStatus.CREATED

    # when
    own = phone.get(f"/api/matches/{table['id']}/score-log")
    theirs = phone.get(f"/api/matches/{other['id']}/score-log")

    # then
    assert own.status_code == HTTPStatus.OK, own.content
    assert [entry["kind"] for entry in own.json()["entries"]] == ["entry"]
    assert own.json()["entries"][0]["author"] is None
    assert (theirs.status_code, theirs.json()["code"]) == (HTTPStatus.FORBIDDEN, "not_scorer")
