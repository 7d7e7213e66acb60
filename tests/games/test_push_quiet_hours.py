"""Quiet hours: a window of the day in the player's own time zone when no push goes out (the
inbox keeps each notification, which is not pushed later either); set and read with
``PATCH``/``GET /api/players/me``, a time zone checked against the time zone database."""

from __future__ import annotations

from datetime import UTC, datetime, time
from http import HTTPStatus
from typing import Any

import pytest
import time_machine
from rest_framework.test import APIClient

from games.models import Player
from games.notifications import kinds
from games.notifications.models import Notification, PushDelivery
from games.notifications.quiet import quiet_now
from games.notifications.services import notify
from tests.games.push_service import PushService
from tests.games.test_push_text import pushed, subscribe

NIGHT = {"start": "22:00", "end": "07:00"}


@pytest.mark.parametrize(
    ("zone", "start", "end", "at", "quiet"),
    [
        ("Asia/Vientiane", time(22), time(7), datetime(2026, 12, 6, 15, 30, tzinfo=UTC), True),
        ("Asia/Vientiane", time(22), time(7), datetime(2026, 12, 7, 0, 30, tzinfo=UTC), False),
        ("Asia/Vientiane", time(22), time(7), datetime(2026, 12, 6, 14, 59, tzinfo=UTC), False),
        ("Europe/London", time(22), time(7), datetime(2026, 12, 6, 15, 30, tzinfo=UTC), False),
        ("Europe/London", time(22), time(7), datetime(2026, 12, 7, 6, 59, tzinfo=UTC), True),
        ("", time(13), time(14), datetime(2026, 12, 6, 13, 0, tzinfo=UTC), True),  # UTC
        ("", time(13), time(14), datetime(2026, 12, 6, 14, 0, tzinfo=UTC), False),  # the end
        ("Asia/Yerevan", time(9), time(9), datetime(2026, 12, 6, 5, 0, tzinfo=UTC), False),
        ("Asia/Yerevan", None, None, datetime(2026, 12, 6, 5, 0, tzinfo=UTC), False),
        # New York springs forward at 02:00 on 8 March 2026: 07:15 UTC is 03:15 EDT
        ("America/New_York", time(1), time(3, 30), datetime(2026, 3, 8, 7, 15, tzinfo=UTC), True),
        ("America/New_York", time(1), time(3), datetime(2026, 3, 8, 7, 15, tzinfo=UTC), False),
    ],
)
def test_quiet_hours_are_read_on_the_players_clock(
    zone: str, start: time | None, end: time | None, at: datetime, quiet: bool
) -> None:
    assert quiet_now(time_zone=zone, start=start, end=end, now=at) is quiet


def _quiet_at_night(client: APIClient, zone: str) -> None:
    body = {"time_zone": zone, "quiet_hours": NIGHT}
    answer = client.patch("/api/players/me", body, format="json")
    assert answer.status_code == HTTPStatus.OK, answer.content
    assert (answer.json()["time_zone"], answer.json()["quiet_hours"]) == (zone, NIGHT)


@pytest.mark.django_db(transaction=True)
def test_a_push_waits_in_the_inbox_in_the_recipients_night_not_in_anothers(
    service: PushService, players: list[Player], clients: list[APIClient]
) -> None:
    # given: grace in Vientiane (UTC+7) and alan in London, each quiet from 22:00 to 07:00
    grace, alan = players[1], players[2]
    _quiet_at_night(clients[1], "Asia/Vientiane")
    _quiet_at_night(clients[2], "Europe/London")
    subscribe(clients[1], service, "grace-phone")
    subscribe(clients[2], service, "alan-phone")

    def told(player: Player, key: str) -> Notification:
        payload = kinds.match_over(match_id=5)
        return notify(player_id=player.pk, kind="match_over", payload=payload, key=key)

    # when: both are told at 15:30 UTC, 22:30 in Vientiane and 15:30 in London
    with time_machine.travel(datetime(2026, 12, 6, 15, 30, tzinfo=UTC), tick=True):
        grace_night, alan_day = told(grace, "evening"), told(alan, "evening")
        assert pushed(service, {alan_day.pk})

    # then: alan's is pushed; grace's waits in her inbox, sent to no device
    assert not PushDelivery.objects.filter(notification=grace_night).exists()
    assert Notification.objects.filter(pk=grace_night.pk, read_at__isnull=True).exists()

    # when: both are told at 00:30 UTC, 07:30 in Vientiane and 00:30 in London
    with time_machine.travel(datetime(2026, 12, 7, 0, 30, tzinfo=UTC), tick=True):
        grace_day, alan_night = told(grace, "morning"), told(alan, "morning")
        assert pushed(service, {grace_day.pk})

    # then: grace's is pushed now, alan's waits; the one of grace's night was never pushed
    assert not PushDelivery.objects.filter(notification=alan_night).exists()
    sent = [r.message["id"] for r in service.received]
    assert sorted(sent) == sorted([alan_day.pk, grace_day.pk])


@pytest.mark.django_db
def test_quiet_hours_are_set_shown_cleared_and_a_bad_one_is_refused_writing_nothing(
    players: list[Player], clients: list[APIClient]
) -> None:
    me = clients[0]
    before = me.get("/api/players/me").json()
    assert (before["time_zone"], before["quiet_hours"]) == ("", None)

    _quiet_at_night(me, "Asia/Vientiane")
    shown = me.get("/api/players/me").json()
    assert (shown["time_zone"], shown["quiet_hours"]) == ("Asia/Vientiane", NIGHT)

    bad: list[tuple[dict[str, Any], str]] = [
        ({"time_zone": "Mars/Olympus_Mons", "quiet_hours": None}, "time_zone"),
        (
            {"time_zone": "Asia/Vientiane", "quiet_hours": {"start": "24:00", "end": "07:00"}},
            "start",
        ),
        ({"quiet_hours": {"start": "22:00"}}, "end"),
        ({"quiet_hours": {"start": "22:00", "end": "7:00"}}, "end"),
    ]
    for body, field in bad:
        answer = me.patch("/api/players/me", body, format="json")
        assert answer.status_code == HTTPStatus.BAD_REQUEST, body
        problem = answer.json()
        assert problem["code"] == "invalid"
        assert any(field in name for name in problem["errors"]), problem
        assert me.get("/api/players/me").json()["quiet_hours"] == NIGHT  # nothing written

    cleared = me.patch("/api/players/me", {"quiet_hours": None}, format="json").json()
    assert (cleared["time_zone"], cleared["quiet_hours"]) == ("Asia/Vientiane", None)
    player = Player.objects.get(pk=players[0].pk)
    assert (player.quiet_hours_start, player.quiet_hours_end) == (None, None)
