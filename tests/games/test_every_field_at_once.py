"""A request with several bad fields is answered every one at once, in one ``errors`` map of the
same shape whatever the endpoint (docs/errors.md, "Every bad field at once")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from scoring.models import Competition
from tests.games.schema_check import openapi
from tests.scoring.competitions.conftest import make_competition

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs"

LEAGUE_WITH_BAD_FIELDS = {
    "kind": "league",
    "name": "Winter",
    "variant": "chickenfoot",
    "table_size": 4,
    "stage_count": 2,
    "options": {"spinner_arms": 5},
    "starts_on": "2026-12-10",
    "ends_on": "2026-12-01",
}


@dataclass(frozen=True)
class Case:
    """A request with several bad fields, the code it gets and every field ``errors`` names."""

    method: str
    path: str  # {match}: a started match's id; {player}: the caller's; {league}: a league's
    body: dict[str, Any] | None
    code: str
    fields: frozenset[str]
    rules: tuple[tuple[str, str], ...] = ()
    anonymous: bool = False


CASES = {
    "match create: three bad options and a bad seat": Case(
        "POST",
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"spinner_arms": 5, "rounds": 99, "double_blank_points": 500},
            "seats": [{"kind": "creator"}, {"kind": "bot"}],
        },
        "invalid_seats",
        frozenset(
            {
                "seats.1.level",
                "options.spinner_arms",
                "options.rounds",
                "options.double_blank_points",
            }
        ),
        (
            ("options.spinner_arms", "CF-SPINNER"),
            ("options.rounds", "C-ROUNDS"),
            ("options.double_blank_points", "C-PIPS"),
        ),
    ),
    "match create: a bad option and a seat of no kind": Case(
        "POST",
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"speed": 3, "rounds": 99},
            "seats": [{"kind": "creator"}, {"kind": "ghost"}],
        },
        "invalid_seats",
        frozenset({"seats.1.kind", "options.speed", "options.rounds"}),
        (("options.rounds", "C-ROUNDS"),),
    ),
    "table match create: a bad option and a bot's level out of range": Case(
        "POST",
        "/api/matches",
        {
            "variant": "chickenfoot",
            "play": "table",
            "options": {"rounds": 99},
            "seats": [{"kind": "creator"}, {"kind": "bot", "level": 9}],
        },
        "invalid_seats",
        frozenset({"seats.1.level", "options.rounds"}),
        (("options.rounds", "C-ROUNDS"),),
    ),
    "match create: options that are no object": Case(
        "POST",
        "/api/matches",
        {"variant": "chickenfoot", "options": "fast", "seats": [{"kind": "creator"}]},
        "invalid_seats",
        frozenset({"seats", "options"}),
    ),
    "match create: a bad body and a bad option": Case(
        "POST",
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"spinner_arms": 5},
            "seats": [{"kind": "creator"}, {"kind": "bot", "level": 9}, {"kind": "creator"}],
            "colour": "red",
        },
        "invalid",
        frozenset({"colour", "seats.1.level", "seats.2.kind", "options.spinner_arms"}),
        (("options.spinner_arms", "CF-SPINNER"),),
    ),
    "join: an unknown field and a bad position": Case(
        "POST",
        "/api/matches/{match}/join",
        {"position": "1", "seat": 1},
        "invalid",
        frozenset({"position", "seat"}),
    ),
    "move: a bad tile and a bad version": Case(
        "POST",
        "/api/matches/{match}/moves",
        {"kind": "play", "tile": [1, 99], "target": "arm:0", "version": "x"},
        "malformed_move",
        frozenset({"tile", "version"}),
        (("tile", "C-SET"),),
    ),
    "move: an unknown field, a bad target and a bad version": Case(
        "POST",
        "/api/matches/{match}/moves",
        {"kind": "play", "tile": [1, 2], "target": 5, "version": "2", "speed": 1},
        "malformed_move",
        frozenset({"target", "version", "speed"}),
    ),
    "log in: every field": Case(
        "POST",
        "/api/auth/token",
        {"username": "", "device": "d" * 500},
        "invalid",
        frozenset({"username", "password", "device"}),
        anonymous=True,
    ),
    "register: a bad username, a weak password and a long display name": Case(
        "POST",
        "/api/players",
        {"username": "a b", "password": "1", "display_name": "x" * 500},
        "invalid",
        frozenset({"username", "password", "display_name"}),
        anonymous=True,
    ),
    "competition: a bad body and the competition's own checks": Case(
        "POST",
        "/api/competitions",
        {**LEAGUE_WITH_BAD_FIELDS, "name": "", "bot_level": "x"},
        "invalid",
        frozenset({"name", "bot_level", "stage_count", "ends_on", "options.spinner_arms"}),
        (("options.spinner_arms", "CF-SPINNER"),),
    ),
    "competition: its own checks and its options": Case(
        "POST",
        "/api/competitions",
        LEAGUE_WITH_BAD_FIELDS,
        "invalid_competition",
        frozenset({"stage_count", "ends_on", "options.spinner_arms"}),
        (("options.spinner_arms", "CF-SPINNER"),),
    ),
    "history: several bad parameters": Case(
        "GET",
        "/api/players/{player}/history?varaint=x&place=first&opponent=x&page_size=0",
        None,
        "invalid",
        frozenset({"varaint", "place", "opponent", "page_size"}),
    ),
    "lobby": Case(
        "GET", "/api/matches/open?page_size=x&status=open", None, "invalid",
        frozenset({"page_size", "status"}),
    ),
    "my matches": Case(
        "GET", "/api/matches/mine?status=won&page_size=0&sort=new", None, "invalid",
        frozenset({"status", "page_size", "sort"}),
    ),
    "move log": Case(
        "GET", "/api/matches/{match}/log?after=x&round=1", None, "invalid",
        frozenset({"after", "round"}),
    ),
    "tokens": Case(
        "GET", "/api/auth/tokens?page_size=0&device=phone", None, "invalid",
        frozenset({"page_size", "device"}),
    ),
    "competitions": Case(
        "GET", "/api/competitions?kind=cup&status=done&page_size=0", None, "invalid",
        frozenset({"kind", "status", "page_size"}),
    ),
    "leaderboard": Case(
        "GET", "/api/leaderboards/chickenfoot?min_matches=x&page_size=0&top=3", None, "invalid",
        frozenset({"min_matches", "page_size", "top"}),
    ),
    "statistics": Case(
        "GET", "/api/players/{player}/stats?variant=go&since=2026", None, "invalid",
        frozenset({"variant", "since"}),
    ),
    "standings chart": Case(
        "GET", "/api/competitions/{league}/standings.svg?players=0&stage=1", None, "invalid",
        frozenset({"players", "stage"}),
    ),
    "rating chart": Case(
        "GET", "/api/players/{player}/rating.svg?variant=go&matches=0", None, "invalid",
        frozenset({"variant", "matches"}),
    ),
}  # fmt: skip


def assert_problem_shape(body: dict[str, Any], status: int) -> None:
    """The members every validation problem has, and their types."""
    assert body["status"] == status
    assert body["type"] == "https://chickenfoot.dev/problems/" + body["code"].replace("_", "-")
    assert isinstance(body["title"], str)
    assert body["title"]
    assert isinstance(body["detail"], str)
    assert body["detail"]
    errors = body["errors"]
    assert isinstance(errors, dict)
    assert errors
    for name, messages in errors.items():
        assert isinstance(name, str)
        assert isinstance(messages, list)
        assert messages
        assert all(isinstance(message, str) and message for message in messages), messages
    for name, rule in body.get("rules", {}).items():
        assert name in errors, (name, sorted(errors))
        assert isinstance(rule, str)
        assert rule


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_every_bad_field_is_in_errors_at_once(
    case: Case,
    clients: list[APIClient],
    players: list[Player],
    started_match: Callable[..., Match],
) -> None:
    # given: an organiser with a match in play (seat 0) and its id
    players[0].is_organiser = True
    players[0].save(update_fields=["is_organiser"])
    match = started_match()
    league = make_competition(players[0], kind="league", name="Autumn")
    path = case.path.format(match=match.pk, player=players[0].pk, league=league.pk)
    client = APIClient() if case.anonymous else clients[0]
    before = (Match.objects.count(), Competition.objects.count(), Player.objects.count())

    # when
    if case.method == "GET":
        response = client.get(path)
    else:
        response = client.post(path, case.body, format="json")

    # then
    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == case.code, body
    assert_problem_shape(body, HTTPStatus.BAD_REQUEST)
    assert set(body["errors"]) == case.fields, body["errors"]
    for name, rule in case.rules:
        assert body["rules"][name] == rule, body
    # and nothing was written
    assert (Match.objects.count(), Competition.objects.count(), Player.objects.count()) == before


def test_invalid_option_names_every_bad_option_in_errors(clients: list[APIClient]) -> None:
    response = clients[0].post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"speed": 2, "spinner_arms": 5, "must_play_drawn": "yes"},
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        },
        format="json",
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert (body["code"], body["title"]) == ("invalid_option", "Invalid option")
    assert_problem_shape(body, HTTPStatus.BAD_REQUEST)
    assert set(body["errors"]) == {
        "options.speed",
        "options.spinner_arms",
        "options.must_play_drawn",
    }
    assert body["errors"]["options.speed"] == ["Unknown option."]
    assert body["rule"] == "CF-SPINNER"  # the first rule broken
    assert body["rules"] == {"options.spinner_arms": "CF-SPINNER"}
    assert "options.speed, options.spinner_arms" in body["detail"]
    assert Match.objects.count() == 0


def test_one_bad_option_keeps_its_detail_and_rule_and_gains_errors(
    clients: list[APIClient],
) -> None:
    response = clients[0].post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"spinner_arms": 5},
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        },
        format="json",
    )

    body = response.json()
    assert (response.status_code, body["code"]) == (HTTPStatus.BAD_REQUEST, "invalid_option")
    assert body["detail"] == "Option 'spinner_arms' must be 4 or 6; got 5."
    assert body["rule"] == "CF-SPINNER"
    assert body["errors"] == {"options.spinner_arms": [body["detail"]]}
    assert body["rules"] == {"options.spinner_arms": "CF-SPINNER"}


def test_one_bad_seat_keeps_its_detail(clients: list[APIClient]) -> None:
    response = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "bot"}]},
        format="json",
    )

    body = response.json()
    assert (response.status_code, body["code"]) == (HTTPStatus.BAD_REQUEST, "invalid_seats")
    assert body["detail"] == "A bot seat needs a level: 1, 2, 3 or 4 (strong)."
    assert body["errors"] == {"seats.1.level": [body["detail"]]}
    assert "rules" not in body


def test_the_schema_declares_errors_and_rules_on_the_problem() -> None:
    problem = openapi()["components"]["schemas"]["Problem"]["properties"]

    assert problem["errors"]["type"] == "object"
    assert problem["errors"]["additionalProperties"]["type"] == "array"
    assert "every bad field" in problem["errors"]["description"]
    assert problem["rules"]["additionalProperties"]["type"] == "string"


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/api/matches", "post"),
        ("/api/matches/{match_id}/moves", "post"),
        ("/api/players/{player_id}/history", "get"),
    ],
)
def test_the_schema_shows_several_bad_fields_answered_at_once(path: str, method: str) -> None:
    media = openapi()["paths"][path][method]["responses"]["400"]["content"]
    examples = media["application/problem+json"]["examples"].values()

    several = [e["value"] for e in examples if len(e["value"].get("errors", {})) > 1]
    assert several, path
    for body in several:
        assert_problem_shape(body, HTTPStatus.BAD_REQUEST)


def test_the_errors_doc_says_every_field_is_answered_at_once() -> None:
    text = (DOCS / "errors.md").read_text()

    assert "## Every bad field at once" in text
    assert "`rules`" in text
