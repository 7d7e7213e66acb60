"""The strict contract: bodies taken exactly as documented, refusals with the right type, field,
title and grammar, and one renderer for every error body."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from chickenfoot.problems import ProblemJSONRenderer
from games.invitations.holds import seat_list
from games.models import Match, Move, Player, Round, Seat
from tests.games.helpers import submit

pytestmark = pytest.mark.django_db


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    return body


def row_counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Match, Seat, Round, Move, Player))


def a_play(client: APIClient, match: Match) -> dict[str, Any]:
    legal = client.get(f"/api/matches/{match.pk}/legal-moves").json()
    move: dict[str, Any] = next(m for m in legal["moves"] if m["kind"] == "play")
    return {**move, "version": legal["version"]}


# --- move bodies: no coercion, no unknown fields ----------------------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"version": "2"}, "version"),  # a string of digits is not a version
        ({"version": True}, "version"),
        ({"version": 2.0}, "version"),
        ({"version": -1}, "version"),
        ({"foo": 1}, "foo"),  # an unknown field
        ({"kind": "steal"}, "kind"),  # an unknown kind
        ({"kind": 1}, "kind"),
        ({"tile": [3, "x"]}, "tile.1"),
        ({"tile": [3]}, "tile"),
        ({"tile": [1, 2, 3]}, "tile"),
        ({"tile": "3|5"}, "tile"),
        ({"tile": [True, 1]}, "tile.0"),
        ({"target": 5}, "target"),
        ({"target": ""}, "target"),
        ({"target": "x" * 33}, "target"),
    ],
)
def test_a_move_body_that_is_not_a_move_is_malformed_and_names_the_field(
    clients: list[APIClient],
    started_match: Callable[..., Match],
    change: dict[str, Any],
    field: str,
) -> None:
    match = started_match()
    client = clients[match.state["turn"]]
    body = {**a_play(client, match), **change}
    before = row_counts()

    refused = problem(submit(client, match.pk, body), HTTPStatus.BAD_REQUEST, "malformed_move")

    assert refused["title"] == "Malformed move"
    assert field in refused["errors"], refused
    assert row_counts() == before
    match.refresh_from_db()
    assert match.moves_played == 0


@pytest.mark.parametrize(
    ("variant", "target"),
    [
        ("chickenfoot", "arm:7"),  # an arm this spinner lacks
        ("chickenfoot", "foot:3:toe:0"),  # a foot nobody opened
        ("chickenfoot", "nowhere"),
        ("mexican_train", "seat:9"),
        ("mexican_train", "arm:0"),
    ],
)
def test_an_unknown_target_is_malformed_not_a_rule(
    clients: list[APIClient], started_match: Callable[..., Match], variant: str, target: str
) -> None:
    match = started_match(variant)
    client = clients[match.state["turn"]]
    before = row_counts()

    refused = problem(
        submit(client, match.pk, {**a_play(client, match), "target": target}),
        HTTPStatus.BAD_REQUEST,
        "malformed_move",
    )

    assert list(refused["errors"]) == ["target"]
    assert target in refused["detail"]
    assert row_counts() == before


def test_a_well_formed_move_is_still_taken(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    client = clients[match.state["turn"]]

    response = submit(client, match.pk, a_play(client, match))

    assert response.status_code == HTTPStatus.CREATED, response.content


# --- versions ---------------------------------------------------------------------------------


def test_a_version_ahead_of_the_match_is_its_own_conflict(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    client = clients[match.state["turn"]]
    play = a_play(client, match)
    before = row_counts()

    ahead = problem(
        submit(client, match.pk, {**play, "version": match.version + 5}),
        HTTPStatus.CONFLICT,
        "version_ahead",
    )
    by_header = problem(
        submit(
            client,
            match.pk,
            {k: v for k, v in play.items() if k != "version"},
            HTTP_IF_MATCH=f'"{match.version + 1}"',
        ),
        HTTPStatus.CONFLICT,
        "version_ahead",
    )
    stale = problem(
        submit(client, match.pk, {**play, "version": match.version - 1}),
        HTTPStatus.CONFLICT,
        "stale_version",
    )

    assert ahead["title"] == "Version ahead"
    assert ahead["current_version"] == by_header["current_version"] == match.version
    assert stale["current_version"] == match.version
    assert row_counts() == before


# --- accounts ---------------------------------------------------------------------------------


def test_a_weak_password_is_refused_under_password() -> None:
    before = row_counts()

    refused = problem(
        APIClient().post("/api/players", {"username": "bob", "password": "123"}, format="json"),
        HTTPStatus.BAD_REQUEST,
        "invalid",
    )

    assert list(refused["errors"]) == ["password"]
    assert any("too short" in message for message in refused["errors"]["password"])
    assert row_counts() == before


# --- grammar and titles -----------------------------------------------------------------------


def test_open_seats_are_named_in_good_english() -> None:
    assert seat_list([1]) == "1"
    assert seat_list([1, 3]) == "1 and 3"
    assert seat_list([0, 1, 3]) == "0, 1 and 3"


@pytest.mark.parametrize(
    ("seats", "detail", "open_seats"),
    [
        (["creator", "open"], "Seat 1 is still open.", [1]),
        (["creator", "open", "open"], "Seats 1 and 2 are still open.", [1, 2]),
    ],
)
def test_starting_with_open_seats_says_which(
    clients: list[APIClient], seats: list[str], detail: str, open_seats: list[int]
) -> None:
    created = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": kind} for kind in seats]},
        format="json",
    )

    refused = problem(
        clients[0].post(f"/api/matches/{created.json()['id']}/start"),
        HTTPStatus.CONFLICT,
        "seats_open",
    )

    assert refused["detail"] == detail
    assert refused["open_seats"] == open_seats


def test_not_the_creator_has_its_own_title(clients: list[APIClient]) -> None:
    created = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]},
        format="json",
    )
    match_id = created.json()["id"]
    clients[1].post(f"/api/matches/{match_id}/join", {}, format="json")

    refused = problem(
        clients[1].post(f"/api/matches/{match_id}/start"), HTTPStatus.FORBIDDEN, "not_creator"
    )

    assert refused["title"] == "Not the creator"


# --- one renderer -----------------------------------------------------------------------------


def test_django_and_drf_error_bodies_are_formatted_alike(clients: list[APIClient]) -> None:
    django_404 = APIClient().get("/api/nowhere")  # no view: Django's handler404
    drf_404 = clients[0].get("/api/matches/999")  # a DRF view's problem
    drf_400 = APIClient().post("/api/players", {"username": "x"}, format="json")

    for response in (django_404, drf_404, drf_400):
        assert response["Content-Type"] == "application/problem+json"
        assert response.content == ProblemJSONRenderer().render(response.json())
    assert list(django_404.json()) == list(drf_404.json())  # the same members, in one order


# --- found by schemathesis's positive_data_acceptance and negative_data_rejection ---------------


def test_a_password_reset_takes_a_username_as_a_json_string_only() -> None:
    refused = problem(
        APIClient().post("/api/auth/password-reset", {"username": 7.8e239}, format="json"),
        HTTPStatus.BAD_REQUEST,
        "invalid",
    )
    assert "username" in refused["errors"], refused


def test_a_request_body_with_required_fields_is_declared_required() -> None:
    """A body the server cannot do without is not optional in the schema (the table settings'
    PATCH needs its ``confirmation``; without a body it is a 400)."""
    from tests.games.schema_check import openapi

    schema = openapi()
    schemas = schema["components"]["schemas"]
    optional = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody")
            if not body or body.get("required"):
                continue
            for media in body["content"].values():
                ref = media["schema"].get("$ref", "")
                if schemas.get(ref.rsplit("/", 1)[-1], {}).get("required"):
                    optional.append(f"{method.upper()} {path}")
    assert optional == []
