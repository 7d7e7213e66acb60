"""The socket's ``match_over`` carries the standings HTTP shows: each seat's player and name."""

from __future__ import annotations

import random
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games.models import Match, Player
from games.results import match_final_order, match_standings
from games.selectors import match_get
from games.services import seat_resign
from scoring.models import MatchResult
from tests.games.helpers import play_turn
from tests.games.live import frames_until, next_frame, open_socket

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def finish(clients: list[APIClient], match: Match, leaver: Player) -> None:
    """A few moves, then ``leaver`` resigns (a bot plays their seat), then play to the end."""
    rng = random.Random(3)
    for _ in range(4):
        play_turn(clients, match.pk, rng)
    seat_resign(match_id=match.pk, player=leaver)
    while play_turn(clients, match.pk, rng) is not None:
        pass


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_match_over_on_the_socket_has_the_standings_of_the_http_match(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # given: a socket on a match of three, whose seat 2 resigns before the end
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    socket = await open_socket(match.pk, players[0], after=0)
    assert (await next_frame(socket))["type"] == "hello"

    # when: the match is played to its end
    await db(finish)(clients, match, players[2])
    frames = await frames_until(socket, lambda f: f["type"] == "match_over")

    # then: the frame's standings are HTTP's, seat by seat: player id, name, place, points
    response = await db(clients[1].get)(f"/api/matches/{match.pk}")
    assert response.status_code == HTTPStatus.OK
    http = response.json()["standings"]
    over = frames[-1]["standings"]
    assert over == http
    assert {row["player_id"] for row in over} == {p.pk for p in players[:3]}
    assert {row["name"] for row in over} == {"Ada", "Grace", "Alan"}
    assert [row.get("left") for row in over if row["seat"] == 2] == ["resigned"]
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)  # the end-of-match task runs on commit
def test_before_the_results_are_written_the_final_order_has_their_shape(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # given: a finished match, its results written
    match = started_match("mexican_train", 2, {"max_pip": 9, "rounds": 2})
    rng = random.Random(8)
    while play_turn(clients, match.pk, rng) is not None:
        pass
    written = match_final_order(match=match_get(match_id=match.pk))
    assert written is not None
    assert written == match_standings(match=match_get(match_id=match.pk))

    # when: the results are not written yet (the end-of-match task has not run)
    MatchResult.objects.filter(match_id=match.pk).delete()
    pending = match_get(match_id=match.pk)
    assert match_standings(match=pending) is None

    # then: the engine's order, shaped as the results would be (no rating change yet: the
    # end-of-match task rates the match)
    assert match_final_order(match=pending) == [{**row, "rating": None} for row in written]


@pytest.mark.django_db
def test_a_match_not_finished_has_no_final_order(
    started_match: Callable[..., Match],
) -> None:
    match = started_match("chickenfoot", 2, {"rounds": 1})
    assert match_final_order(match=match_get(match_id=match.pk)) is None
