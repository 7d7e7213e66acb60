"""The notifications that invitations and quick play send: an invitee hears of the seat held
for them, and everyone quick play seats hears that their match started."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player, Seat
from games.notifications.models import Notification
from tests.games.test_invitations import invite, open_match
from tests.games.test_quick_play import FOUR, join

pytestmark = pytest.mark.django_db


def told(player: Player, kind: str) -> list[dict[str, Any]]:
    return [n.payload for n in Notification.objects.filter(player=player, kind=kind).order_by("pk")]


def test_an_invitee_is_notified_of_the_seat_held_and_a_link_tells_nobody(
    players: list[Player],
    clients: list[APIClient],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given
    match = open_match(players[0])

    # when
    with django_capture_on_commit_callbacks(execute=True):
        invite(clients[0], match, username="grace")
        invite(clients[0], match, link=True)

    # then
    assert told(players[1], "invited") == [{"match_id": match.pk, "by_player_id": players[0].pk}]
    assert Notification.objects.filter(kind="invited").count() == 1
    inbox = clients[1].get("/api/notifications").json()
    assert [(n["kind"], n["payload"]["match_id"]) for n in inbox["results"]] == [
        ("invited", match.pk)
    ]


def test_quick_play_tells_every_player_at_the_table_that_their_match_started(
    players: list[Player],
    clients: list[APIClient],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # when: four players fill a table (paired once the last join commits)
    with django_capture_on_commit_callbacks(execute=True):
        for client in clients[:4]:
            join(client, FOUR)

    # then: each of them is told once, the table's first player too
    match_id = clients[0].get("/api/queue").json()["match_id"]
    seated = set(Seat.objects.filter(match_id=match_id).values_list("player_id", flat=True))
    assert seated == {player.pk for player in players[:4]}
    for player in players[:4]:
        assert told(player, "match_started") == [{"match_id": match_id}]
