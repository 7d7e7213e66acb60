"""Strong bots (level 4) through the services, the API and the task; what a bot is shown."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from games import bots, engine
from games.models import Match, Move, Player
from games.selectors import bot_seat_info
from games.services import SeatSpec, match_create, match_start
from games.services.replay import match_replay_verify
from games.tasks import _yields

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_strong_bots(settings: Any) -> None:
    settings.BOT_STRONG_BUDGET_MS = 2


@pytest.mark.parametrize("variant", ["chickenfoot", "mexican_train"])
def test_a_table_of_strong_bots_plays_a_match_out(
    players: list[Player], variant: str, django_capture_on_commit_callbacks: Callable
) -> None:
    # given: four strong bots
    specs = [SeatSpec(kind="bot", level=4)] * 4
    match = match_create(creator=players[0], variant=variant, seats=specs, options={"rounds": 2})

    # when
    with django_capture_on_commit_callbacks(execute=True):
        match_start(match_id=match.pk, player=players[0])

    # then
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert set(match.seats.values_list("player__bot_level", flat=True)) == {4}
    assert match_replay_verify(match_id=match.pk).ok


def test_a_bot_is_shown_its_view_and_the_rounds_log_redacted_for_its_seat(
    players: list[Player], django_capture_on_commit_callbacks: Callable
) -> None:
    # given: a human at seat 0 and three level-1 bots who played until the human's turn
    specs = [SeatSpec(kind="creator")] + [SeatSpec(kind="bot", level=1)] * 3
    match = match_create(creator=players[0], variant="chickenfoot", seats=specs)
    with django_capture_on_commit_callbacks(execute=True):
        match_start(match_id=match.pk, player=players[0])
    match.refresh_from_db()
    state = engine.from_json(match.state)

    # when
    info = bot_seat_info(match=match, state=state, seat=1, with_log=True)

    # then: seat 1's view, the round's opening then every move, nobody else's drawn tile
    assert info.view == engine.view(state, 1)
    assert info.log[0][0]["type"] == "round_started"
    assert len(info.log) == 1 + Move.objects.filter(match=match).count()
    for events in info.log:
        for event in events:
            if event["type"] == "drew":
                assert ("tile" in event) == (event["seat"] == 1)
    assert bot_seat_info(match=match, state=state, seat=1, with_log=False).log == []


def test_match_create_accepts_a_strong_bot(clients: list[APIClient]) -> None:
    seats = [{"kind": "creator"}, {"kind": "bot", "level": 4}, {"kind": "bot", "level": 3}]

    response = clients[0].post(
        "/api/matches", {"variant": "chickenfoot", "seats": seats}, format="json"
    )

    assert response.status_code == HTTPStatus.CREATED, response.content
    assert [s["bot_level"] for s in response.json()["seats"]] == [None, 4, 3]
    assert response.json()["seats"][1]["name"] == "Strong bot (level 4)"


@pytest.mark.parametrize("level", [0, 5])
def test_match_create_refuses_an_unknown_level(clients: list[APIClient], level: int) -> None:
    before = Player.objects.count(), Match.objects.count()
    seats = [{"kind": "creator"}, {"kind": "bot", "level": level}]

    response = clients[0].post(
        "/api/matches", {"variant": "chickenfoot", "seats": seats}, format="json"
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert response["Content-Type"] == "application/problem+json"
    assert (Player.objects.count(), Match.objects.count()) == before


def test_the_database_refuses_a_bot_level_beyond_strong() -> None:
    Player.objects.create(kind=Player.Kind.BOT, bot_level=4, display_name="Strong")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(kind=Player.Kind.BOT, bot_level=5, display_name="Nobody")


def test_a_worker_plays_one_move_per_task_at_a_table_with_a_strong_bot(
    players: list[Player],
) -> None:
    strong = match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec(kind="creator"), SeatSpec(kind="bot", level=4)],
    )
    heuristic = match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec(kind="creator"), SeatSpec(kind="bot", level=3)],
    )

    assert _yields(match_id=strong.pk, eager=False)
    assert not _yields(match_id=heuristic.pk, eager=False)  # a run of moves in one task
    assert not _yields(match_id=strong.pk, eager=True)  # in-process, a fresh task would recurse


def test_levels_are_named() -> None:
    assert bots.LEVELS == {1: "random", 2: "greedy", 3: "doubles", 4: "strong"}
