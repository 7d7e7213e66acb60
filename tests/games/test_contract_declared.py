"""The schema says what the server does (issue 33): an answer the server gives is declared,
a value the schema allows is taken, and one it refuses is refused.

Every answer of the suite is checked against the schema (``tests/conftest.py``); these tests pin
the cases an outside run of schemathesis found, and walk the views for what the schema must
declare of each (a throttled operation declares 429)."""

from __future__ import annotations

import re
from http import HTTPStatus

import pytest
from drf_spectacular.generators import EndpointEnumerator

from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.schema_check import openapi

RECORD = "/api/matches/{match_id}/record"
SCORE_LOG = "/api/matches/{match_id}/score-log"
COMPETITIONS = "/api/competitions"


def _parameter(path: str, name: str) -> dict:
    (found,) = [p for p in openapi()["paths"][path]["get"]["parameters"] if p["name"] == name]
    return found


def test_a_match_s_record_declares_its_403_for_those_who_may_not_look() -> None:
    answer = openapi()["paths"][RECORD]["get"]["responses"]["403"]
    examples = answer["content"]["application/problem+json"]["examples"]
    assert [e["value"]["code"] for e in examples.values()] == ["not_your_match"]


def test_the_score_log_s_paging_is_bounded_in_the_schema_as_the_server_bounds_it() -> None:
    assert _parameter(SCORE_LOG, "limit")["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
    }
    assert _parameter(SCORE_LOG, "after")["schema"] == {"type": "integer", "minimum": 0}


def test_a_string_query_parameter_declares_that_it_needs_a_value() -> None:
    """``?cursor=`` is refused (leave it out to mean any): the schema says a value is needed."""
    strings = [
        (path, parameter)
        for path, operations in openapi()["paths"].items()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query" and parameter["schema"].get("type") == "string"
    ]
    assert ("/api/notifications", _parameter("/api/notifications", "cursor")) in strings
    for path, parameter in strings:
        schema = parameter["schema"]
        needs_a_value = "enum" in schema or re.search(schema.get("pattern", "^$"), " ") is None
        assert needs_a_value, (path, parameter)
        assert schema.get("minLength", 1) >= 1, (path, parameter)


def test_every_throttled_operation_declares_its_429() -> None:
    paths = openapi()["paths"]
    undeclared = [
        f"{method} {path}"
        for path, _regex, method, view in EndpointEnumerator().get_api_endpoints()
        if getattr(view.cls, "throttle_classes", None)
        and "429" not in paths[path][method.lower()]["responses"]
    ]
    assert undeclared == []
    assert "429" in paths["/api/matches/{match_id}/reopen"]["post"]["responses"]


@pytest.mark.django_db
@pytest.mark.parametrize("value", [0, 1, "true", "false", None])
def test_a_boolean_of_a_competition_is_a_json_boolean(value: object) -> None:
    client = client_for(PlayerFactory(is_organiser=True))
    body = {"kind": "league", "name": "L", "variant": "chickenfoot", "table_size": 2}

    refused = client.post(COMPETITIONS, {**body, "allow_bots": value}, format="json")

    assert refused.status_code == HTTPStatus.BAD_REQUEST, refused.content
    assert set(refused.json()["errors"]) == {"allow_bots"}
    taken = client.post(COMPETITIONS, {**body, "allow_bots": False}, format="json")
    assert taken.status_code == HTTPStatus.CREATED, taken.content


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{"ids": [2**64]}, {"up_to": 2**64}, {"ids": [1, 2**63]}])
def test_a_notification_id_past_64_bits_is_refused_not_a_500(body: dict) -> None:
    client = client_for(PlayerFactory())

    refused = client.post("/api/notifications/read", body, format="json")

    assert refused.status_code == HTTPStatus.BAD_REQUEST, refused.content
    assert refused.json()["code"] == "invalid"


def test_fields_that_exclude_each_other_are_declared_so() -> None:
    schemas = openapi()["components"]["schemas"]
    assert schemas["EntrantAddRequest"]["oneOf"] == [
        {"required": ["name"]},
        {"required": ["username"]},
        {"required": ["player_id"]},
    ]
    assert schemas["NotificationsReadRequest"]["oneOf"] == [
        {"required": ["ids"]},
        {"required": ["up_to"]},
    ]
    assert schemas["MatchReopenRequest"]["additionalProperties"] is False
    assert schemas["PatchedTableSettingsRequest"]["required"] == ["confirmation"]
