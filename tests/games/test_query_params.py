"""Filters and other query parameters are taken as documented: a typo, an empty value or a
repeat is a 400 naming the parameter, never an answer with every row (issue: ``?status=``)."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player

pytestmark = pytest.mark.django_db


def refused(response: object, name: str) -> None:
    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content  # type: ignore[attr-defined]
    assert response["Content-Type"] == "application/problem+json"  # type: ignore[index]
    body = response.json()  # type: ignore[attr-defined]
    assert body["code"] == "invalid"
    assert list(body["errors"]) == [name]


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("status=", "status"),
        ("status=%20", "status"),
        ("status=open&status=playing", "status"),
        ("statsu=open", "statsu"),
        ("status=won", "status"),
        ("page_size=", "page_size"),
        ("page_size=false", "page_size"),
        ("page_size=-1", "page_size"),
        ("page_size=%C2%B2", "page_size"),
        ("page_size=" + "1" * 5000, "page_size"),
        ("page_size=101", "page_size"),
    ],
)
def test_a_bad_filter_of_my_matches_is_400(
    clients: list[APIClient], started_match: Callable[..., Match], query: str, name: str
) -> None:
    started_match()

    refused(clients[0].get(f"/api/matches/mine?{query}"), name)


@pytest.mark.parametrize(
    ("query", "name"),
    [("page_size=false", "page_size"), ("page_size=101", "page_size"), ("status=open", "status")],
)
def test_a_bad_parameter_of_the_lobby_is_400(
    clients: list[APIClient], query: str, name: str
) -> None:
    refused(clients[0].get(f"/api/matches/open?{query}"), name)


@pytest.mark.parametrize(
    ("path", "query", "name"),
    [
        ("/log", "after=", "after"),
        ("/log", "limit=", "limit"),
        ("/log", "after=1&after=2", "after"),
        ("/log", "afterr=1", "afterr"),
        ("/board.svg", "round=", "round"),
        ("/board.svg", "seq=", "seq"),
        ("/board.svg", "rnd=1", "rnd"),
        # past any id the database holds: refused, never sent to it
        ("/log", f"after={2**63}", "after"),
        ("/board.svg", f"round={2**63}", "round"),
        ("/board.svg", f"seq={2**63}", "seq"),
    ],
)
def test_a_bad_parameter_of_a_match_is_400(
    clients: list[APIClient], started_match: Callable[..., Match], path: str, query: str, name: str
) -> None:
    match = started_match()

    refused(clients[0].get(f"/api/matches/{match.pk}{path}?{query}"), name)


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/api/competitions?kind=", "kind"),
        ("/api/competitions?status=", "status"),
        ("/api/competitions?knd=league", "knd"),
        ("/api/competitions?variant=chickenfoot&variant=mexican_train", "variant"),
        ("/api/players/{me}/history?variant=", "variant"),
        ("/api/players/{me}/history?status=", "status"),
        ("/api/players/{me}/stats?variant=", "variant"),
        ("/api/leaderboards/chickenfoot?min_matches=", "min_matches"),
        ("/api/leaderboards/chickenfoot?page_size=false", "page_size"),
        ("/api/players/{me}/history?page_size=0", "page_size"),
        ("/api/players/{me}/history?page_size=101", "page_size"),
        ("/api/leaderboards/chickenfoot?page_size=201", "page_size"),
        ("/api/competitions/{competition}/standings?format=", "format"),
    ],
)
def test_a_bad_filter_of_the_scoring_lists_is_400(
    clients: list[APIClient], players: list[object], url: str, name: str
) -> None:
    me = players[0].pk  # type: ignore[attr-defined]
    Player.objects.filter(pk=me).update(is_organiser=True)
    competition = (
        clients[0]
        .post(
            "/api/competitions",
            {"kind": "league", "name": "L", "variant": "chickenfoot", "table_size": 2},
            format="json",
        )
        .json()["id"]
    )

    refused(clients[0].get(url.format(me=me, competition=competition)), name)


def test_good_filters_still_filter(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()

    playing = clients[0].get("/api/matches/mine?status=playing&page=1&page_size=10").json()
    finished = clients[0].get("/api/matches/mine?status=finished").json()
    log = clients[0].get(f"/api/matches/{match.pk}/log?after=0&limit=5")

    assert [row["id"] for row in playing["results"]] == [match.pk]
    assert finished["results"] == []
    assert log.status_code == HTTPStatus.OK


def test_the_schema_states_the_seat_bounds() -> None:
    from tests.games.schema_check import openapi

    schemas = openapi()["components"]["schemas"]
    for name in ("ChickenFootMatchCreateRequest", "MexicanTrainMatchCreateRequest"):
        seats = schemas[name]["properties"]["seats"]
        assert (seats["minItems"], seats["maxItems"]) == (2, 22)
    summary = schemas["MatchSummary"]["properties"]
    assert (summary["seat_count"]["minimum"], summary["seat_count"]["maximum"]) == (2, 22)


def test_every_operation_with_query_parameters_or_a_body_documents_its_400() -> None:
    from tests.games.schema_check import openapi

    missing = []
    for path, operations in openapi()["paths"].items():
        for method, operation in operations.items():
            # `format` picks a renderer (DRF's content negotiation): one it lacks is a 404
            queries = [
                p
                for p in operation.get("parameters", [])
                if p["in"] == "query" and p["name"] != "format"
            ]
            if (queries or "requestBody" in operation) and "400" not in operation["responses"]:
                missing.append(f"{method.upper()} {path}")
    assert missing == []


@pytest.mark.parametrize("organiser", ["-5.35e%2B113", "1.5", str(2**63), "0"])
def test_an_organiser_filter_that_is_no_id_is_400(clients: list[APIClient], organiser: str) -> None:
    """Found by the fuzzer: a decimal of 113 digits reached SQLite (500)."""
    refused(clients[0].get(f"/api/competitions?organiser={organiser}"), "organiser")
