"""The request id: taken from ``X-Request-ID`` when sane, made otherwise, always sent back, and
carried by every log line of the request (chickenfoot/request_id.py)."""

from __future__ import annotations

import json
import logging
import re
from http import HTTPStatus

import pytest
from django.test import Client
from pythonjsonlogger.json import JsonFormatter

from chickenfoot.request_id import RequestIdFilter, request_id_current, request_id_from

pytestmark = pytest.mark.django_db

FRESH = re.compile(r"[0-9a-f]{32}")


def test_a_sane_request_id_is_echoed() -> None:
    response = Client().get("/api/health/live", HTTP_X_REQUEST_ID="move-42.a_B")
    assert response.status_code == HTTPStatus.OK
    assert response["X-Request-ID"] == "move-42.a_B"


@pytest.mark.parametrize(
    "given", ["", "a b", "x" * 65, "<script>", "id\u00e9", "semi;colon", "line\\nbreak"]
)
def test_an_insane_request_id_is_replaced_by_a_fresh_one(given: str) -> None:
    response = Client().get("/api/health/live", HTTP_X_REQUEST_ID=given)
    assert FRESH.fullmatch(response["X-Request-ID"]), response["X-Request-ID"]


def test_a_request_without_an_id_gets_a_fresh_one_each_time() -> None:
    first = Client().get("/api/health/live")["X-Request-ID"]
    second = Client().get("/api/health/live")["X-Request-ID"]
    assert FRESH.fullmatch(first)
    assert FRESH.fullmatch(second)
    assert first != second


def test_a_problem_answer_carries_the_request_id_too() -> None:
    response = Client().get("/api/nowhere", HTTP_X_REQUEST_ID="lost-1")
    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response["Content-Type"] == "application/problem+json"
    assert response["X-Request-ID"] == "lost-1"


def test_a_refused_request_carries_it_too() -> None:
    response = Client().get("/api/matches", HTTP_X_REQUEST_ID="who-am-i")
    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert response["X-Request-ID"] == "who-am-i"


def test_the_request_id_is_gone_after_the_request() -> None:
    Client().get("/api/health/live", HTTP_X_REQUEST_ID="short-lived")
    assert request_id_current() is None


def test_the_request_s_log_lines_carry_its_id(caplog: pytest.LogCaptureFixture) -> None:
    # given: the JSON lines of LOG_FORMAT=json, and the filter of the console handler
    caplog.handler.setFormatter(JsonFormatter("%(levelname)s %(name)s %(request_id)s %(message)s"))
    caplog.handler.addFilter(RequestIdFilter())
    # when: a request that logs (a 404 is logged by Django as a warning)
    with caplog.at_level(logging.WARNING):
        Client().get("/api/nowhere", HTTP_X_REQUEST_ID="traced-7")
    # then
    lines = [json.loads(line) for line in caplog.text.splitlines()]
    assert lines, "the request logged nothing"
    assert {line["request_id"] for line in lines} == {"traced-7"}


def test_request_id_from_keeps_only_sane_tokens() -> None:
    assert request_id_from("A-Za-z0-9._") == "A-Za-z0-9._"
    assert request_id_from("x" * 64) == "x" * 64
    assert FRESH.fullmatch(request_id_from(None))
    assert FRESH.fullmatch(request_id_from("x" * 65))
