"""``GET /metrics`` (docs/operations.md, "Metrics"): hidden from whoever has no token and no
allowed address, the Prometheus text format for whoever has, and the figures it counts: requests
by route, moves, refusals by rule id, table score entries."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from chickenfoot.env import env_networks
from games import engine
from games.models import Match

TOKEN = "a-metrics-token-of-the-tests-own"


@pytest.fixture(autouse=True)
def _metrics_token(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOW_NETWORKS = []
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def scrape(client: APIClient | None = None) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample the endpoint answers, by name and labels."""
    client = client or APIClient()
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == HTTPStatus.OK, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def register(client: APIClient, username: str) -> None:
    response = client.post(
        "/api/players", {"username": username, "password": "correct horse battery"}, format="json"
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")


def started_against_a_bot(client: APIClient) -> Match:
    created = client.post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"rounds": 1},
            "seats": [{"kind": "creator"}, {"kind": "bot", "level": 1}],
        },
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    match_id = created.json()["id"]
    started = client.post(f"/api/matches/{match_id}/start")
    assert started.status_code == HTTPStatus.OK, started.content
    return Match.objects.get(pk=match_id)


# --- who may read it --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer wrong-token", f"Token {TOKEN}", f"Bearer {TOKEN}x", "Bearer "],
)
def test_without_the_token_it_is_not_there(authorization: str | None) -> None:
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}
    unknown = APIClient().get("/nothing-here-either")

    for method in ("get", "post", "head"):
        response = getattr(APIClient(), method)("/metrics", **headers)
        assert response.status_code == HTTPStatus.NOT_FOUND
        assert response["Content-Type"] == "application/problem+json"
    response = APIClient().get("/metrics", **headers)
    # the same problem as a path that does not exist, but for the path it names
    assert response.json() == unknown.json() | {"detail": "Nothing is served at /metrics."}


@pytest.mark.django_db
def test_no_token_is_accepted_while_none_is_set(settings: Any) -> None:
    settings.METRICS_TOKEN = ""

    for authorization in ("Bearer ", "Bearer  ", f"Bearer {TOKEN}"):
        response = APIClient().get("/metrics", HTTP_AUTHORIZATION=authorization)
        assert response.status_code == HTTPStatus.NOT_FOUND


@pytest.mark.django_db
def test_with_the_token_it_answers_the_text_format() -> None:
    samples = scrape()

    assert any(name.startswith("chickenfoot_") for name, _ in samples)


@pytest.mark.django_db
def test_an_address_in_the_allowed_networks_needs_no_token(settings: Any) -> None:
    settings.METRICS_ALLOW_NETWORKS = env_networks_of("10.0.0.0/8, 127.0.0.1")

    assert APIClient().get("/metrics").status_code == HTTPStatus.OK
    outside = APIClient(REMOTE_ADDR="192.168.1.9")
    assert outside.get("/metrics").status_code == HTTPStatus.NOT_FOUND
    # X-Forwarded-For is what a client writes: never believed here
    spoofed = APIClient(REMOTE_ADDR="192.168.1.9", HTTP_X_FORWARDED_FOR="10.1.2.3")
    assert spoofed.get("/metrics").status_code == HTTPStatus.NOT_FOUND
    assert APIClient(REMOTE_ADDR="10.200.0.1").get("/metrics").status_code == HTTPStatus.OK


def env_networks_of(value: str) -> list[Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("METRICS_ALLOW_NETWORKS", value)
        return env_networks("METRICS_ALLOW_NETWORKS")


def test_a_network_that_is_not_one_is_refused_at_start() -> None:
    with pytest.raises(ImproperlyConfigured, match="not an address or a network"):
        env_networks_of("10.0.0.0/8, everyone")


def test_the_schema_leaves_it_out() -> None:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json")

    assert response.status_code == HTTPStatus.OK
    assert not [path for path in response.json()["paths"] if "metrics" in path]


# --- what it counts ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_requests_are_counted_by_route_never_by_path() -> None:
    client = APIClient()
    register(client, "ada")
    match = started_against_a_bot(client)
    route = "/api/matches/<int:match_id>"
    before = scrape()

    for _ in range(3):
        assert client.get(f"/api/matches/{match.pk}").status_code == HTTPStatus.OK
    assert client.get("/api/matches/999999").status_code == HTTPStatus.NOT_FOUND
    assert APIClient().get(f"/no/such/{match.pk}").status_code == HTTPStatus.NOT_FOUND

    after = scrape()
    counted = "chickenfoot_http_requests_total"
    assert (
        value(after, counted, route=route, method="GET", status="200")
        - value(before, counted, route=route, method="GET", status="200")
        == 3
    )
    assert (
        value(after, counted, route=route, method="GET", status="404")
        - value(before, counted, route=route, method="GET", status="404")
        == 1
    )
    assert value(after, counted, route="unmatched", method="GET", status="404") > value(
        before, counted, route="unmatched", method="GET", status="404"
    )
    timed = "chickenfoot_http_request_duration_seconds_count"
    assert (
        value(after, timed, route=route, method="GET")
        - value(before, timed, route=route, method="GET")
        == 4
    )
    # no route label holds a path with an id in it
    routes = {dict(labels)["route"] for _, labels in after if "route" in dict(labels)}
    assert route in routes
    assert not [r for r in routes if re.search(r"/\d+(/|$)", r)], routes


@pytest.mark.django_db(transaction=True)
def test_a_move_is_counted_once_committed() -> None:
    client = APIClient()
    register(client, "ada")
    match = started_against_a_bot(client)
    before = scrape()
    moves_before = Match.objects.get(pk=match.pk).moves_played

    legal = client.get(f"/api/matches/{match.pk}/legal-moves").json()
    assert legal["moves"], legal
    response = client.post(
        f"/api/matches/{match.pk}/moves",
        {**legal["moves"][0], "version": legal["version"]},
        format="json",
    )
    assert response.status_code == HTTPStatus.CREATED, response.content

    after = scrape()
    played = Match.objects.get(pk=match.pk).moves_played - moves_before  # the bot's reply too
    assert played >= 1
    name = "chickenfoot_moves_total"
    assert (
        value(after, name, variant="chickenfoot") - value(before, name, variant="chickenfoot")
        == played
    )
    # and each of the bot's replies is timed from the start of its turn
    timed = "chickenfoot_bot_turn_seconds_count"
    replies = value(after, timed, variant="chickenfoot") - value(
        before, timed, variant="chickenfoot"
    )
    assert replies == played - 1


@pytest.mark.django_db(transaction=True)  # the bot, if it leads, plays on the start's commit
def test_a_refused_move_is_counted_by_its_rule() -> None:
    client = APIClient()
    register(client, "ada")
    match = started_against_a_bot(client)
    match.refresh_from_db()
    state = engine.from_json(match.state)
    seat = 0
    assert state.turn == seat, "the bot answers at once: the turn is the player's again"
    legal = engine.legal_moves(state, seat)
    before = scrape()

    # a draw while a play is possible; a pass while a draw is; a draw from no boneyard
    kinds = {move.kind for move in legal}
    body = {"kind": "draw"} if "play" in kinds or "draw" not in kinds else {"kind": "pass"}
    response = client.post(
        f"/api/matches/{match.pk}/moves", {**body, "version": match.version}, format="json"
    )
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY, response.content
    rule = response.json()["rule"]

    after = scrape()
    name = "chickenfoot_refusals_total"
    assert value(after, name, rule=rule) - value(before, name, rule=rule) == 1
