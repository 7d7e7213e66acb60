"""The competition API: create, list and filters, register and withdraw, close, organiser-only
operations, bad input; every refusal writes nothing."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from scoring.models import Competition, CompetitionMatch, Registration, Stage
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db

TOURNAMENT = {
    "kind": "tournament",
    "name": "Spring open",
    "variant": "chickenfoot",
    "options": {"rounds": 2},
    "table_size": 4,
    "allow_bots": True,
    "stage_count": 3,
    "starts_on": "2025-03-08",
}
LEAGUE = {
    "kind": "league",
    "name": "Thursday league",
    "variant": "mexican_train",
    "table_size": 4,
    "min_matches": 2,
}


def rows() -> tuple[int, int, int, int, int]:
    return (
        Competition.objects.count(),
        Registration.objects.count(),
        Stage.objects.count(),
        CompetitionMatch.objects.count(),
        Match.objects.count(),
    )


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code
    assert body["status"] == status
    return body


def create(client: APIClient, body: dict[str, Any]) -> Any:
    return client.post("/api/competitions", body, format="json")


def test_an_organiser_creates_a_tournament_with_the_default_points(
    organiser_client: APIClient,
) -> None:
    response = create(organiser_client, TOURNAMENT)

    assert response.status_code == HTTPStatus.CREATED, response.content
    body = response.json()
    assert response["Location"] == f"/api/competitions/{body['id']}"
    assert body["status"] == "registering"
    assert body["points_scheme"] == {"4": [5, 3, 2, 1]}  # bots fill: full tables only
    assert body["organiser"]["name"] == "Olga"
    assert body["registered"] == 0
    assert body["min_matches"] == 0
    assert Competition.objects.get().seed  # stored, never shown
    assert "seed" not in body


def test_a_league_without_bots_scores_every_table_size(organiser_client: APIClient) -> None:
    body = create(organiser_client, LEAGUE).json()

    assert body["points_scheme"] == {"2": [3, 1], "3": [4, 2, 1], "4": [5, 3, 2, 1]}
    assert body["stage_count"] is None
    assert body["min_matches"] == 2


def test_only_organisers_create(clients: list[APIClient]) -> None:
    before = rows()

    response = create(clients[0], TOURNAMENT)

    assert_problem(response, HTTPStatus.FORBIDDEN, "not_organiser")
    assert rows() == before


@pytest.mark.parametrize(
    ("change", "code", "words"),
    [
        ({"options": {"spinner_arms": 5}}, "invalid_option", "spinner_arms"),
        ({"options": {"hand_size": 20}}, "invalid_option", "hands of 20"),
        ({"stage_count": None}, "invalid_competition", "stage_count"),
        ({"kind": "league"}, "invalid_competition", "no stages"),
        ({"points_scheme": {"4": [1, 2, 3, 4]}}, "invalid_competition", "fewer points"),
        ({"allow_bots": False, "points_scheme": {"4": [5, 3, 2, 1]}}, "invalid_competition",
         "sizes 2, 3"),
        ({"starts_on": "2025-03-08", "ends_on": "2025-03-01"}, "invalid_competition", "before"),
        ({"bot_level": 9}, "invalid_competition", "bot_level"),
        ({"table_size": 1}, "invalid", "table_size"),
        ({"variant": "poker"}, "invalid", "variant"),
    ],
)  # fmt: skip
def test_bad_input_is_a_400_and_writes_nothing(
    organiser_client: APIClient, change: dict[str, Any], code: str, words: str
) -> None:
    before = rows()

    response = create(organiser_client, {**TOURNAMENT, **change})

    body = assert_problem(response, HTTPStatus.BAD_REQUEST, code)
    assert words in body["detail"]
    assert rows() == before


def test_the_list_filters_and_pages(organiser_client: APIClient) -> None:
    create(organiser_client, TOURNAMENT)
    create(organiser_client, LEAGUE)
    create(organiser_client, {**LEAGUE, "name": "Sunday league", "variant": "chickenfoot"})

    everything = organiser_client.get("/api/competitions").json()
    leagues = organiser_client.get("/api/competitions?kind=league").json()
    both = organiser_client.get("/api/competitions?kind=league&variant=chickenfoot").json()
    named = organiser_client.get("/api/competitions?name=THURSDAY").json()
    past_the_end = organiser_client.get("/api/competitions?page=2")

    assert everything["count"] == 3
    assert [c["name"] for c in everything["results"]] == [
        "Sunday league",
        "Thursday league",
        "Spring open",
    ]
    assert leagues["count"] == 2
    assert [c["name"] for c in both["results"]] == ["Sunday league"]
    assert [c["name"] for c in named["results"]] == ["Thursday league"]
    assert everything["next"] is None
    assert_problem(past_the_end, HTTPStatus.NOT_FOUND, "not_found")


@pytest.mark.parametrize("query", ["kind=cup", "status=won", "organiser=x", "starts_after=soon"])
def test_a_bad_filter_value_is_a_400(organiser_client: APIClient, query: str) -> None:
    create(organiser_client, TOURNAMENT)

    response = organiser_client.get(f"/api/competitions?{query}")

    assert_problem(response, HTTPStatus.BAD_REQUEST, "invalid")


def test_players_register_withdraw_and_register_again(
    organiser_client: APIClient, clients: list[APIClient], players: list[Player]
) -> None:
    competition_id = create(organiser_client, TOURNAMENT).json()["id"]
    base = f"/api/competitions/{competition_id}"

    first = clients[0].post(f"{base}/register")
    clients[1].post(f"{base}/register")
    again = clients[0].post(f"{base}/register")
    withdrawn = clients[1].post(f"{base}/withdraw")
    not_registered = clients[1].post(f"{base}/withdraw")
    back = clients[1].post(f"{base}/register")

    assert first.status_code == HTTPStatus.OK
    assert [p["name"] for p in first.json()["players"]] == ["Ada"]
    assert_problem(again, HTTPStatus.CONFLICT, "already_registered")
    assert withdrawn.json()["registered"] == 1
    assert_problem(not_registered, HTTPStatus.CONFLICT, "not_registered")
    assert [p["name"] for p in back.json()["players"]] == ["Ada", "Grace"]
    assert Registration.objects.count() == 2  # the withdrawal kept its row, reused


def test_registration_closes_and_then_refuses(
    organiser_client: APIClient, clients: list[APIClient]
) -> None:
    competition_id = create(organiser_client, TOURNAMENT).json()["id"]
    base = f"/api/competitions/{competition_id}"
    clients[0].post(f"{base}/register")

    closed = organiser_client.post(f"{base}/close")
    before = rows()
    late = clients[1].post(f"{base}/register")
    closed_again = organiser_client.post(f"{base}/close")

    assert closed.json()["status"] == "closed"
    assert_problem(late, HTTPStatus.CONFLICT, "registration_closed")
    assert_problem(closed_again, HTTPStatus.CONFLICT, "competition_status")
    assert rows() == before
    # withdrawing is still possible until the first stage
    assert clients[0].post(f"{base}/withdraw").json()["registered"] == 0


@pytest.mark.parametrize(
    ("path", "body"),
    [("close", None), ("stages", {"number": 1}), ("start", None), ("finish", None)],
)
def test_organiser_only_operations_refuse_others(
    organiser_client: APIClient, clients: list[APIClient], path: str, body: Any
) -> None:
    kind = TOURNAMENT if path in ("close", "stages") else LEAGUE
    competition_id = create(organiser_client, kind).json()["id"]
    before = rows()
    status = Competition.objects.get().status

    response = clients[0].post(f"/api/competitions/{competition_id}/{path}", body, format="json")

    assert_problem(response, HTTPStatus.FORBIDDEN, "not_organiser")
    assert rows() == before
    assert Competition.objects.get().status == status


def test_another_organiser_is_refused_too(
    organiser_client: APIClient, players: list[Player]
) -> None:
    competition_id = create(organiser_client, TOURNAMENT).json()["id"]
    Player.objects.filter(pk=players[0].pk).update(is_organiser=True)

    response = client_for(players[0]).post(f"/api/competitions/{competition_id}/close")

    assert_problem(response, HTTPStatus.FORBIDDEN, "not_organiser")
    assert Competition.objects.get().status == "registering"


def test_stage_start_refusals_write_nothing(
    organiser_client: APIClient, clients: list[APIClient]
) -> None:
    competition_id = create(organiser_client, TOURNAMENT).json()["id"]
    stages = f"/api/competitions/{competition_id}/stages"
    clients[0].post(f"/api/competitions/{competition_id}/register")
    before = rows()

    still_open = organiser_client.post(stages, {"number": 1}, format="json")
    organiser_client.post(f"/api/competitions/{competition_id}/close")
    wrong_number = organiser_client.post(stages, {"number": 2}, format="json")
    no_number = organiser_client.post(stages, {}, format="json")
    too_few = organiser_client.post(stages, {"number": 1}, format="json")

    assert_problem(still_open, HTTPStatus.CONFLICT, "competition_status")
    assert assert_problem(wrong_number, HTTPStatus.CONFLICT, "wrong_stage")["next_stage"] == 1
    assert_problem(no_number, HTTPStatus.BAD_REQUEST, "invalid")
    assert_problem(too_few, HTTPStatus.CONFLICT, "too_few_players")
    assert rows() == before


def test_a_stage_seats_everyone_and_starts_a_match_per_table(
    organiser_client: APIClient, clients: list[APIClient], players: list[Player]
) -> None:
    competition_id = create(
        organiser_client, {**TOURNAMENT, "table_size": 3, "allow_bots": False}
    ).json()["id"]
    base = f"/api/competitions/{competition_id}"
    for client in clients:
        client.post(f"{base}/register")
    organiser_client.post(f"{base}/close")

    response = organiser_client.post(f"{base}/stages", {"number": 1}, format="json")
    again = organiser_client.post(f"{base}/stages", {"number": 1}, format="json")
    listed = clients[0].get(f"{base}/stages").json()

    assert response.status_code == HTTPStatus.CREATED, response.content
    stage = response.json()
    # 4 players at tables of 3 without bots: two tables of 2
    assert [len(t["seats"]) for t in stage["tables"]] == [2, 2]
    seated = sorted(s["player_id"] for t in stage["tables"] for s in t["seats"])
    assert seated == sorted(p.pk for p in players)
    assert all(t["match_status"] == "playing" for t in stage["tables"])
    assert_problem(again, HTTPStatus.CONFLICT, "wrong_stage")
    assert listed["stages"] == [stage]
    detail = clients[0].get(base).json()
    assert (detail["status"], detail["current_stage"]) == ("running", 1)
    # withdrawing once it runs drops out: no later stage, still in the standings
    assert clients[0].post(f"{base}/withdraw").status_code == HTTPStatus.OK
    rows = clients[0].get(f"{base}/standings").json()["standings"]
    assert {row["player_id"]: row["dropped"] for row in rows}[players[0].pk] is True
    # the tables are real matches their players can see
    match_id = stage["tables"][0]["match_id"]
    seat = stage["tables"][0]["seats"][0]
    player_client = clients[[p.pk for p in players].index(seat["player_id"])]
    assert player_client.get(f"/api/matches/{match_id}").json()["your_seat"] == seat["position"]


def test_unknown_competition_is_a_404(organiser_client: APIClient) -> None:
    for path in ("", "/standings", "/stages"):
        assert_problem(
            organiser_client.get(f"/api/competitions/99{path}"),
            HTTPStatus.NOT_FOUND,
            "competition_not_found",
        )
    assert_problem(
        organiser_client.post("/api/competitions/99/register"),
        HTTPStatus.NOT_FOUND,
        "competition_not_found",
    )


def test_anonymous_callers_are_refused(organiser_client: APIClient) -> None:
    response = APIClient().get("/api/competitions")

    assert response.status_code == HTTPStatus.UNAUTHORIZED
