"""Every place an app shows a player gives their avatar's URLs, the same ones their profile
gives: a match's seats (its view, the open matches, "my matches"), invitations, the
leaderboards, histories (a profile's latest results too) and head-to-head; read with the rows
already read (the match view stays at its few queries)."""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from games.services import SeatSpec, match_create
from tests.foundation.hostile import STORABLE
from tests.games.avatar_images import encoded, halves
from tests.games.conftest import client_for
from tests.games.helpers import avatars_of
from tests.games.test_friends_leaks import private_player
from tests.games.test_profiles import finish

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("avatar_folder")]


@pytest.fixture
def uploaded(clients: list[APIClient]) -> dict[str, str]:
    """Ada's uploaded avatar's URLs (the others keep their initials)."""
    answer = clients[0].put(
        "/api/players/me/avatar", data=encoded(halves()), content_type="image/png"
    )
    assert answer.status_code == HTTPStatus.OK, answer.content
    body = answer.json()
    assert body["avatar_url"].endswith(".webp")
    return {key: body[key] for key in ("avatar_url", "avatar_small_url")}


def seat_avatars(client: APIClient, seats: list[dict[str, Any]]) -> None:
    """Each seat's avatar is its player's, and an open seat has none."""
    for seat in seats:
        if seat["player_id"] is None:
            assert (seat["avatar_url"], seat["avatar_small_url"]) == (None, None)
        else:
            wanted = avatars_of(client, seat["player_id"])
            assert {k: seat[k] for k in wanted} == wanted, seat


def test_a_matchs_seats_carry_their_players_avatars_in_every_view_of_it(
    players: list[Player],
    clients: list[APIClient],
    uploaded: dict[str, str],
    django_assert_max_num_queries: Callable,
) -> None:
    ada, grace = players[0], players[1]
    match = match_create(
        creator=ada,
        variant="chickenfoot",
        seats=[SeatSpec("creator"), SeatSpec("open"), SeatSpec("open"), SeatSpec("bot", 1)],
    )
    joined = clients[1].post(f"/api/matches/{match.pk}/join", {}, format="json")
    assert joined.status_code == HTTPStatus.OK, joined.content

    with django_assert_max_num_queries(4):  # as without avatars: read with the seats' players
        view = clients[1].get(f"/api/matches/{match.pk}").json()
    lobby = clients[2].get("/api/matches/open").json()["results"]
    mine = clients[1].get("/api/matches/mine").json()["results"]

    for seats in (view["seats"], lobby[0]["seats"], mine[0]["seats"], joined.json()["seats"]):
        seat_avatars(clients[2], seats)
        assert {k: seats[0][k] for k in uploaded} == uploaded  # ada's upload
        assert seats[1]["avatar_url"].endswith(".svg")  # grace's initials
        assert seats[1]["player_id"] == grace.pk
        assert seats[2]["player_id"] is None
        assert seats[3]["avatar_url"].endswith(".svg")  # the bot's initials


def test_the_open_matches_cost_the_same_queries_with_avatars(
    players: list[Player],
    clients: list[APIClient],
    uploaded: dict[str, str],
    django_assert_max_num_queries: Callable,
) -> None:
    for _ in range(5):
        match_create(
            creator=players[0],
            variant="mexican_train",
            seats=[SeatSpec("creator"), SeatSpec("open"), SeatSpec("bot", 1)],
        )
    with django_assert_max_num_queries(5):
        rows = clients[1].get("/api/matches/open").json()["results"]
    assert [{k: row["seats"][0][k] for k in uploaded} for row in rows] == [uploaded] * 5


def test_invitations_carry_both_players_avatars(
    players: list[Player], clients: list[APIClient], uploaded: dict[str, str]
) -> None:
    ada, grace = players[0], players[1]
    match = match_create(
        creator=ada, variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    sent = clients[0].post(
        f"/api/matches/{match.pk}/invitations", {"player_id": grace.pk}, format="json"
    )
    assert sent.status_code == HTTPStatus.CREATED, sent.content

    received = clients[1].get("/api/invitations").json()["results"][0]

    for body in (sent.json(), received):
        assert body["inviter"] == {"id": ada.pk, "name": "Ada", **uploaded}
        assert body["invitee"] == {
            "id": grace.pk,
            "name": "Grace",
            **avatars_of(clients[1], grace.pk),
        }


def test_leaderboards_histories_and_head_to_head_carry_avatars(
    players: list[Player], clients: list[APIClient], uploaded: dict[str, str]
) -> None:
    ada, grace, alan = players[0], players[1], players[2]
    finish([ada, grace], [[0, 5]], 1)
    finish([grace, ada, alan], [[3, 0, 9]], 2)

    board = clients[3].get("/api/leaderboards/chickenfoot").json()["results"]
    history = clients[3].get(f"/api/players/{grace.pk}/history").json()["results"]
    recent = clients[3].get(f"/api/players/{grace.pk}").json()["recent_results"]
    versus = clients[3].get(f"/api/players/{ada.pk}/head-to-head/{grace.pk}").json()

    assert {row["player_id"] for row in board} == {ada.pk, grace.pk, alan.pk}
    for row in board:
        wanted = avatars_of(clients[3], row["player_id"])
        assert {k: row[k] for k in wanted} == wanted
    for rows in (history, recent):
        assert len(rows) == 2
        for row in rows:
            seat_avatars(clients[3], row["seats"])
    assert versus["player"] == {"id": ada.pk, "name": "Ada", **uploaded}
    assert versus["opponent"] == {
        "id": grace.pk,
        "name": "Grace",
        **avatars_of(clients[3], grace.pk),
    }
    assert versus["matches"] == 2


def test_a_hidden_players_seat_in_anothers_history_shows_name_and_avatar_only(
    players: list[Player], clients: list[APIClient], uploaded: dict[str, str]
) -> None:
    ada, grace = players[0], players[1]
    finish([ada, grace], [[0, 5]], 1)
    clients[0].patch("/api/players/me", {"profile_visibility": "nobody"}, format="json")

    row = clients[2].get(f"/api/players/{grace.pk}/history").json()["results"][0]

    hers = next(seat for seat in row["seats"] if seat["player_id"] == ada.pk)
    assert hers["name"] == "Ada"
    assert {k: hers[k] for k in uploaded} == uploaded
    assert hers["rating"] is None


def test_no_private_field_reaches_another_player_where_avatars_were_added(
    players: list[Player],
) -> None:
    ada, _ada_key, ada_secrets = private_player("ada3", STORABLE[0])
    grace, _grace_key, grace_secrets = private_player("grace3", STORABLE[1])
    alan, _alan_key, _alan_secrets = private_player("alan3", "Alan")
    Player.objects.filter(pk=alan.pk).update(language="", profile_visibility="everyone")
    a, g, al = client_for(ada), client_for(grace), client_for(alan)
    match = match_create(
        creator=ada,
        variant="chickenfoot",
        seats=[SeatSpec("creator"), SeatSpec("open"), SeatSpec("open")],
    )
    sent = a.post(f"/api/matches/{match.pk}/invitations", {"player_id": grace.pk}, format="json")
    shown = [sent, g.get("/api/invitations"), a.get("/api/invitations?sent=true")]
    shown += [al.get(f"/api/matches/{match.pk}"), al.get("/api/matches/open")]
    a.post(f"/api/players/{alan.pk}/block")
    refused = al.post(f"/api/matches/{match.pk}/join", {}, format="json")
    finish([ada, grace, alan], [[0, 5, 9]], 3)
    shown += [al.get("/api/leaderboards/chickenfoot"), al.get(f"/api/players/{alan.pk}/history")]
    shown += [al.get(f"/api/players/{alan.pk}/head-to-head/{players[0].pk}")]
    export = al.get("/api/players/me/export")

    assert (refused.status_code, refused.json()["code"]) == (HTTPStatus.FORBIDDEN, "blocked")
    assert all(answer.status_code < 300 for answer in [*shown, export]), [
        answer.content for answer in shown if answer.status_code >= 300
    ]
    text = json.dumps([answer.json() for answer in [*shown, refused, export]], ensure_ascii=False)
    for secret in ada_secrets | grace_secrets:  # alan reads: his own export is his
        assert secret not in text
    assert STORABLE[0] not in refused.content.decode()  # who blocked alan is not said
    others = json.dumps([answer.json() for answer in [*shown, refused]], ensure_ascii=False)
    for key in ('"hy"', '"nobody"'):
        assert key not in others
    assert "blocks" in export.json()
    assert export.json()["blocks"] == []  # alan blocked nobody; who blocked him is not there
    assert STORABLE[0] not in json.dumps(export.json()["friend_requests"], ensure_ascii=False)
