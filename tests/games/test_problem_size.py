"""A problem repeats back only so much of a bad request: the first few keys, fields and messages,
each shortened, and a count of the rest (docs/errors.md, "What a problem repeats")."""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from chickenfoot.problems import (
    MAX_DETAIL_CHARS,
    MAX_LISTED,
    MAX_MESSAGES,
    Problem,
    errors_summary,
)
from games.models import Match

pytestmark = pytest.mark.django_db

SEATS = [{"kind": "creator"}, {"kind": "open"}]

#: The largest problem body any of these may be: a few dozen short lines.
MAX_BODY_BYTES = 8 * 1024


def test_unknown_options_are_listed_ten_and_counted(clients: list[APIClient]) -> None:
    # given: 999 unknown option keys, one of them a thousand characters long
    options = {f"option_{n:04}": 1 for n in range(998)} | {"x" * 1000: 1}

    # when
    response = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": SEATS, "options": options},
        format="json",
    )

    # then
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert len(response.content) < 1024
    body = response.json()
    assert body["code"] == "invalid_option"
    assert "option_0000, option_0001" in body["detail"]
    assert "option_0009 and 989 more." in body["detail"]


def test_a_list_of_bad_items_names_twenty_fields_and_counts_the_rest(
    clients: list[APIClient],
) -> None:
    seats = [{"kind": "robot", "level": "x" * 10}] * 900

    response = clients[0].post(
        "/api/matches", {"variant": "chickenfoot", "seats": seats}, format="json"
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert len(response.content) < MAX_BODY_BYTES, len(response.content)
    body = response.json()
    assert len(body.get("errors", {})) <= MAX_LISTED


def test_a_problem_caps_errors_messages_and_strings() -> None:
    # given: 50,000 fields in error, one with 50 messages, a detail and a member of 1 MB
    errors = {f"key_{n}": ["Unknown key."] for n in range(50_000)}
    errors["key_0"] = [f"message {n}" for n in range(50)]
    problem = Problem(
        status=400,
        code="invalid",
        title="Invalid input",
        detail=errors_summary(errors),
        errors=errors,
        extra={"problems": ["y" * 1_000_000] * 1000, "note": "z" * 1_000_000},
    )

    # when
    body = problem.as_dict()

    # then
    assert len(json.dumps(body)) < MAX_BODY_BYTES
    assert body["detail"].endswith("key_19 and 49,980 more.")
    assert len(body["errors"]) == MAX_LISTED
    assert body["errors"]["key_0"][:MAX_MESSAGES] == [f"message {n}" for n in range(5)]
    assert body["errors"]["key_0"][-1] == "… and 45 more."
    assert len(body["problems"]) == MAX_LISTED
    assert body["problems"][0].endswith("… (999,800 more characters)")
    assert len(body["note"]) < 300


def test_a_long_detail_is_shortened() -> None:
    problem = Problem(status=422, code="rule_violation", title="Rule violation", detail="d" * 10**6)

    detail = problem.as_dict()["detail"]

    assert detail.startswith("d" * MAX_DETAIL_CHARS)
    assert detail.endswith("(999,000 more characters)")


def test_a_long_move_target_is_not_sent_back_whole(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 2, {"rounds": 1})
    body = {"kind": "play", "tile": [0, 0], "target": "t" * 500_000, "version": match.version}

    response = clients[0].post(f"/api/matches/{match.pk}/moves", body, format="json")

    assert HTTPStatus.BAD_REQUEST <= response.status_code < HTTPStatus.INTERNAL_SERVER_ERROR
    assert len(response.content) < MAX_BODY_BYTES, len(response.content)
