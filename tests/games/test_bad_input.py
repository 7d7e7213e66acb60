"""Bad input is a 4xx problem, never a 5xx: bodies too large or nested too deep, headers that
are not what they claim to be (docs/reliability.md, "Bad input")."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from chickenfoot.parsers import json_depth_exceeds
from games.models import Match, Move, Player
from tests.games.helpers import submit

pytestmark = pytest.mark.django_db

ONE_MIB = 1024 * 1024


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert (body["status"], body["code"]) == (status, code), body
    assert body["type"] == "https://chickenfoot.dev/problems/" + code.replace("_", "-")
    assert body["title"]
    assert body["detail"]
    return body


def oversized(size: int = ONE_MIB) -> bytes:
    """A JSON body one string long, just over ``size`` bytes."""
    return b'{"name": "' + b"a" * size + b'"}'


# --- size ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "authenticated"),
    [
        ("POST", "/api/matches", True),
        ("POST", "/api/players", False),
        ("POST", "/api/auth/token", False),
        ("POST", "/api/competitions", True),
    ],
)
def test_a_body_over_the_limit_is_413(
    clients: list[APIClient], players: list[Player], method: str, path: str, authenticated: bool
) -> None:
    players[0].is_organiser = True  # the right to create a competition is checked first
    players[0].save(update_fields=["is_organiser"])
    client = clients[0] if authenticated else APIClient()
    before = Match.objects.count()

    response = client.generic(method, path, oversized(), content_type="application/json")

    body = problem(response, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large")
    assert "1,048,576 bytes" in body["detail"]
    assert Match.objects.count() == before


def test_a_body_over_the_limit_outside_the_api_is_413_too() -> None:
    """Django's own views (the admin's login form) refuse it through the problem views."""
    client = Client(raise_request_exception=False)

    response = client.post(
        "/admin/login/", b"username=" + b"a" * ONE_MIB, "application/x-www-form-urlencoded"
    )

    problem(response, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large")


def test_the_size_limit_comes_from_the_environment_setting(
    clients: list[APIClient], settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100

    response = clients[0].generic(
        "POST", "/api/matches", oversized(100), content_type="application/json"
    )

    body = problem(response, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large")
    assert "100 bytes" in body["detail"]


def test_a_json_body_over_the_api_limit_is_413_unread(clients: list[APIClient]) -> None:
    before = Match.objects.count()
    body = oversized(64 * 1024)  # under Django's 1 MiB, over the API's 64 KiB

    response = clients[0].post("/api/matches", body, content_type="application/json")

    answer = problem(response, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large")
    assert "65,536 bytes" in answer["detail"]
    assert Match.objects.count() == before


def test_a_json_body_of_the_api_limit_is_parsed() -> None:
    body = b'{"username": "' + b"a" * (64 * 1024 - 16) + b'"}'
    assert len(body) == 64 * 1024

    response = APIClient().post("/api/players", body, content_type="application/json")

    problem(response, HTTPStatus.BAD_REQUEST, "invalid")  # too long a name, no password


# --- length --------------------------------------------------------------------------------


def test_a_move_with_a_tile_of_thousands_of_numbers_is_400_naming_it(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]
    body = {"kind": "play", "tile": [0] * 20_000, "target": "arm:0", "version": match.version}

    response = clients[turn].post(f"/api/matches/{match.pk}/moves", body, format="json")

    answer = problem(response, HTTPStatus.BAD_REQUEST, "too_many_items")
    assert answer["detail"] == "`tile` has 20,000 items; at most 1,000 are taken."
    match.refresh_from_db()
    assert Move.objects.filter(round__match=match).count() == match.moves_played


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"username": [1] * 1001, "password": "x"}, "`username` has 1,001 items"),
        ([1] * 5000, "The body has 5,000 items"),
        ({f"k{n}": 1 for n in range(1001)}, "The body has 1,001 members"),
        ({"a": [{"b": list(range(1001))}]}, "`a.0.b` has 1,001 items"),
    ],
)
def test_an_array_or_object_past_the_limit_is_400_before_validation(body: Any, detail: str) -> None:
    response = APIClient().post("/api/players", body, format="json")

    answer = problem(response, HTTPStatus.BAD_REQUEST, "too_many_items")
    assert answer["detail"].startswith(detail)


def test_an_array_of_the_limit_is_validated_as_usual(clients: list[APIClient]) -> None:
    response = APIClient().post(
        "/api/players", {"username": [1] * 1000, "password": "x"}, format="json"
    )

    problem(response, HTTPStatus.BAD_REQUEST, "invalid")


def test_the_length_limit_comes_from_the_environment_setting(settings: Any) -> None:
    settings.API_MAX_JSON_ITEMS = 3

    response = APIClient().post("/api/players", {"username": [1] * 4}, format="json")

    problem(response, HTTPStatus.BAD_REQUEST, "too_many_items")


# --- depth ---------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [33, 2_000, 10_000])
@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_json_nested_too_deep_is_400(clients: list[APIClient], depth: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    body = opener * depth + "1" + closer * depth
    before = Match.objects.count()

    response = clients[0].post("/api/matches", body, content_type="application/json")

    problem(response, HTTPStatus.BAD_REQUEST, "body_too_deep")
    assert Match.objects.count() == before


def test_json_nested_within_the_limit_is_validated_as_usual(clients: list[APIClient]) -> None:
    options: Any = 1
    for _ in range(30):
        options = {"x": options}

    response = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "options": options, "seats": [{"kind": "creator"}]},
        format="json",
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert response.json()["code"] != "body_too_deep"


def test_a_deep_move_body_is_400(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]

    response = clients[turn].post(
        f"/api/matches/{match.pk}/moves",
        "[" * 30_000 + "]" * 30_000,
        content_type="application/json",
    )

    problem(response, HTTPStatus.BAD_REQUEST, "body_too_deep")
    match.refresh_from_db()
    assert Move.objects.filter(round__match=match).count() == match.moves_played


@pytest.mark.parametrize(
    ("value", "limit", "exceeds"),
    [
        (1, 0, False),
        ([], 1, False),
        ([], 0, True),
        ({"a": [1, {"b": []}]}, 4, False),
        ({"a": [1, {"b": []}]}, 3, True),
        ([[1], [[2]]], 3, False),
        ([[1], [[2]]], 2, True),
    ],
)
def test_json_depth_counts_containers(value: Any, limit: int, exceeds: bool) -> None:
    assert json_depth_exceeds(value, limit) is exceeds


def test_json_depth_check_is_not_recursive() -> None:
    deep: Any = []
    for _ in range(200_000):
        deep = [deep]

    assert json_depth_exceeds(deep, 32) is True


# --- headers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        '"²"',  # a digit, but not an ASCII one: int() would take some of these, and not others
        '"١٢"',  # Arabic-Indic digits
        '"' + "9" * 5_000 + '"',  # more digits than int() converts
        '"' + "9" * 19 + '"',  # more digits than a version has
        '"-1"',
        '"1 2"',
        "W/",
    ],
)
def test_an_if_match_that_is_no_version_is_400(
    clients: list[APIClient], started_match: Callable[..., Match], header: str
) -> None:
    match = started_match()
    turn = match.state["turn"]
    move = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()["moves"][0]
    # Django's test client sends str headers as they are; a server would see them in latin-1.
    raw = header.encode().decode("latin-1")

    response = submit(clients[turn], match.pk, move, HTTP_IF_MATCH=raw)

    body = problem(response, HTTPStatus.BAD_REQUEST, "invalid_header")
    assert list(body["errors"]) == ["If-Match"]
    assert Match.objects.get(pk=match.pk).version == match.version


@pytest.mark.parametrize("header", ['"{v}"', 'W/"{v}"', "{v}", ' "{v}" '])
def test_an_if_match_in_any_documented_form_is_taken(
    clients: list[APIClient], started_match: Callable[..., Match], header: str
) -> None:
    match = started_match()
    turn = match.state["turn"]
    move = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()["moves"][0]

    response = submit(clients[turn], match.pk, move, HTTP_IF_MATCH=header.format(v=match.version))

    assert response.status_code == HTTPStatus.CREATED, response.content


@pytest.mark.parametrize("key", ["k" * 129, "k" * 5_000, "tab\there", "caf\xe9"])
def test_a_bad_idempotency_key_is_400_and_nothing_is_applied(
    clients: list[APIClient], started_match: Callable[..., Match], key: str
) -> None:
    match = started_match()
    turn = match.state["turn"]
    legal = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()
    move = {**legal["moves"][0], "version": legal["version"]}

    response = submit(clients[turn], match.pk, move, HTTP_IDEMPOTENCY_KEY=key)

    body = problem(response, HTTPStatus.BAD_REQUEST, "invalid_header")
    assert list(body["errors"]) == ["Idempotency-Key"]
    assert Match.objects.get(pk=match.pk).version == match.version


def test_an_idempotency_key_of_128_characters_is_kept(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]
    legal = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()
    move = {**legal["moves"][0], "version": legal["version"]}
    key = "k" * 127 + " "

    first = submit(clients[turn], match.pk, move, HTTP_IDEMPOTENCY_KEY=key)
    again = submit(clients[turn], match.pk, move, HTTP_IDEMPOTENCY_KEY=key)

    assert first.status_code == HTTPStatus.CREATED, first.content
    assert again.status_code == HTTPStatus.CREATED
    assert again["Idempotent-Replayed"] == "true"
    assert Move.objects.get(idempotency_key=key).seq == first.json()["move"]["seq"]


# --- ids -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["", "/legal-moves", "/rounds", "/log", "/board.svg", "/ticket", "/moves"]
)
@pytest.mark.parametrize("match_id", [2**63, 10**35])
def test_an_id_beyond_any_key_is_404(clients: list[APIClient], path: str, match_id: int) -> None:
    """Found by the fuzzer: SQLite refused to bind such an id in the raw query (500)."""
    method = "post" if path in ("/ticket", "/moves") else "get"
    body = {"kind": "draw", "version": 1} if path == "/moves" else None

    response = getattr(clients[0], method)(f"/api/matches/{match_id}{path}", body, format="json")

    problem(response, HTTPStatus.NOT_FOUND, "match_not_found")
