"""A player's data: the export holds what is theirs and the public record, never a hand; deleting
the account anonymises the player and changes nobody's standings or ratings."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import pytest
from django.db.models import Q
from rest_framework.test import APIClient

from games.avatars.models import PlayerAvatar
from games.models import DeviceToken, Player
from games.social.models import Block, FriendRequest, Friendship
from scoring.models import Competition
from tests.games.avatar_images import encoded, halves
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory, token_for
from tests.games.wall_world import HOSTILE, enter_round, wall_world

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"  # the player factory's


@pytest.fixture
def finished(
    players: list[Player], clients: list[APIClient], django_capture_on_commit_callbacks: Any
) -> int:
    """ada's running tournament, whose table match (ada, grace, a guest) has finished."""
    wall = wall_world(players, clients[0])
    with django_capture_on_commit_callbacks(execute=True):
        first = enter_round(clients[0], wall.match_id, 1, 0)
        enter_round(clients[0], wall.match_id, 2, first["version"])
    return wall.competition.pk


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def test_the_export_holds_the_players_own_record_and_nothing_of_anyone_else(
    players: list[Player], clients: list[APIClient], finished: int
) -> None:
    ada, grace = players[:2]

    answer = clients[1].get("/api/players/me/export")

    assert answer.status_code == HTTPStatus.OK, answer.content
    data = answer.json()
    assert data["account"]["username"] == "grace"
    assert data["account"]["display_name"] == "Grace"
    assert [t["id"] for t in data["tokens"]] == list(
        DeviceToken.objects.filter(user=grace.user).order_by("created").values_list("pk", flat=True)
    )
    assert [(s["position"], s["status"]) for s in data["seats"]] == [(1, "finished")]
    assert [(r["round_number"], r["seat"], r["points"]) for r in data["rounds"]] == [
        (1, 1, 7),
        (2, 1, 7),
    ]
    assert [(r["place"], r["total"]) for r in data["results"]] == [(2, 14)]
    assert [r["variant"] for r in data["ratings"]] == ["chickenfoot"]
    assert len(data["rating_changes"]) == 1
    assert [r["competition_id"] for r in data["registrations"]] == [finished]
    assert (data["organised"], data["score_entries"], data["claims"]) == ([], [], [])
    assert {n["kind"] for n in data["notifications"]} <= {
        "match_started",
        "your_turn",
        "match_over",
    }
    assert all(n["payload"]["match_id"] for n in data["notifications"])
    assert data["push_devices"] == []
    # never a hand, a token's key or digest, nor anyone else's name or points
    said = json.dumps(data)
    assert not keys_of(data) & {"hand", "hands", "tiles", "digest", "token_key", "key"}
    for other in (HOSTILE, "Ada", '"points": 12', '"points": 0'):
        assert other not in said
    # the organiser's own: what she organised and entered
    mine = clients[0].get("/api/players/me/export").json()
    assert [c["id"] for c in mine["organised"]] == [finished]
    assert [e["number"] for e in mine["score_entries"]] == [1, 2]
    assert ada.pk == mine["account"]["player_id"]


def _public_record(client: APIClient, competition_id: int) -> dict[str, Any]:
    wall = client.get(f"/api/public/competitions/{competition_id}/standings").json()
    wall.pop("now")  # the server's time as the wall was read (for its stage clock), not the record
    return {
        "standings": client.get(f"/api/competitions/{competition_id}/standings").json(),
        "leaderboard": client.get("/api/leaderboards/chickenfoot").json(),
        "wall": wall,
    }


def test_deleting_an_account_keeps_every_standing_and_rating_under_an_anonymous_name(
    players: list[Player], clients: list[APIClient], finished: int
) -> None:
    # given
    grace = players[1]
    before = _public_record(clients[2], finished)
    assert "Grace" in json.dumps(before)
    her_avatar = clients[2].get(f"/api/players/{grace.pk}").json()["avatar_url"]

    # when: a wrong password, then the right one
    wrong = clients[1].post("/api/players/me/delete", {"password": "not mine"}, format="json")
    deleted = clients[1].post("/api/players/me/delete", {"password": PASSWORD}, format="json")

    # then
    assert wrong.status_code == HTTPStatus.BAD_REQUEST
    assert wrong.json()["errors"] == {"password": ["Wrong password."]}
    assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted.content
    after = _public_record(clients[2], finished)
    anonymous = f"Deleted player {grace.pk}"
    # the same record, under the anonymous name and the default avatar drawn from it
    anonymous_avatar = clients[2].get(f"/api/players/{grace.pk}").json()["avatar_url"]
    assert json.dumps(after) == json.dumps(before).replace('"Grace"', f'"{anonymous}"').replace(
        her_avatar, anonymous_avatar
    )
    grace.refresh_from_db()
    assert (grace.user_id, grace.email, grace.display_name) == (None, "", anonymous)
    assert grace.deleted_at is not None
    # and: the account is gone: its token, its log-in; its username is free
    assert clients[1].get("/api/players/me").status_code == HTTPStatus.UNAUTHORIZED
    login = APIClient().post(
        "/api/auth/token", {"username": "grace", "password": PASSWORD}, format="json"
    )
    assert login.status_code == HTTPStatus.UNAUTHORIZED
    again = APIClient().post(
        "/api/players", {"username": "Grace", "password": "correct horse battery"}, format="json"
    )
    assert again.status_code == HTTPStatus.CREATED
    assert again.json()["player"]["id"] != grace.pk


def test_an_organiser_of_a_running_competition_is_refused_and_nothing_changes(
    players: list[Player], clients: list[APIClient], finished: int
) -> None:
    Competition.objects.filter(pk=finished).update(status=Competition.Status.RUNNING)

    refused = clients[0].post("/api/players/me/delete", {"password": PASSWORD}, format="json")

    assert refused.status_code == HTTPStatus.CONFLICT
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "still_organising"
    assert refused.json()["competitions"] == [finished]
    assert clients[0].get("/api/players/me").json()["name"] == "Ada"
    # once it has finished, the organiser may go
    Competition.objects.filter(pk=finished).update(status=Competition.Status.FINISHED)
    token_for(players[0], "spare")
    gone = clients[0].post("/api/players/me/delete", {"password": PASSWORD}, format="json")
    assert gone.status_code == HTTPStatus.NO_CONTENT
    assert not DeviceToken.objects.filter(user_id=players[0].user_id).exists()
    assert Competition.objects.get(pk=finished).organiser_id == players[0].pk


def test_deleting_needs_the_password(players: list[Player], clients: list[APIClient]) -> None:
    missing = clients[3].post("/api/players/me/delete")

    assert missing.status_code == HTTPStatus.BAD_REQUEST
    assert "password" in missing.json()["errors"]
    assert Player.objects.get(pk=players[3].pk).user_id is not None


def friend_request(client: APIClient, player: Player) -> int:
    sent = client.post("/api/friends/requests", {"player_id": player.pk}, format="json")
    assert sent.status_code == HTTPStatus.CREATED, sent.content
    return int(sent.json()["id"])


@pytest.fixture
def social(players: list[Player], clients: list[APIClient]) -> dict[str, int]:
    """Grace's friends, requests and blocks, and others' about her.

    ada and grace are friends (grace accepted); grace asked alan, who declined (grace is not
    told); edsger asked grace, pending; grace blocked a fifth player, and a sixth blocked grace
    (which cancelled the request grace had sent them)."""
    _ada, grace, alan, _edsger = players
    mallory, trent = PlayerFactory(display_name="Mallory"), PlayerFactory(display_name="Trent")
    mine = {"ada": friend_request(clients[0], grace)}
    clients[1].post(f"/api/friends/requests/{mine['ada']}/accept")
    mine["alan"] = friend_request(clients[1], alan)
    clients[2].post(f"/api/friends/requests/{mine['alan']}/decline")
    mine["edsger"] = friend_request(clients[3], grace)
    mine["to_trent"] = friend_request(clients[1], trent)
    clients[1].post(f"/api/players/{mallory.pk}/block")
    client_for(trent).post(f"/api/players/{grace.pk}/block")
    clients[1].patch(
        "/api/players/me",
        {"time_zone": "Asia/Vientiane", "quiet_hours": {"start": "22:00", "end": "07:30"}},
        format="json",
    )
    return {**mine, "mallory": mallory.pk, "trent": trent.pk}


def test_the_export_holds_friends_requests_blocks_avatar_and_quiet_hours_of_the_player_only(
    players: list[Player], clients: list[APIClient], social: dict[str, int]
) -> None:
    ada, grace, alan, edsger = players

    data = clients[1].get("/api/players/me/export").json()

    account = data["account"]
    assert (account["quiet_hours_start"], account["quiet_hours_end"]) == ("22:00:00", "07:30:00")
    profile = clients[1].get(f"/api/players/{grace.pk}").json()
    assert account["avatar_url"] == profile["avatar_url"]
    assert account["avatar_small_url"] == profile["avatar_small_url"]
    assert account["avatar_uploaded_at"] is None
    assert [(f["player_id"], f["name"]) for f in data["friends"]] == [(ada.pk, "Ada")]
    incoming = data["friend_requests"]["incoming"]
    outgoing = data["friend_requests"]["outgoing"]
    assert [(r["id"], r["player_id"], r["state"]) for r in incoming] == [
        (social["ada"], ada.pk, "accepted"),
        (social["edsger"], edsger.pk, "pending"),
    ]
    assert incoming[0]["answered_at"] is not None
    # alan declined and trent's block cancelled: grace learns neither
    assert [(r["id"], r["player_id"], r["state"], r["answered_at"]) for r in outgoing] == [
        (social["alan"], alan.pk, "closed", None),
        (social["to_trent"], social["trent"], "closed", None),
    ]
    assert [(b["player_id"], b["name"]) for b in data["blocks"]] == [(social["mallory"], "Mallory")]
    said = json.dumps(data)
    assert "declined" not in said
    assert "cancelled" not in said
    assert "Trent" in said  # the request she sent him: her own
    assert not keys_of(data) & {"blocked_by", "blockers", "blocker_id"}
    # the one who declined sees their own decision; the one blocked, nothing of the block
    declined = clients[2].get("/api/players/me/export").json()["friend_requests"]["incoming"]
    assert [(r["player_id"], r["state"]) for r in declined] == [(grace.pk, "declined")]
    assert "Mallory" not in json.dumps(data["friends"])


def test_deleting_an_account_takes_its_friends_requests_blocks_and_avatar(
    players: list[Player],
    clients: list[APIClient],
    social: dict[str, int],
    settings: Any,
    tmp_path: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    grace = players[1]
    settings.STORAGES = {
        **settings.STORAGES,
        "avatars": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": tmp_path, "allow_overwrite": True},
        },
    }
    picture = clients[1].put(
        "/api/players/me/avatar", data=encoded(halves()), content_type="image/png"
    )
    assert picture.status_code == HTTPStatus.OK, picture.content
    assert list(tmp_path.iterdir())

    with django_capture_on_commit_callbacks(execute=True):
        deleted = clients[1].post("/api/players/me/delete", {"password": PASSWORD}, format="json")

    assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted.content
    gone = Q(low_id=grace.pk) | Q(high_id=grace.pk)
    assert not Friendship.objects.filter(gone).exists()
    assert not FriendRequest.objects.filter(Q(sender=grace) | Q(recipient=grace)).exists()
    assert not Block.objects.filter(Q(blocker=grace) | Q(blocked=grace)).exists()
    assert not PlayerAvatar.objects.filter(player=grace).exists()
    assert list(tmp_path.iterdir()) == []  # no other avatar named its files
    assert clients[0].get("/api/friends").json()["count"] == 0
    assert clients[3].get("/api/friends/requests").json()["outgoing"] == []
    assert fetched_status(clients[0], picture.json()["avatar_url"]) == HTTPStatus.NOT_FOUND
    shown = clients[0].get(f"/api/players/{grace.pk}").json()
    assert shown["avatar_url"].endswith(".svg")  # the anonymous name's initials


def fetched_status(client: APIClient, url: str) -> int:
    return int(client.get(url.removeprefix("http://testserver")).status_code)
