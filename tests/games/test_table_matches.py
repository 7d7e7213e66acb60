"""Table matches: creating one (options, players by id or username, guests), what the online
API refuses of it, and a guest claiming their seat into an account."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match, Player, Round, Seat
from games.tables.models import GuestClaim
from scoring.models import MatchResult, RoundResult
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def create(client: APIClient, **body: Any) -> Any:
    body.setdefault("variant", "chickenfoot")
    body.setdefault("play", "table")
    return client.post("/api/matches", body, format="json")


def enter(client: APIClient, match_id: int, number: int, points: list[int], version: int) -> Any:
    scores = [
        {"seat": seat, "points": p, "went_out": p == 0 and seat == points.index(0)}
        for seat, p in enumerate(points)
    ]
    return client.post(
        f"/api/matches/{match_id}/rounds/{number}/scores",
        {"version": version, "scores": scores},
        format="json",
    )


def test_a_table_match_is_playing_at_once_with_players_by_id_username_and_guests(
    players: list[Player], clients: list[APIClient]
) -> None:
    # given
    seats = [
        {"kind": "creator"},
        {"kind": "player", "username": "GRACE"},
        {"kind": "player", "player_id": players[2].pk},
        {"kind": "guest", "name": "Seat 3 guest"},
    ]

    # when
    response = create(clients[0], seats=seats, options={"max_pip": 9, "rounds": 3})

    # then
    assert response.status_code == HTTPStatus.CREATED, response.content
    body = response.json()
    assert (body["play"], body["status"], body["open_seats"]) == ("table", "playing", 0)
    assert [s["kind"] for s in body["seats"]] == ["human", "human", "human", "guest"]
    assert [s["player_id"] for s in body["seats"][:3]] == [p.pk for p in players[:3]]
    assert body["seats"][3]["name"] == "Seat 3 guest"
    match = Match.objects.get(pk=body["id"])
    assert (match.state, match.options["rounds"], match.options["max_pip"]) == (None, 3, 9)
    guest = Player.objects.get(pk=body["seats"][3]["player_id"])
    assert (guest.kind, guest.user) == (Player.Kind.GUEST, None)


def test_options_that_mean_nothing_at_a_table_are_refused_with_every_bad_field(
    clients: list[APIClient],
) -> None:
    response = create(
        clients[0],
        seats=[{"kind": "creator"}, {"kind": "guest", "name": "Bea"}],
        options={"spinner_arms": 6, "hand_size": 7, "rounds": 99},
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert body["code"] == "invalid_option"
    assert set(body["errors"]) == {"options.spinner_arms", "options.hand_size", "options.rounds"}
    assert "table" in body["errors"]["options.spinner_arms"][0]
    assert body["rules"]["options.rounds"] == "C-ROUNDS"
    assert not Match.objects.exists()


def test_bad_seats_are_named_each_with_the_bad_options(clients: list[APIClient]) -> None:
    response = create(
        clients[0],
        seats=[
            {"kind": "creator"},
            {"kind": "player", "username": "nobody-here"},
            {"kind": "guest", "name": "\u202eevil"},
            {"kind": "open"},
        ],
        options={"must_play_drawn": True},
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert body["code"] == "invalid_seats"
    assert set(body["errors"]) == {
        "seats.1.username",
        "seats.2.name",
        "seats.3.kind",
        "options.must_play_drawn",
    }
    assert not Match.objects.exists()
    assert not Player.objects.filter(kind="guest").exists()


def test_a_malformed_table_request_names_its_bad_options_with_it(clients: list[APIClient]):
    response = create(
        clients[0],
        seats=[{"kind": "creator"}, {"kind": "guest", "name": 7}],
        options={"spinner_arms": 6},
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert set(response.json()["errors"]) == {"seats.1.name", "options.spinner_arms"}


def test_online_creation_is_unchanged_by_default(clients: list[APIClient]) -> None:
    response = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]},
        format="json",
    )

    assert response.status_code == HTTPStatus.CREATED
    assert (response.json()["play"], response.json()["status"]) == ("online", "open")


@pytest.fixture
def table(players: list[Player], clients: list[APIClient]) -> dict[str, Any]:
    response = create(
        clients[0],
        seats=[
            {"kind": "creator"},
            {"kind": "player", "username": "grace"},
            {"kind": "guest", "name": "Bea"},
        ],
        options={"max_pip": 6, "rounds": 2},
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def test_the_online_api_refuses_a_table_match(table: dict[str, Any], clients: list[APIClient]):
    match_id = table["id"]
    client = clients[1]

    move = client.post(
        f"/api/matches/{match_id}/moves", {"kind": "draw", "version": 0}, format="json"
    )
    legal = client.get(f"/api/matches/{match_id}/legal-moves")
    board = client.get(f"/api/matches/{match_id}/board.svg")
    start = clients[0].post(f"/api/matches/{match_id}/start")

    resign = client.post(f"/api/matches/{match_id}/resign")

    for response in (move, legal, board, resign):
        assert response.status_code == HTTPStatus.CONFLICT, response.content
        assert response.json()["code"] == "table_match"
    assert (start.status_code, start.json()["code"]) == (HTTPStatus.CONFLICT, "match_not_open")


def test_the_match_view_shows_rounds_totals_and_nothing_hidden(
    table: dict[str, Any], clients: list[APIClient]
) -> None:
    match_id = table["id"]
    enter(clients[0], match_id, 1, [0, 12, 30], version=0)

    body = clients[1].get(f"/api/matches/{match_id}").json()

    assert body["state"] is None
    assert body["round_scores"] == [[0, 12, 30]]
    assert body["totals"] == [0, 12, 30]
    assert [r["number"] for r in body["table_rounds"]] == [1]
    assert body["table_rounds"][0]["start_double"] == [6, 6]
    assert body["table_rounds"][0]["scores"][0]["went_out"] is True
    text = str(body)
    for hidden in ("seed", "'hands'", "boneyard", "commitment"):
        assert hidden not in text


def claim_code(client: APIClient, match_id: int, position: int) -> Any:
    return client.post(f"/api/matches/{match_id}/seats/{position}/claim-code")


def test_a_guest_claims_their_seat_and_results_into_an_account(
    table: dict[str, Any],
    clients: list[APIClient],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: a finished table match with a guest at seat 2
    match_id = table["id"]
    enter(clients[0], match_id, 1, [0, 12, 30], version=0)
    with django_capture_on_commit_callbacks(execute=True):  # the end-of-match task
        enter(clients[0], match_id, 2, [8, 0, 4], version=1)
    guest_id = table["seats"][2]["player_id"]
    assert MatchResult.objects.filter(match_id=match_id, player_id=guest_id).exists()
    issued = claim_code(clients[0], match_id, 2)
    assert issued.status_code == HTTPStatus.CREATED, issued.content
    code = issued.json()["code"]
    assert not GuestClaim.objects.filter(code_hash__contains=code).exists()  # hashed
    bea = PlayerFactory(user__username="bea")

    # when
    claimed = client_for(bea).post("/api/players/me/claims", {"code": code}, format="json")

    # then
    assert claimed.status_code == HTTPStatus.OK, claimed.content
    assert claimed.json() == {"player_id": bea.pk, "matches": [match_id]}
    assert Seat.objects.get(match_id=match_id, position=2).player_id == bea.pk
    assert MatchResult.objects.get(match_id=match_id, seat=2).player_id == bea.pk
    assert set(
        RoundResult.objects.filter(match_id=match_id, seat=2).values_list("player_id", flat=True)
    ) == {bea.pk}
    history = client_for(bea).get(f"/api/players/{bea.pk}/history").json()
    assert [row["match_id"] for row in history["results"]] == [match_id]
    again = client_for(PlayerFactory()).post(
        "/api/players/me/claims", {"code": code}, format="json"
    )
    assert (again.status_code, again.json()["code"]) == (HTTPStatus.NOT_FOUND, "claim_code_unknown")


def test_an_expired_code_and_an_unknown_one_are_refused(
    table: dict[str, Any], clients: list[APIClient]
) -> None:
    code = claim_code(clients[0], table["id"], 2).json()["code"]
    GuestClaim.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    claimer = client_for(PlayerFactory())

    expired = claimer.post("/api/players/me/claims", {"code": code}, format="json")
    unknown = claimer.post("/api/players/me/claims", {"code": "NOPE2345"}, format="json")

    assert (unknown.status_code, unknown.json()["code"]) == (404, "claim_code_unknown")
    assert (expired.status_code, expired.json()) == (404, unknown.json())  # told apart by nothing
    assert Seat.objects.get(match_id=table["id"], position=2).player.kind == "guest"


def test_a_claim_by_someone_at_the_same_table_and_codes_for_others_are_refused(
    table: dict[str, Any], clients: list[APIClient]
) -> None:
    code = claim_code(clients[0], table["id"], 2).json()["code"]

    same_table = clients[1].post("/api/players/me/claims", {"code": code}, format="json")
    not_guest = claim_code(clients[0], table["id"], 1)
    not_creator = claim_code(clients[1], table["id"], 2)

    assert (same_table.status_code, same_table.json()["code"]) == (409, "claim_conflict")
    assert (not_guest.status_code, not_guest.json()["code"]) == (409, "not_guest_seat")
    assert (not_creator.status_code, not_creator.json()["code"]) == (403, "not_creator")
    assert Round.objects.filter(match_id=table["id"]).count() == 0


def test_a_finished_table_match_has_no_replay_record_and_verify_all_skips_it(
    table: dict[str, Any], clients: list[APIClient]
) -> None:
    from django.core.management import call_command

    match_id = table["id"]
    enter(clients[0], match_id, 1, [0, 12, 30], version=0)
    enter(clients[0], match_id, 2, [8, 0, 4], version=1)
    out = io.StringIO()

    record = clients[0].get(f"/api/matches/{match_id}/record")
    call_command("verify_match", "--all", stdout=out)

    assert (record.status_code, record.json()["code"]) == (409, "table_match")
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED
    assert out.getvalue().strip() == "No finished match to check."
