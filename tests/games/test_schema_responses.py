"""Real answers fit the OpenAPI schema: every endpoint, both games, a whole match each, and
the problems (their status declared, served as application/problem+json, typed)."""

from __future__ import annotations

import random
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from scoring.tasks import match_finalise_task
from tests.games.helpers import submit
from tests.games.schema_check import check_response, openapi

pytestmark = pytest.mark.django_db

MATCH = "/api/matches/{match_id}"
STANDINGS = "/api/competitions/{competition_id}/standings"


def checked(response: Any, path: str, method: str = "GET", ok: bool = True) -> Any:
    check_response(response, path, method)
    if ok:
        assert response.status_code < HTTPStatus.BAD_REQUEST, response.content
    return response


@pytest.mark.parametrize(
    ("variant", "options", "bot_level"),
    [
        ("chickenfoot", {"rounds": 2, "spinner_arms": 6}, 3),
        ("mexican_train", {"rounds": 2, "max_pip": 9}, 2),
        ("mexican_train", {"rounds": 1, "max_pip": 9, "open_hands": True}, 1),
    ],
)
def test_a_whole_match_answers_as_the_schema_says(
    variant: str, options: dict[str, Any], bot_level: int
) -> None:
    anonymous = APIClient()
    players = []
    for name in ("ada", "grace", "alan"):
        registered = checked(
            anonymous.post(
                "/api/players",
                {"username": name, "password": "correct horse battery"},
                format="json",
            ),
            "/api/players",
            "POST",
        )
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {registered.json()['token']}")
        players.append(client)
    ada, grace, alan = players
    checked(
        anonymous.post(
            "/api/auth/token",
            {"username": "ada", "password": "correct horse battery"},
            format="json",
        ),
        "/api/auth/token",
        "POST",
    )
    checked(ada.get("/api/players/me"), "/api/players/me")
    created = checked(
        ada.post(
            "/api/matches",
            {
                "variant": variant,
                "options": options,
                "seats": [{"kind": "creator"}, {"kind": "open"}, {"kind": "open"}],
            },
            format="json",
        ),
        "/api/matches",
        "POST",
    )
    match_id = created.json()["id"]
    checked(
        ada.post(
            "/api/matches",
            {
                "variant": variant,
                "seats": [
                    {"kind": "open"},
                    {"kind": "creator"},
                    {"kind": "bot", "level": bot_level},
                ],
            },
            format="json",
        ),
        "/api/matches",
        "POST",
    )
    checked(grace.get("/api/matches/open"), "/api/matches/open")
    checked(ada.get(f"/api/matches/{match_id}"), MATCH)
    checked(grace.post(f"/api/matches/{match_id}/join", {}, format="json"), MATCH + "/join", "POST")
    checked(
        alan.post(f"/api/matches/{match_id}/join", {"position": 2}, format="json"),
        MATCH + "/join",
        "POST",
    )
    checked(ada.post(f"/api/matches/{match_id}/start"), MATCH + "/start", "POST")
    clients = {0: ada, 1: grace, 2: alan}
    rng = random.Random(5)
    for _ in range(3000):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            break
        turn = match.state["turn"]
        client = clients[turn]
        legal = checked(client.get(f"/api/matches/{match_id}/legal-moves"), MATCH + "/legal-moves")
        assert legal.status_code == HTTPStatus.OK, legal.content
        body = legal.json()
        move = rng.choice(body["moves"])
        checked(
            submit(client, match_id, {**move, "version": body["version"]}),
            MATCH + "/moves",
            "POST",
        )
        if rng.random() < 0.1:
            checked(client.get(f"/api/matches/{match_id}"), MATCH)
            checked(clients[(turn + 1) % 3].get(f"/api/matches/{match_id}"), MATCH)
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED
    pending = checked(ada.get(f"/api/matches/{match_id}"), MATCH)
    assert pending.json()["results_pending"] is True  # the end-of-match task runs after commit
    match_finalise_task.delay(match_id)
    final = checked(ada.get(f"/api/matches/{match_id}"), MATCH)
    checked(grace.get(f"/api/matches/{match_id}/record"), MATCH + "/record")
    assert final.json()["state"]["variant"] == variant
    assert final.json()["standings"]
    checked(ada.get(f"/api/matches/{match_id}", HTTP_IF_NONE_MATCH=final["ETag"]), MATCH)  # 304
    for client in (ada, grace, alan):
        checked(client.get(f"/api/matches/{match_id}/log"), MATCH + "/log")
        checked(client.get(f"/api/matches/{match_id}/log?after=3&limit=5"), MATCH + "/log")
        checked(client.get(f"/api/matches/{match_id}/rounds"), MATCH + "/rounds")
        checked(client.get("/api/matches/mine"), "/api/matches/mine")
        checked(client.get("/api/matches/mine?status=finished"), "/api/matches/mine")


def test_a_running_match_answers_as_the_schema_says(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    for variant in ("chickenfoot", "mexican_train"):
        match = started_match(variant)
        for client in clients[:3]:
            checked(client.get(f"/api/matches/{match.pk}"), MATCH)
        checked(clients[3].get(f"/api/matches/{match.pk}"), MATCH, ok=False)  # a stranger: 403
        for client in clients[:3]:
            checked(client.get(f"/api/matches/{match.pk}/log"), MATCH + "/log")
            checked(client.get(f"/api/matches/{match.pk}/rounds"), MATCH + "/rounds")
            checked(client.get(f"/api/matches/{match.pk}/legal-moves"), MATCH + "/legal-moves")
            checked(client.get("/api/matches/mine"), "/api/matches/mine")


def test_problems_answer_as_the_schema_says(
    clients: list[APIClient], players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]
    mover, waiter = clients[turn], clients[(turn + 1) % 3]
    legal = mover.get(f"/api/matches/{match.pk}/legal-moves").json()
    play = {**legal["moves"][0], "version": legal["version"]}
    anonymous = APIClient()
    cases: list[tuple[Any, str, str]] = [
        (submit(mover, match.pk, {**play, "version": "2"}), MATCH + "/moves", "POST"),
        (submit(mover, match.pk, {**play, "target": "arm:9"}), MATCH + "/moves", "POST"),
        (  # a draw while holding a tile that plays: a broken rule
            submit(mover, match.pk, {"kind": "draw", "version": legal["version"]}),
            MATCH + "/moves",
            "POST",
        ),
        (submit(waiter, match.pk, play), MATCH + "/moves", "POST"),
        (submit(mover, match.pk, {**play, "version": 99}), MATCH + "/moves", "POST"),
        (submit(mover, match.pk, {"kind": "play"}), MATCH + "/moves", "POST"),
        (
            mover.post(f"/api/matches/{match.pk}/moves", "kind=draw", content_type="text/plain"),
            MATCH + "/moves",
            "POST",
        ),
        (mover.delete(f"/api/matches/{match.pk}"), MATCH, "GET"),
        (clients[3].get(f"/api/matches/{match.pk}"), MATCH, "GET"),
        (clients[0].get("/api/matches/999"), MATCH, "GET"),
        (anonymous.get("/api/matches/mine"), "/api/matches/mine", "GET"),
        (clients[0].get("/api/matches/mine?page=9"), "/api/matches/mine", "GET"),
        (
            clients[0].get("/api/matches/mine", HTTP_ACCEPT="application/xml"),
            "/api/matches/mine",
            "GET",
        ),
        (
            anonymous.post("/api/auth/token", {"username": "ada"}, format="json"),
            "/api/auth/token",
            "POST",
        ),
        (
            anonymous.post("/api/auth/token", {"username": "ada", "password": "no"}, format="json"),
            "/api/auth/token",
            "POST",
        ),
        (
            anonymous.post("/api/players", {"username": "bob", "password": "1"}, format="json"),
            "/api/players",
            "POST",
        ),
        (
            clients[3].post(f"/api/matches/{match.pk}/join", {"position": "1"}, format="json"),
            MATCH + "/join",
            "POST",
        ),
        (
            clients[3].post(f"/api/matches/{match.pk}/join", {}, format="json"),
            MATCH + "/join",
            "POST",
        ),
        (clients[1].post(f"/api/matches/{match.pk}/start"), MATCH + "/start", "POST"),
        (
            clients[0].post(
                "/api/matches",
                {
                    "variant": "chickenfoot",
                    "seats": [{"kind": "creator"}, {"kind": "open", "level": 2}],
                },
                format="json",
            ),
            "/api/matches",
            "POST",
        ),
    ]
    for response, path, method in cases:
        assert response.status_code >= HTTPStatus.BAD_REQUEST, response.content
        assert response["Content-Type"] == "application/problem+json"
        check_response(response, path, method)
    # a malformed body, a missing match, a stale version and a broken rule among them
    assert {400, 404, 409, 422} <= {response.status_code for response, _, _ in cases}


def test_every_problem_response_is_problem_json_and_codes_are_the_documented_ones() -> None:
    from tests.foundation.errors_doc import documented

    schema = openapi()
    problem = schema["components"]["schemas"]["Problem"]
    code = problem["properties"]["code"]["allOf"][0]["$ref"]
    codes = schema["components"]["schemas"][code.split("/")[-1]]
    assert set(codes["enum"]) == {row.code for row in documented()}
    assert {"open_seats", "current_version", "errors", "rule"} <= set(problem["properties"])
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            for status, response in op["responses"].items():
                if path in ("/api/health", "/api/health/ready") and status == "503":
                    continue  # the health and readiness documents, degraded: not problems
                if int(status) >= HTTPStatus.BAD_REQUEST:
                    assert list(response.get("content", {})) == ["application/problem+json"], (
                        method,
                        path,
                        status,
                    )


def test_no_component_is_named_like_an_input_request() -> None:
    names = openapi()["components"]["schemas"]
    assert not [name for name in names if name.endswith("InputRequest") or "Output" in name]


def test_no_query_parameter_is_a_decimal() -> None:
    """Every number a query takes is a whole one (an id, a place, a count): ``integer``."""
    decimals = [
        (path, parameter["name"])
        for path, operations in openapi()["paths"].items()
        for op in operations.values()
        for parameter in op.get("parameters", [])
        if parameter["in"] == "query" and parameter["schema"].get("type") == "number"
    ]
    assert decimals == []


def test_a_round_status_and_a_stage_status_are_enums_of_their_own() -> None:
    schemas = openapi()["components"]["schemas"]

    assert schemas["Round"]["properties"]["status"] == {
        "$ref": "#/components/schemas/RoundStatusEnum"
    }
    assert schemas["CompetitionStage"]["properties"]["status"] == {
        "$ref": "#/components/schemas/StageStatusEnum"
    }
    assert schemas["RoundStatusEnum"]["enum"] == schemas["StageStatusEnum"]["enum"]


def test_every_tag_an_operation_uses_is_declared_with_a_description() -> None:
    schema = openapi()
    declared = {tag["name"]: tag.get("description", "") for tag in schema.get("tags", [])}
    used = {
        tag
        for operations in schema["paths"].values()
        for op in operations.values()
        for tag in op.get("tags", [])
    }

    assert used
    assert sorted(used - set(declared)) == []
    assert sorted(used) == sorted(declared)
    assert all(declared.values())


def test_the_schema_names_a_contact_and_its_server_relative_to_the_schema() -> None:
    schema = openapi()

    assert schema["info"]["contact"]["email"]
    assert schema["servers"] == [{"url": "/", "description": schema["servers"][0]["description"]}]
    assert schema["servers"][0]["description"]


def test_every_page_size_parameter_gives_its_bounds() -> None:
    bounds = {
        (path, parameter["schema"].get("minimum"), parameter["schema"].get("maximum"))
        for path, operations in openapi()["paths"].items()
        for op in operations.values()
        for parameter in op.get("parameters", [])
        if parameter["name"] == "page_size"
    }

    assert bounds == {
        ("/api/auth/tokens", 1, 100),
        ("/api/competitions", 1, 100),
        ("/api/invitations", 1, 100),
        ("/api/matches/mine", 1, 100),
        ("/api/matches/open", 1, 100),
        ("/api/notifications", 1, 100),
        ("/api/players", 1, 100),
        ("/api/players/{player_id}/history", 1, 100),
        ("/api/players/{player_id}/ratings", 1, 100),
        ("/api/players/me/blocks", 1, 100),
        ("/api/friends", 1, 100),
        ("/api/leaderboards/{variant}", 1, 200),
    }


def test_a_chicken_foot_view_with_and_without_an_open_foot_answers_as_the_schema_says(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    """``open_foot`` is null, then an object once a double opens a foot: both fit the schema
    as openapi-core reads it (OpenAPI 3.1: the null is declared, not ``nullable``)."""
    match = started_match("chickenfoot")
    rng = random.Random(3)
    seen = set()
    for _ in range(400):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING or seen == {True, False}:
            break
        client = clients[match.state["turn"]]
        view = checked(client.get(f"/api/matches/{match.pk}"), MATCH).json()
        seen.add(view["state"]["open_foot"] is None)
        legal = client.get(f"/api/matches/{match.pk}/legal-moves").json()
        doubles = [m for m in legal["moves"] if m.get("tile") and m["tile"][0] == m["tile"][1]]
        move = doubles[0] if doubles else rng.choice(legal["moves"])
        sent = submit(client, match.pk, {**move, "version": legal["version"]})
        checked(sent, MATCH + "/moves", "POST")

    assert seen == {True, False}


@pytest.mark.parametrize(
    "path", ["", "/legal-moves", "/rounds", "/board.svg", "/scores.svg"], ids=lambda p: p or "view"
)
def test_a_304_has_no_body_and_the_schema_types_it_for_a_client(
    clients: list[APIClient], started_match: Callable[..., Match], path: str
) -> None:
    match = started_match()
    first = clients[0].get(f"/api/matches/{match.pk}{path}")

    unchanged = clients[0].get(f"/api/matches/{match.pk}{path}", HTTP_IF_NONE_MATCH=first["ETag"])

    assert unchanged.status_code == HTTPStatus.NOT_MODIFIED
    assert unchanged.content == b""
    declared = openapi()["paths"][MATCH + path]["get"]["responses"]["304"].get("content")
    assert declared == (PICTURE_304 if path.endswith(".svg") else JSON_304)
    check_response(unchanged, MATCH + path, "GET")


#: What a picture's 304 declares: an empty body typed as the picture, so that a generated client
#: reads both answers as bytes (the schema checks read a 304 without a body, as HTTP does).
PICTURE_304 = {"image/svg+xml": {"schema": {"type": "string", "format": "binary"}}}
#: What a JSON answer's 304 declares: an empty text, so that a generated client types it (a
#: string, beside the answer's model and the problem) rather than leaving it untyped.
JSON_304 = {"text/plain": {"schema": {"type": "string", "maxLength": 0}}}


def test_every_304_the_schema_declares_is_an_empty_text_or_typed_as_its_picture() -> None:
    declared = {
        path: op["responses"]["304"].get("content")
        for path, operations in openapi()["paths"].items()
        for op in operations.values()
        if "304" in op["responses"]
    }
    pictures = {path for path in declared if path.endswith((".svg", ".webp"))}

    assert len(declared) == 7
    assert all(declared.values())
    for path in declared.keys() - pictures:
        assert declared[path] == JSON_304, path
    for path in pictures:
        [(media_type, body)] = declared[path].items()
        assert media_type.startswith("image/")
        assert body == {"schema": {"type": "string", "format": "binary"}}


def test_history_stats_and_standings_answer_as_the_schema_says(
    clients: list[APIClient], players: list[Player]
) -> None:
    from tests.games.factories import PlayerFactory
    from tests.scoring.competitions.conftest import count_match, make_competition

    organiser = PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)
    league = make_competition(organiser, kind="league", name="Thursday league")
    for player in players[:3]:
        league.registrations.create(player=player, registered_at=league.created_at)
    league.status = league.Status.RUNNING
    league.save(update_fields=["status"])
    match = count_match(league, players[:3], [[0, 12, 30], [5, 0, 9]])
    ada = players[0].pk
    for url, path in (
        (f"/api/players/{ada}/history", "/api/players/{player_id}/history"),
        (f"/api/players/{ada}/history?status=finished", "/api/players/{player_id}/history"),
        (f"/api/players/{ada}/history?status=abandoned", "/api/players/{player_id}/history"),
        (f"/api/players/{ada}/stats", "/api/players/{player_id}/stats"),
        (
            f"/api/players/{ada}/head-to-head/{players[1].pk}",
            "/api/players/{player_id}/head-to-head/{opponent_id}",
        ),
        (f"/api/competitions/{league.pk}/standings", STANDINGS),
        (f"/api/competitions/{league.pk}/standings.csv", STANDINGS + ".csv"),
        ("/api/competitions/999/standings", STANDINGS),
        ("/api/leaderboards/chickenfoot", "/api/leaderboards/{variant}"),
        (f"/api/matches/{match.pk}/record", MATCH + "/record"),
    ):
        check_response(clients[0].get(url), path, "GET")
