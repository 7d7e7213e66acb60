"""Every games endpoint over HTTP: the happy paths and every kind of bad input."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import engine
from games.models import Match, Move, Player, Round, Seat
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_to_end, submit

pytestmark = pytest.mark.django_db


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code, body
    return body


def row_counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Match, Seat, Round, Move, Player))


def create(client: APIClient, **body: Any) -> Any:
    body.setdefault("variant", "chickenfoot")
    body.setdefault("seats", [{"kind": "creator"}, {"kind": "open"}, {"kind": "open"}])
    return client.post("/api/matches", body, format="json")


# --- accounts ---------------------------------------------------------------------------------


def test_register_returns_a_token_that_authenticates() -> None:
    client = APIClient()

    response = client.post(
        "/api/players",
        {"username": "ada", "password": "correct horse battery", "display_name": "Ada L."},
        format="json",
    )

    assert response.status_code == HTTPStatus.CREATED
    body = response.json()
    assert body["player"]["name"] == "Ada L."
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = client.get("/api/players/me")
    assert me.status_code == HTTPStatus.OK
    assert me.json() == {
        **body["player"],
        "language": "",
        "profile_visibility": "everyone",
        "time_zone": "",
        "quiet_hours": None,
    }


def test_register_refuses_a_taken_name_and_a_weak_password() -> None:
    client = APIClient()
    client.post("/api/players", {"username": "ada", "password": "correct horse battery"})

    problem(
        client.post("/api/players", {"username": "ada", "password": "correct horse battery"}),
        HTTPStatus.CONFLICT,
        "username_taken",
    )
    problem(
        client.post("/api/players", {"username": "bob", "password": "123"}),
        HTTPStatus.BAD_REQUEST,
        "invalid",
    )
    problem(
        client.post("/api/players", {"username": "no spaces!", "password": "correct horse b"}),
        HTTPStatus.BAD_REQUEST,
        "invalid",
    )


@pytest.mark.parametrize(
    "path",
    [
        "/api/players/me",
        "/api/matches/open",
        "/api/matches/mine",
        "/api/matches/1",
        "/api/matches/1/legal-moves",
        "/api/matches/1/log",
    ],
)
def test_game_endpoints_need_a_token(path: str) -> None:
    problem(APIClient().get(path), HTTPStatus.UNAUTHORIZED, "not_authenticated")
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token nope")
    problem(bad.get(path), HTTPStatus.UNAUTHORIZED, "authentication_failed")


def test_staff_user_without_a_player_gets_one_and_is_an_organiser(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    staff = PlayerFactory(user__username="boss", user__is_staff=True)
    staff.delete()  # a createsuperuser account has no player row

    client = client_for(PlayerFactory.build(user=staff.user))
    response = client.get(f"/api/matches/{match.pk}")

    assert response.status_code == HTTPStatus.OK
    assert response.json()["your_seat"] is None
    assert "hand" not in response.json()["state"]
    assert Player.objects.get(user=staff.user).organises


# --- creating, listing, joining, starting ------------------------------------------------------


def test_create_a_match_with_the_creator_an_open_seat_and_a_bot(clients: list[APIClient]) -> None:
    response = create(
        clients[0],
        options={"spinner_arms": 6, "rounds": 2},
        seats=[{"kind": "creator"}, {"kind": "open"}, {"kind": "bot", "level": 3}],
    )

    assert response.status_code == HTTPStatus.CREATED, response.content
    body = response.json()
    assert body["status"] == "open"
    assert body["options"]["spinner_arms"] == 6
    assert body["options"]["max_pip"] == 9  # the default filled in
    assert [s["kind"] for s in body["seats"]] == ["human", "open", "bot"]
    assert body["seats"][0]["you"] is True
    assert body["seats"][2]["bot_level"] == 3
    assert "seed" not in response.content.decode()
    assert Match.objects.get(pk=body["id"]).seed not in response.content.decode()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"options": {"speed": 3}}, "invalid_option"),
        ({"options": {"spinner_arms": 5}}, "invalid_option"),
        ({"options": {"max_pip": 7}}, "invalid_option"),
        ({"options": {"rounds": 11}}, "invalid_option"),
        ({"options": {"hand_size": 30}}, "invalid_option"),
        ({"options": {"double_blank_points": 101}}, "invalid_option"),
        ({"options": {"must_play_drawn": "yes"}}, "invalid_option"),
        ({"options": {"open_hands": True}}, "invalid_option"),  # a Mexican Train option
        ({"variant": "dominoes"}, "invalid"),
        ({"seats": [{"kind": "creator"}]}, "invalid_seats"),
        ({"seats": [{"kind": "creator"}, {"kind": "creator"}]}, "invalid_seats"),
        ({"seats": [{"kind": "creator"}, {"kind": "bot"}]}, "invalid_seats"),
        ({"seats": [{"kind": "creator"}, {"kind": "bot", "level": 9}]}, "invalid_seats"),
        ({"seats": [{"kind": "creator"}, {"kind": "ghost"}]}, "invalid_seats"),
        ({"options": "fast"}, "invalid_option"),
    ],
)
def test_create_refuses_bad_input(clients: list[APIClient], body: dict, code: str) -> None:
    before = row_counts()

    problem(create(clients[0], **body), HTTPStatus.BAD_REQUEST, code)

    assert row_counts() == before


def test_mexican_train_options_and_seat_limits(clients: list[APIClient]) -> None:
    seats = [{"kind": "creator"}] + [{"kind": "open"}] * 4
    problem(
        create(clients[0], variant="mexican_train", options={"max_pip": 9}, seats=seats),
        HTTPStatus.BAD_REQUEST,
        "invalid_option",
    )
    ok = create(clients[0], variant="mexican_train", options={"open_hands": True}, seats=seats)
    assert ok.status_code == HTTPStatus.CREATED
    assert ok.json()["options"]["max_pip"] == 12


def test_open_list_join_and_start(clients: list[APIClient]) -> None:
    match_id = create(clients[0]).json()["id"]

    lobby = clients[1].get("/api/matches/open").json()["results"]
    assert [m["id"] for m in lobby] == [match_id]
    assert lobby[0]["open_seats"] == 2

    joined = clients[1].post(f"/api/matches/{match_id}/join", {}, format="json")
    assert joined.status_code == HTTPStatus.OK
    assert joined.json()["seats"][1]["you"] is True
    assert clients[2].post(f"/api/matches/{match_id}/join", {"position": 2}).status_code == 200
    assert clients[3].get("/api/matches/open").json()["results"] == []

    started = clients[0].post(f"/api/matches/{match_id}/start")

    assert started.status_code == HTTPStatus.OK, started.content
    body = started.json()
    assert body["status"] == "playing"
    assert body["version"] == 3
    assert body["state"]["round"] == 1
    assert len(body["state"]["hand"]) == body["state"]["hand_counts"][0]
    assert Round.objects.get(match_id=match_id, number=1).commitment == body["state"]["commitment"]


def test_join_refusals(clients: list[APIClient], started_match: Callable[..., Match]) -> None:
    match_id = create(clients[0], seats=[{"kind": "creator"}, {"kind": "open"}]).json()["id"]
    before = row_counts()
    problem(
        clients[0].post(f"/api/matches/{match_id}/join", {}), HTTPStatus.CONFLICT, "already_seated"
    )
    problem(
        clients[1].post(f"/api/matches/{match_id}/join", {"position": 0}),
        HTTPStatus.CONFLICT,
        "seat_taken",
    )
    problem(
        clients[1].post(f"/api/matches/{match_id}/join", {"position": 5}),
        HTTPStatus.BAD_REQUEST,
        "invalid_seats",
    )
    problem(
        clients[1].post(f"/api/matches/{match_id}/join", {"position": -1}),
        HTTPStatus.BAD_REQUEST,
        "invalid",
    )
    problem(clients[1].post("/api/matches/999/join", {}), HTTPStatus.NOT_FOUND, "match_not_found")
    assert row_counts() == before

    clients[1].post(f"/api/matches/{match_id}/join", {})
    problem(clients[2].post(f"/api/matches/{match_id}/join", {}), HTTPStatus.CONFLICT, "match_full")

    started = started_match()
    problem(
        clients[3].post(f"/api/matches/{started.pk}/join", {}),
        HTTPStatus.CONFLICT,
        "match_not_open",
    )


def test_start_refusals(clients: list[APIClient]) -> None:
    match_id = create(clients[0]).json()["id"]
    problem(clients[0].post(f"/api/matches/{match_id}/start"), HTTPStatus.CONFLICT, "seats_open")
    clients[1].post(f"/api/matches/{match_id}/join", {})
    clients[2].post(f"/api/matches/{match_id}/join", {})
    problem(clients[1].post(f"/api/matches/{match_id}/start"), HTTPStatus.FORBIDDEN, "not_creator")
    assert clients[0].post(f"/api/matches/{match_id}/start").status_code == HTTPStatus.OK
    problem(
        clients[0].post(f"/api/matches/{match_id}/start"), HTTPStatus.CONFLICT, "match_not_open"
    )


def test_organiser_may_start_and_watch(clients: list[APIClient], players: list[Player]) -> None:
    match_id = create(clients[0], seats=[{"kind": "open"}, {"kind": "open"}]).json()["id"]
    clients[1].post(f"/api/matches/{match_id}/join", {})
    clients[2].post(f"/api/matches/{match_id}/join", {})
    players[3].is_organiser = True
    players[3].save()

    assert clients[3].post(f"/api/matches/{match_id}/start").status_code == HTTPStatus.OK
    watched = clients[3].get(f"/api/matches/{match_id}").json()
    assert watched["your_seat"] is None
    assert "hand" not in watched["state"]
    problem(
        clients[3].get(f"/api/matches/{match_id}/legal-moves"),
        HTTPStatus.FORBIDDEN,
        "not_your_match",
    )


# --- the match view --------------------------------------------------------------------------


def test_match_view_shows_my_hand_and_counts_and_answers_304(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()

    response = clients[1].get(f"/api/matches/{match.pk}")

    assert response.status_code == HTTPStatus.OK
    body = response.json()
    assert response["ETag"] == f'"{match.version}"'
    state = body["state"]
    assert body["your_seat"] == 1
    assert sorted(state["hand"]) == sorted(match.state["hands"][1])
    assert state["hand_counts"] == [len(h) for h in match.state["hands"]]
    assert state["boneyard"] == len(match.state["boneyard"])
    assert state["turn"] == match.state["turn"]
    assert {"layout", "open_foot", "scores", "totals"} <= set(state)
    again = clients[1].get(f"/api/matches/{match.pk}", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == HTTPStatus.NOT_MODIFIED
    assert again.content == b""
    stale = clients[1].get(f"/api/matches/{match.pk}", HTTP_IF_NONE_MATCH='"0"')
    assert stale.status_code == HTTPStatus.OK


def test_a_stranger_may_not_look_at_a_started_match(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    for path in ("", "/legal-moves", "/log"):
        problem(
            clients[3].get(f"/api/matches/{match.pk}{path}"), HTTPStatus.FORBIDDEN, "not_your_match"
        )
    problem(clients[3].get("/api/matches/999"), HTTPStatus.NOT_FOUND, "match_not_found")


def test_my_matches_filter_by_status(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    playing = started_match()
    waiting = create(clients[0]).json()["id"]

    def ids(query: str) -> list[int]:
        response = clients[0].get(f"/api/matches/mine{query}")
        assert response.status_code == HTTPStatus.OK
        return [m["id"] for m in response.json()["results"]]

    assert ids("") == [waiting, playing.pk]
    assert ids("?status=playing") == [playing.pk]
    assert ids("?status=open") == [waiting]
    assert ids("?status=finished") == []
    assert clients[3].get("/api/matches/mine").json()["results"] == []
    problem(clients[0].get("/api/matches/mine?status=won"), HTTPStatus.BAD_REQUEST, "invalid")


# --- legal moves and moves -------------------------------------------------------------------


def test_legal_moves_are_the_engines(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]
    state = engine.from_json(match.state)

    mine = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()
    other = clients[(turn + 1) % 3].get(f"/api/matches/{match.pk}/legal-moves").json()

    assert mine["moves"] == [m.to_json() for m in engine.legal_moves(state, turn)]
    assert mine["moves"]
    assert other["moves"] == []
    assert mine["version"] == match.version


def test_submit_a_move_then_read_the_log(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]
    move = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()["moves"][0]

    response = submit(clients[turn], match.pk, {**move, "version": match.version})

    assert response.status_code == HTTPStatus.CREATED, response.content
    body = response.json()
    assert body["version"] == match.version + 1
    assert response["ETag"] == f'"{match.version + 1}"'
    assert body["move"]["seq"] == 1
    assert body["move"]["kind"] == move["kind"]
    assert body["state"]["turn"] != turn or move["kind"] == "draw"
    log = clients[(turn + 1) % 3].get(f"/api/matches/{match.pk}/log").json()
    assert [m["seq"] for m in log["moves"]] == [1]
    assert log["next_after"] == 1
    assert clients[turn].get(f"/api/matches/{match.pk}/log?after=1").json()["moves"] == []
    problem(
        clients[turn].get(f"/api/matches/{match.pk}/log?limit=0"), HTTPStatus.BAD_REQUEST, "invalid"
    )


def test_if_match_header_carries_the_version(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]
    move = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()["moves"][0]

    stale = submit(clients[turn], match.pk, move, HTTP_IF_MATCH='"1"')
    ok = submit(clients[turn], match.pk, move, HTTP_IF_MATCH=f'"{match.version}"')

    body = problem(stale, HTTPStatus.CONFLICT, "stale_version")
    assert body["current_version"] == match.version
    assert ok.status_code == HTTPStatus.CREATED
    problem(
        submit(clients[turn], match.pk, move, HTTP_IF_MATCH="yesterday"),
        HTTPStatus.BAD_REQUEST,
        "invalid_header",
    )


def _a_tile_not_in(hand: list[list[int]], top: int) -> list[int]:
    held = {tuple(sorted(t)) for t in hand}
    return next([a, b] for a in range(top + 1) for b in range(a, top + 1) if (a, b) not in held)


@pytest.mark.parametrize(
    ("case", "status", "code"),
    [
        ("malformed tile", HTTPStatus.BAD_REQUEST, "malformed_move"),
        ("tile out of the set", HTTPStatus.BAD_REQUEST, "malformed_move"),
        ("no target", HTTPStatus.BAD_REQUEST, "malformed_move"),
        ("unknown target", HTTPStatus.BAD_REQUEST, "malformed_move"),
        ("draw with a tile", HTTPStatus.BAD_REQUEST, "malformed_move"),
        ("unknown kind", HTTPStatus.BAD_REQUEST, "malformed_move"),
        ("tile not in hand", HTTPStatus.UNPROCESSABLE_ENTITY, "rule_violation"),
        ("draw with a play", HTTPStatus.UNPROCESSABLE_ENTITY, "rule_violation"),
        ("wrong seat", HTTPStatus.CONFLICT, "not_your_turn"),
        ("stale version", HTTPStatus.CONFLICT, "stale_version"),
        ("no version", HTTPStatus.PRECONDITION_REQUIRED, "version_required"),
        ("not your match", HTTPStatus.FORBIDDEN, "not_your_match"),
        ("no such match", HTTPStatus.NOT_FOUND, "match_not_found"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(
    clients: list[APIClient],
    started_match: Callable[..., Match],
    case: str,
    status: int,
    code: str,
) -> None:
    match = started_match()
    turn = match.state["turn"]
    hand = match.state["hands"][turn]
    top = match.options["max_pip"]
    legal = engine.legal_moves(engine.from_json(match.state), turn)
    play = next(m.to_json() for m in legal if m.kind == "play")
    version = match.version
    client, match_id = clients[turn], match.pk
    body: dict[str, Any] = {**play, "version": version}
    if case == "malformed tile":
        body["tile"] = [3, "x"]
    elif case == "tile out of the set":
        body["tile"] = [top + 1, 0]
    elif case == "no target":
        del body["target"]
    elif case == "unknown target":
        body["target"] = "nowhere"
    elif case == "draw with a tile":
        body = {"kind": "draw", "tile": play["tile"], "version": version}
    elif case == "unknown kind":
        body["kind"] = "steal"
    elif case == "tile not in hand":
        body["tile"] = _a_tile_not_in(hand, top)
    elif case == "draw with a play":
        body = {"kind": "draw", "version": version}
    elif case == "wrong seat":
        client = clients[(turn + 1) % 3]
    elif case == "stale version":
        body["version"] = version - 1
    elif case == "no version":
        del body["version"]
    elif case == "not your match":
        client = clients[3]
    elif case == "no such match":
        match_id = 999
    before = row_counts()

    response = submit(client, match_id, body)

    refused = problem(response, status, code)
    if code == "rule_violation":
        assert refused["rule"] in {"CF-ONE", "CF-MUST"}
    assert row_counts() == before
    match.refresh_from_db()
    assert match.version == version
    assert match.moves_played == 0


def test_idempotency_key_returns_the_first_answer(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]
    moves = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()["moves"]
    body = {**moves[0], "version": match.version}

    first = submit(clients[turn], match.pk, body, HTTP_IDEMPOTENCY_KEY="k-1")
    retry = submit(clients[turn], match.pk, body, HTTP_IDEMPOTENCY_KEY="k-1")
    other = submit(
        clients[turn],
        match.pk,
        {**moves[-1], "version": match.version + 5},
        HTTP_IDEMPOTENCY_KEY="k-1",
    )

    assert first.status_code == retry.status_code == HTTPStatus.CREATED
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    problem(other, HTTPStatus.UNPROCESSABLE_ENTITY, "idempotency_key_reused")
    assert Move.objects.filter(match=match).count() == 1


def test_moves_after_the_end_are_refused(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    """C-ROUNDS: over HTTP a move after the match is ``match_not_playing`` (docs/rules.md)."""
    match = started_match(options={"rounds": 1})
    play_to_end(clients[:3], match.pk)
    match.refresh_from_db()

    response = submit(clients[0], match.pk, {"kind": "pass", "version": match.version})

    problem(response, HTTPStatus.CONFLICT, "match_not_playing")


@pytest.mark.parametrize(
    ("variant", "n", "options"),
    [
        ("chickenfoot", 3, {"rounds": 3}),
        ("mexican_train", 4, {"rounds": 3}),
        ("mexican_train", 3, {"max_pip": 9, "rounds": 2, "open_hands": True}),
    ],
)
def test_humans_play_a_match_to_the_end(
    clients: list[APIClient],
    started_match: Callable[..., Match],
    variant: str,
    n: int,
    options: dict[str, Any],
    django_capture_on_commit_callbacks: Callable,
) -> None:
    match = started_match(variant, n, options)

    with django_capture_on_commit_callbacks(execute=True):  # the end-of-match task runs too
        played = play_to_end(clients[:n], match.pk, seed=n)

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.moves_played == played == Move.objects.filter(match=match).count()
    assert list(Move.objects.filter(match=match).values_list("seq", flat=True)) == list(
        range(1, played + 1)
    )
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, options["rounds"] + 1))
    for row in rounds:
        assert row.status == Round.Status.FINISHED
        assert engine.commitment(row.seed_revealed) == row.commitment
        assert len(row.scores) == n
    final = clients[0].get(f"/api/matches/{match.pk}").json()
    assert final["status"] == "finished"
    assert final["standings"][0]["place"] == 1
    engine_order = [
        {k: place[k] for k in ("seat", "place", "total", "zero_rounds", "lowest_round")}
        for place in final["state"]["standings"]
    ]
    assert [
        {k: place[k] for k in ("seat", "place", "total", "zero_rounds", "lowest_round")}
        for place in final["standings"]
    ] == engine_order
    finished = clients[0].get("/api/matches/mine?status=finished").json()["results"]
    assert [m["id"] for m in finished] == [match.pk]
