"""No push for what the player is watching live: with a socket of theirs open on the match
(``/ws/matches/{id}``), or their ``/ws/me/`` socket in the foreground, a notification goes to
the inbox (and the socket) but to no device; once the socket goes, or the app goes to the
background, the next one is pushed. Real sockets (Channels' communicator on the project's
application) and the test's own Web Push service on loopback."""

from __future__ import annotations

import asyncio
import json
import time
from http import HTTPStatus
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache

from games.live.threads import in_cache_thread
from games.models import Match, Player
from games.notifications import kinds
from games.notifications.models import Notification, PushDelivery
from games.notifications.services import notify
from games.notifications.watching import _key, watch_begin, watch_end, watch_end_many, watching
from games.services import SeatSpec, match_create, seat_join
from tests.games.conftest import client_for
from tests.games.live import next_frame, open_socket
from tests.games.push_service import PushService
from tests.games.test_notifications_socket import me_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _match_of(ada: Player, grace: Player) -> Match:
    match = match_create(
        creator=ada, variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    seat_join(match_id=match.pk, player=grace, position=1)
    return match


def _subscribe(player: Player, service: PushService) -> None:
    answer = client_for(player).post("/api/push/devices", service.subscription(), format="json")
    assert answer.status_code == HTTPStatus.CREATED, answer.content


async def _until(condition: Any, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await db(condition)():
            return True
        await asyncio.sleep(0.02)
    return False


async def _pushed(service: PushService, notification_id: int, seconds: float = 20) -> bool:
    return await _until(
        lambda: any(r.message["id"] == notification_id for r in service.received), seconds
    )


async def test_no_push_while_the_match_socket_is_open_and_one_after_it_goes(
    service: PushService, players: list[Player]
) -> None:
    # given: grace's browser subscribed, and her socket open on the match
    ada, grace = players[:2]
    match = await db(_match_of)(ada, grace)
    await db(_subscribe)(grace, service)
    socket = await open_socket(match.pk, grace)
    assert (await next_frame(socket))["type"] == "hello"
    assert await _until(lambda: watching(player_id=grace.pk, match_id=match.pk))

    # when: it is her turn
    held = await db(notify)(
        player_id=grace.pk, kind="your_turn", payload=kinds.your_turn(match_id=match.pk, seat=1)
    )

    # then: it is in her inbox, and sent to no device
    assert await db(Notification.objects.filter(pk=held.pk).exists)()
    assert not await db(PushDelivery.objects.filter(notification_id=held.pk).exists)()

    # and: another match of hers is pushed meanwhile (she watches this one only)
    other = await db(_match_of)(ada, grace)
    elsewhere = await db(notify)(
        player_id=grace.pk, kind="your_turn", payload=kinds.your_turn(match_id=other.pk, seat=1)
    )
    assert await _pushed(service, elsewhere.pk)

    # when: her socket closes and it is her turn again
    await socket.disconnect()
    assert await _until(lambda: not watching(player_id=grace.pk, match_id=match.pk))
    again = await db(notify)(
        player_id=grace.pk,
        kind="your_turn",
        payload=kinds.your_turn(match_id=match.pk, seat=1),
        key="your_turn:again",
    )

    # then: that one is pushed, and the one held never was
    assert await _pushed(service, again.pk)
    assert [r.message["id"] for r in service.received if r.message["id"] == held.pk] == []


async def test_no_push_while_the_app_is_in_the_foreground_and_one_in_the_background(
    service: PushService, players: list[Player]
) -> None:
    # given: grace's /ws/me/ socket, the app in the foreground
    ada, grace = players[:2]
    match = await db(_match_of)(ada, grace)
    await db(_subscribe)(grace, service)
    me = await me_socket(grace)
    assert (await next_frame(me))["type"] == "hello"
    assert not await db(watching)(player_id=grace.pk, match_id=match.pk)  # opens in background
    await me.send_to(text_data=json.dumps({"type": "foreground"}))
    assert await _until(lambda: watching(player_id=grace.pk, match_id=match.pk))

    # when: she is invited
    held = await db(notify)(
        player_id=grace.pk,
        kind="invited",
        payload=kinds.invited(match_id=match.pk, by_player_id=ada.pk),
    )

    # then: the socket shows it; no device is sent it
    frame = await next_frame(me)
    assert (frame["type"], frame["notification"]["id"]) == ("notification", held.pk)
    assert not await db(PushDelivery.objects.filter(notification_id=held.pk).exists)()

    # when: the app goes to the background, and the match starts
    await me.send_to(text_data=json.dumps({"type": "background"}))
    assert await _until(lambda: not watching(player_id=grace.pk, match_id=match.pk))
    started = await db(notify)(
        player_id=grace.pk, kind="match_started", payload=kinds.match_started(match_id=match.pk)
    )

    # then: that is pushed
    assert await _pushed(service, started.pk)
    assert held.pk not in [r.message["id"] for r in service.received]

    # and: anything else said on the socket still closes it
    await me.send_to(text_data=json.dumps({"type": "visible"}))
    frames = [await next_frame(me)]
    while frames[-1]["type"] != "closing":
        frames.append(await next_frame(me))
    assert frames[-1]["code"] == 4400
    await me.disconnect()


async def test_counts_of_one_moment_are_each_counted_and_a_lapsed_count_stays_gone() -> None:
    """The sockets' counts are written together (games/notifications/watching.py): two sockets
    of one player on one match that open within the same moment count twice, so the first to
    close leaves the player watching; the last takes the count away; and the end of a count that
    lapsed meanwhile (its key expired) brings nothing back. On Redis (CI) this is the pipeline
    and its script; on the embedded default, the cache's own calls."""
    player_id, match_id = 9_000_001, 9_000_002
    await database_sync_to_async(cache.delete)(_key(player_id, match_id))
    await asyncio.gather(*(watch_begin(player_id=player_id, match_id=match_id) for _ in range(2)))
    assert await db(watching)(player_id=player_id, match_id=match_id)
    await watch_end(player_id=player_id, match_id=match_id)
    assert await db(watching)(player_id=player_id, match_id=match_id)
    await watch_end(player_id=player_id, match_id=match_id)
    assert not await db(watching)(player_id=player_id, match_id=match_id)
    assert await db(cache.get)(_key(player_id, match_id)) is None

    await in_cache_thread(watch_end_many)([(player_id, match_id)])  # lapsed: nothing to end
    assert await db(cache.get)(_key(player_id, match_id)) is None
    await watch_begin(player_id=player_id, match_id=match_id)
    assert await db(cache.get)(_key(player_id, match_id)) == 1
    await watch_end(player_id=player_id, match_id=match_id)
