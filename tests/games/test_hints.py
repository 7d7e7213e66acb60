"""Hints: only in a casual match created with them, only the asking seat's own move, once per
position, counted on the match; never rated."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.analysis.models import HintUse
from games.models import Match, Player
from scoring import ratings
from scoring.models import MatchResult
from scoring.services import match_finalise
from tests.games.helpers import play_to_end, submit

pytestmark = pytest.mark.django_db

SEATS = [{"kind": "creator"}, {"kind": "open"}]


def _create(client: APIClient, **extra: Any) -> Any:
    body = {"variant": "chickenfoot", "options": {"rounds": 1}, "seats": SEATS, **extra}
    return client.post("/api/matches", body, format="json")


def _hint_match(clients: list[APIClient]) -> int:
    created = _create(clients[0], hints=True)
    assert created.status_code == HTTPStatus.CREATED, created.content
    assert created.json()["hints"] is True
    match_id = created.json()["id"]
    assert clients[1].post(f"/api/matches/{match_id}/join", {}, format="json").status_code == 200
    assert clients[0].post(f"/api/matches/{match_id}/start").status_code == HTTPStatus.OK
    return int(match_id)


def test_a_hint_is_one_of_the_seats_own_legal_moves_once_a_position(
    clients: list[APIClient],
) -> None:
    match_id = _hint_match(clients)
    turn = Match.objects.get(pk=match_id).state["turn"]
    mine, other = clients[turn], clients[1 - turn]
    legal = mine.get(f"/api/matches/{match_id}/legal-moves").json()
    answer = mine.get(f"/api/matches/{match_id}/hint")
    assert answer.status_code == HTTPStatus.OK, answer.content
    hint = answer.json()
    assert hint["seat"] == turn
    assert hint["hints_used"] == 1
    sent = {k: v for k, v in hint["move"].items() if v is not None}
    assert sent in legal["moves"]
    assert hint["reason"]
    assert "\n" not in hint["reason"]
    again = mine.get(f"/api/matches/{match_id}/hint")
    assert again.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert again.json()["code"] == "hint_limit"
    not_yours = other.get(f"/api/matches/{match_id}/hint")
    assert not_yours.status_code == HTTPStatus.CONFLICT
    assert not_yours.json()["code"] == "not_your_turn"
    # the hint is playable as it is, and the next position gives a new hint
    assert submit(mine, match_id, {**sent, "version": legal["version"]}).status_code == 201
    summary = mine.get(f"/api/matches/{match_id}").json()
    assert summary["hints_used"][turn] == 1
    assert summary["hints_used"][1 - turn] == 0
    assert HintUse.objects.filter(match_id=match_id).count() == 1


def test_hints_are_off_in_any_other_match(clients: list[APIClient]) -> None:
    created = _create(clients[0]).json()
    assert created["hints"] is False
    assert created["hints_used"] is None
    clients[1].post(f"/api/matches/{created['id']}/join", {}, format="json")
    clients[0].post(f"/api/matches/{created['id']}/start")
    answer = clients[0].get(f"/api/matches/{created['id']}/hint")
    assert answer.status_code == HTTPStatus.CONFLICT
    assert answer.json()["code"] == "hints_off"


def test_a_table_match_refuses_hints(clients: list[APIClient]) -> None:
    answer = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "play": "table", "hints": True,
         "seats": [{"kind": "creator"}, {"kind": "guest", "name": "Bo"}]},
        format="json",
    )  # fmt: skip
    assert answer.status_code == HTTPStatus.BAD_REQUEST
    assert answer["Content-Type"] == "application/problem+json"
    assert "hints" in answer.json()["errors"]


def test_a_match_with_hints_is_never_rated(clients: list[APIClient], players: list[Player]) -> None:
    match_id = _hint_match(clients)
    play_to_end(clients[:2], match_id)
    match_finalise(match_id=match_id)
    reasons = set(
        MatchResult.objects.filter(match_id=match_id).values_list("unrated_reason", flat=True)
    )
    assert reasons == {ratings.HINTS}
    record = clients[0].get(f"/api/matches/{match_id}/record").json()
    assert record["match"]["hints"] is True
    assert record["match"]["hints_used"] == [0, 0]
    late = clients[0].get(f"/api/matches/{match_id}/hint")
    assert late.status_code == HTTPStatus.CONFLICT
    assert late.json()["code"] == "match_not_playing"
