"""The inbox: who is notified of what (a move, a start, a finish, a dispute, a correction, a
stage's seating), at most once per key, payloads of public facts only; the inbox in pages by a
cursor with its unread count, read marks, preferences, and devices registered per token."""

from __future__ import annotations

import inspect
import json
import random
from http import HTTPStatus
from typing import Any

import pytest
from push_notifications.models import APNSDevice, GCMDevice
from rest_framework.test import APIClient

from games.models import Match, Player
from games.notifications import kinds
from games.notifications.models import KINDS, Notification, PushDevice
from games.notifications.services import notify, your_turn_notify
from games.services import SeatSpec, match_create, match_start
from scoring.competitions.services import competition_close, stage_start
from scoring.models import CompetitionMatch, Registration
from tests.foundation.hostile import STORABLE
from tests.games.helpers import play_to_end, play_turn
from tests.games.resolver import Names
from tests.games.test_table_corrections import FIXED, amend, finished_table
from tests.games.test_table_round_reviews import act
from tests.scoring.competitions.conftest import make_competition, ref

pytestmark = pytest.mark.django_db

#: What no notification may carry (a hand, the boneyard, a seed, a tile, a score).
HIDDEN = ("hand", "tile", "seed", "boneyard", "state", "score", "points")


def inbox(player: Player, kind: str | None = None) -> list[Notification]:
    rows = Notification.objects.filter(player=player).order_by("pk")
    return list(rows.filter(kind=kind) if kind else rows)


def test_a_move_tells_the_next_human_seat_once_and_never_the_mover(
    players: list[Player], clients: list[APIClient], started_match: Any
) -> None:
    match: Match = started_match("chickenfoot", 3)
    rng = random.Random(5)
    for _ in range(30):
        match.refresh_from_db()
        mover = match.state["turn"]
        before = set(Notification.objects.filter(kind="your_turn").values_list("pk", flat=True))
        if play_turn(clients[:3], match.pk, rng) is None:
            break
        match.refresh_from_db()
        new = Notification.objects.filter(kind="your_turn").exclude(pk__in=before)
        to_move = match.state["turn"] if match.status == Match.Status.PLAYING else None
        expected = [] if to_move in (None, mover) else [players[to_move].pk]
        assert [n.player_id for n in new] == expected
        for row in new:
            assert row.payload == {"match_id": match.pk, "seat": to_move}
            assert row.key == f"your_turn:{match.pk}:{match.version}"


def test_a_bot_seat_is_never_told(players: list[Player]) -> None:
    match = match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec("creator"), SeatSpec("bot", level=1)],
    )
    match_start(match_id=match.pk, player=players[0])
    match.refresh_from_db()

    your_turn_notify(match=match, seat=1, moved_by_seat=0)

    assert Notification.objects.filter(kind="your_turn").exclude(player=players[0]).count() == 0


def test_a_start_tells_the_seats_but_the_starter_and_a_finish_tells_every_seat(
    players: list[Player], clients: list[APIClient], started_match: Any
) -> None:
    match: Match = started_match("chickenfoot", 2)
    assert [n.player_id for n in Notification.objects.filter(kind="match_started")] == [
        players[1].pk
    ]

    play_to_end(clients[:2], match.pk)

    over = Notification.objects.filter(kind="match_over").order_by("player_id")
    assert [(n.player_id, n.payload) for n in over] == [
        (players[0].pk, {"match_id": match.pk}),
        (players[1].pk, {"match_id": match.pk}),
    ]


def test_a_dispute_tells_the_creator_and_a_correction_the_other_players(
    players: list[Player], clients: list[APIClient]
) -> None:
    # given: a finished table match of ada (creator), grace and a guest
    match_id = finished_table(clients)
    match = Match.objects.get(pk=match_id)

    # when: grace disputes round 1, then ada corrects it
    assert act(clients[1], match_id, "dispute", reason=STORABLE[0]).status_code == 201
    match.refresh_from_db()
    corrected = amend(clients[0], match_id, 1, FIXED, version=match.version)
    assert corrected.status_code == HTTPStatus.OK, corrected.content

    # then: ada was told of the dispute (not its reason), grace of the correction
    (disputed,) = inbox(players[0], "round_disputed")
    assert disputed.payload == {"match_id": match_id, "round": 1, "seat": 1}
    assert inbox(players[1], "round_disputed") == []
    (fixed,) = inbox(players[1], "result_corrected")
    assert fixed.payload == {"match_id": match_id, "round": 1}
    assert inbox(players[0], "result_corrected") == []


def test_a_key_notifies_once(players: list[Player]) -> None:
    first = notify(player_id=players[0].pk, kind="invited", payload={"match_id": 1}, key="k")
    again = notify(player_id=players[0].pk, kind="invited", payload={"match_id": 1}, key="k")

    assert first is not None
    assert again is None
    assert len(inbox(players[0])) == 1


def test_every_payload_builder_says_public_facts_only() -> None:
    allowed = {"match_id", "seat", "round", "by_player_id", "request_id"}
    builders = [f for _, f in inspect.getmembers(kinds, inspect.isfunction)]
    assert {f.__name__ for f in builders} == set(KINDS)
    for builder in builders:
        arguments = dict.fromkeys(inspect.signature(builder).parameters, 7)
        payload = builder(**arguments)
        assert set(payload) <= allowed, builder.__name__
        assert all(isinstance(value, int) for value in payload.values())
    assert set(kinds.DESCRIPTIONS) == set(KINDS)


def test_the_inbox_pages_newest_first_by_cursor_and_counts_unread(
    players: list[Player], clients: list[APIClient]
) -> None:
    ids = [
        notify(player_id=players[0].pk, kind="match_over", payload={"match_id": n}).pk
        for n in range(5)
    ]
    notify(player_id=players[1].pk, kind="match_over", payload={"match_id": 9})

    first = clients[0].get("/api/notifications?page_size=2").json()
    # a notification that comes meanwhile goes before the first page: the next pages stay
    newer = notify(player_id=players[0].pk, kind="match_over", payload={"match_id": 8}).pk
    second = clients[0].get(first["next"]).json()
    last = clients[0].get(second["next"]).json()
    back = clients[0].get(last["previous"]).json()

    assert set(first) == {"next", "previous", "results", "unread"}  # the lists' envelope
    assert [n["id"] for n in first["results"]] == ids[:-3:-1]
    assert first["previous"] is None
    assert [n["id"] for n in second["results"]] == ids[2:0:-1]
    assert ([n["id"] for n in last["results"]], last["next"]) == ([ids[0]], None)
    assert [n["id"] for n in back["results"]] == ids[2:0:-1]
    assert (first["unread"], last["unread"]) == (5, 6)
    assert newer > ids[-1]
    assert first["results"][0] == {
        "id": ids[-1],
        "kind": "match_over",
        "payload": {"match_id": 4},
        "created_at": first["results"][0]["created_at"],
        "read": False,
        "title": "Match 4: match finished",  # a match no longer there, by its id
        "body": "Your match against nobody yet is finished",
    }
    for query in ("page_size=101", "page_size=0", "cursor=made-up", "colour=red", "limit=2"):
        bad = clients[0].get(f"/api/notifications?{query}")
        assert bad.status_code == HTTPStatus.BAD_REQUEST, query
        assert bad.json()["code"] == "invalid", query


def test_read_marks_by_ids_or_up_to_and_never_another_players(
    players: list[Player], clients: list[APIClient]
) -> None:
    ids = [
        notify(player_id=players[0].pk, kind="match_over", payload={"match_id": n}).pk
        for n in range(4)
    ]
    theirs = notify(player_id=players[1].pk, kind="match_over", payload={"match_id": 9}).pk

    by_ids = clients[0].post("/api/notifications/read", {"ids": [ids[3], theirs]}, format="json")
    up_to = clients[0].post("/api/notifications/read", {"up_to": ids[1]}, format="json")

    assert by_ids.json() == {"unread": 3}
    assert up_to.json() == {"unread": 1}
    assert Notification.objects.get(pk=theirs).read_at is None
    listed = clients[0].get("/api/notifications").json()["results"]
    assert [n["read"] for n in listed] == [True, False, True, True]
    for body in ({}, {"ids": [1], "up_to": 1}, {"ids": ["x"]}, {"everything": True}):
        answer = clients[0].post("/api/notifications/read", body, format="json")
        assert answer.status_code == HTTPStatus.BAD_REQUEST, body
        assert answer["Content-Type"] == "application/problem+json"


def test_preferences_list_every_kind_and_set_push_per_kind(clients: list[APIClient]) -> None:
    shown = clients[0].get("/api/notifications/preferences").json()["preferences"]
    assert shown == [{"kind": kind, "inbox": True, "push": True} for kind in KINDS]

    body = {"preferences": [{"kind": "your_turn", "push": False}]}
    changed = clients[0].put("/api/notifications/preferences", body, format="json").json()

    assert {"kind": "your_turn", "inbox": True, "push": False} in changed["preferences"]
    assert sum(not p["push"] for p in changed["preferences"]) == 1
    for bad in (
        {"preferences": [{"kind": "nudged", "push": False}]},
        {"preferences": [{"kind": "your_turn", "push": "no"}]},
        {},
    ):
        answer = clients[0].put("/api/notifications/preferences", bad, format="json")
        assert answer.status_code == HTTPStatus.BAD_REQUEST, bad


def test_devices_register_per_token_move_between_players_and_are_removed(
    settings: Any, names: Names, players: list[Player], clients: list[APIClient]
) -> None:
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = False
    names["push.example.test"] = ["93.184.215.14"]
    subscription = {
        "kind": "webpush",
        "endpoint": "https://push.example.test/send/abc",
        "keys": {"p256dh": "B" + "A" * 86, "auth": "c2VjcmV0c2VjcmV0c2VjcmV0"[:22]},
    }
    web = clients[0].post("/api/push/devices", subscription, format="json")
    apns = clients[0].post("/api/push/devices", {"kind": "apns", "token": "a1b2"}, format="json")
    fcm = clients[0].post("/api/push/devices", {"kind": "fcm", "token": "f00d"}, format="json")
    assert [r.status_code for r in (web, apns, fcm)] == [HTTPStatus.CREATED] * 3
    assert APNSDevice.objects.get(registration_id="a1b2").user == players[0].user
    assert GCMDevice.objects.get(registration_id="f00d").cloud_message_type == "FCM"

    # the same token registered by whoever holds the phone now: moved, not doubled
    moved = clients[1].post("/api/push/devices", {"kind": "apns", "token": "a1b2"}, format="json")
    assert moved.status_code == HTTPStatus.CREATED
    assert list(PushDevice.objects.filter(token="a1b2").values_list("player_id", flat=True)) == [
        players[1].pk
    ]
    assert APNSDevice.objects.get(registration_id="a1b2").user == players[1].user

    # removing: one's own only; the library's row goes with it
    assert clients[1].delete(f"/api/push/devices/{fcm.json()['id']}").status_code == 404
    assert clients[0].delete(f"/api/push/devices/{fcm.json()['id']}").status_code == 204
    assert not GCMDevice.objects.filter(registration_id="f00d").exists()

    # refused: no keys, an endpoint not https, a token missing, an unknown kind
    for bad in (
        {"kind": "webpush", "endpoint": "https://push.example.test/x"},
        {**subscription, "keys": {"p256dh": "BPublicKey", "auth": "c2VjcmV0"}},
        {**subscription, "endpoint": "http://127.0.0.1:9/x"},
        {**subscription, "endpoint": "file:///etc/passwd"},
        {"kind": "fcm"},
        {"kind": "carrier-pigeon", "token": "x"},
    ):
        answer = clients[0].post("/api/push/devices", bad, format="json")
        assert answer.status_code == HTTPStatus.BAD_REQUEST, bad


def test_the_vapid_public_key_is_served(settings: Any, clients: list[APIClient]) -> None:
    settings.VAPID_PUBLIC_KEY = "BPublic"
    assert clients[0].get("/api/push/vapid-public-key").json() == {"public_key": "BPublic"}
    settings.VAPID_PUBLIC_KEY = ""
    assert clients[0].get("/api/push/vapid-public-key").json() == {"public_key": None}


def test_no_notification_anywhere_carries_hidden_information(
    players: list[Player], clients: list[APIClient], started_match: Any
) -> None:
    match: Match = started_match("chickenfoot", 2)
    play_to_end(clients[:2], match.pk)

    for client in clients[:2]:
        listed = client.get("/api/notifications?page_size=100").json()["results"]
        assert listed
        text = json.dumps(listed).lower()
        assert not any(word in text for word in HIDDEN), text[:500]
    assert Notification.objects.exclude(player__in=players[:2]).count() == 0


def test_a_deleted_account_keeps_no_inbox_device_or_preference_and_is_told_nothing(
    players: list[Player], clients: list[APIClient]
) -> None:
    ada = players[0]
    notify(player_id=ada.pk, kind="match_over", payload={"match_id": 1})
    clients[0].post("/api/push/devices", {"kind": "fcm", "token": "ada-phone"}, format="json")
    body = {"preferences": [{"kind": "match_over", "push": False}]}
    clients[0].put("/api/notifications/preferences", body, format="json")
    password = "a-long-enough-passphrase"  # the player factory's

    deleted = clients[0].post("/api/players/me/delete", {"password": password}, format="json")

    assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted.content
    assert not Notification.objects.filter(player=ada).exists()
    assert not PushDevice.objects.filter(player=ada).exists()
    assert not GCMDevice.objects.filter(registration_id="ada-phone").exists()
    assert notify(player_id=ada.pk, kind="match_over", payload={"match_id": 2}) is None


def test_a_stage_start_tells_each_seated_player_their_table(players: list[Player]) -> None:
    # given: a closed tournament of the four players at tables of 2, ada organising
    organiser = players[0]
    Player.objects.filter(pk=organiser.pk).update(is_organiser=True)
    organiser.refresh_from_db()
    tournament = make_competition(organiser, table_size=2, stage_count=2)
    for player in players:
        Registration.objects.create(
            competition=tournament, player=player, registered_at=tournament.created_at
        )
    competition_close(competition_id=tournament.pk, player=ref(organiser))

    # when
    stage = stage_start(competition_id=tournament.pk, player=ref(organiser), number=1)

    # then: each seated player is told of their own table, once
    tables = CompetitionMatch.objects.filter(stage=stage).values_list("match_id", flat=True)
    told = Notification.objects.filter(kind="table_assigned").order_by("player_id")
    assert len(told) == len(players)
    for row in told:
        assert row.payload["match_id"] in set(tables)
        assert row.player.seats.filter(match_id=row.payload["match_id"]).exists()
