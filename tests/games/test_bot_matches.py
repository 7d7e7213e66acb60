"""Matches of bots only: the per-player limit, and the queue their bots' turns go to."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone
from rest_framework.test import APIClient

from games import sweeps, tasks
from games.bot_matches import bot_only_matches_of, bot_turn_queue, bots_only
from games.models import Match, Player, Seat
from games.services import SeatSpec, match_abandon, match_create, match_start, seat_resign
from games.services.common import bot_turn_schedule
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db

BOTS = [{"kind": "bot", "level": 1}, {"kind": "bot", "level": 2}]


@pytest.fixture
def limit_two(settings: Any) -> None:
    settings.BOT_ONLY_MATCHES_PER_PLAYER = 2


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The bot turns sent (instead of running them), with their options."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(tasks.bot_play_turn, "apply_async", lambda **kw: calls.append(kw))
    return calls


def create(client: APIClient, seats: list[dict[str, Any]]) -> Any:
    return client.post("/api/matches", {"variant": "chickenfoot", "seats": seats}, format="json")


def bots_match(player: Player, *, start: bool = False, level: int = 1) -> Match:
    specs = [SeatSpec(kind="bot", level=level), SeatSpec(kind="bot", level=1)]
    match = match_create(creator=player, variant="chickenfoot", seats=specs)
    if start:
        match_start(match_id=match.pk, player=player)
        match.refresh_from_db()
    return match


# --- The limit ----------------------------------------------------------------------------------


@pytest.mark.usefixtures("limit_two", "sent")
def test_a_match_of_bots_past_the_limit_is_refused_and_nothing_is_written(
    players: list[Player],
) -> None:
    # given: ada has two matches of bots only, one open and one in play
    client = client_for(players[0])
    first = create(client, BOTS).json()["id"]
    second = create(client, BOTS).json()["id"]
    client.post(f"/api/matches/{second}/start")
    counts = (Match.objects.count(), Seat.objects.count(), Player.objects.count())

    # when: she asks for a third
    response = create(client, BOTS)

    # then: 409 bot_match_limit naming the limit and her two matches; no match, seat or bot made
    assert response.status_code == HTTPStatus.CONFLICT
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "bot_match_limit"
    assert body["title"] == "Too many matches of bots"
    assert (body["limit"], body["bot_matches"]) == (2, [first, second])
    assert "2 matches of bots only" in body["detail"]
    assert (Match.objects.count(), Seat.objects.count(), Player.objects.count()) == counts


@pytest.mark.usefixtures("limit_two")
def test_matches_with_a_person_at_the_table_or_of_another_creator_do_not_count(
    players: list[Player],
) -> None:
    # given: ada at a table with bots, a match with an open seat, and grace's two bot matches
    client = client_for(players[0])
    assert create(client, [{"kind": "creator"}, *BOTS]).status_code == HTTPStatus.CREATED
    assert create(client, [{"kind": "open"}, *BOTS]).status_code == HTTPStatus.CREATED
    bots_match(players[1])
    bots_match(players[1])

    # when / then: ada still has her two matches of bots only
    assert create(client, BOTS).status_code == HTTPStatus.CREATED
    assert create(client, BOTS).status_code == HTTPStatus.CREATED
    assert create(client, BOTS).status_code == HTTPStatus.CONFLICT


@pytest.mark.usefixtures("limit_two")
def test_a_finished_or_abandoned_match_of_bots_frees_its_place(players: list[Player]) -> None:
    # given: ada at her limit; then one match of bots is abandoned, the other finishes
    abandoned = bots_match(players[0], start=True)
    finished = bots_match(players[0], start=True)
    client = client_for(players[0])
    assert create(client, BOTS).status_code == HTTPStatus.CONFLICT
    match_abandon(match_id=abandoned.pk, player=players[0])
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)

    # when / then: two new ones are taken
    assert create(client, BOTS).status_code == HTTPStatus.CREATED
    assert create(client, BOTS).status_code == HTTPStatus.CREATED


@pytest.mark.usefixtures("sent")
def test_a_match_whose_people_all_left_counts_as_one_of_bots(players: list[Player]) -> None:
    # given: ada and a bot at a table, in play
    specs = [SeatSpec(kind="creator"), SeatSpec(kind="bot", level=1)]
    match = match_create(creator=players[0], variant="chickenfoot", seats=specs)
    match_start(match_id=match.pk, player=players[0])
    assert bot_only_matches_of(player=players[0]) == []

    # when: she resigns (a bot plays her seat on)
    seat_resign(match_id=match.pk, player=players[0])

    # then: nobody plays at that table any more: it counts
    assert bot_only_matches_of(player=players[0]) == [match.pk]


def test_the_limit_is_three_by_default_and_documented() -> None:
    assert django_settings.BOT_ONLY_MATCHES_PER_PLAYER == 3
    errors = (django_settings.BASE_DIR / "docs" / "errors.md").read_text()
    assert "`BOT_ONLY_MATCHES_PER_PLAYER` (default 3)" in errors


# --- The queue ----------------------------------------------------------------------------------


def test_only_a_match_no_person_plays_goes_to_the_bots_queue() -> None:
    default, bots_queue = django_settings.CELERY_TASK_DEFAULT_QUEUE, django_settings.BOTS_QUEUE
    assert bots_queue == f"{default}.bots"
    assert bots_only(bot_seats=[0, 1, 2], seat_count=3)
    assert not bots_only(bot_seats=[1, 2], seat_count=3)
    assert bot_turn_queue(bot_seats=[0, 1], seat_count=2) == bots_queue
    assert bot_turn_queue(bot_seats=[1], seat_count=2) == default
    assert bot_turn_queue(bot_seats=[], seat_count=2) == default


def test_workers_started_without_a_queue_consume_both() -> None:
    names = [queue.name for queue in django_settings.CELERY_TASK_QUEUES]
    assert names == [django_settings.CELERY_TASK_DEFAULT_QUEUE, django_settings.BOTS_QUEUE]


def test_a_bot_turn_is_queued_where_its_match_belongs(
    players: list[Player],
    sent: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: a table of bots, started; and ada at a table with a bot, the bot to move
    with django_capture_on_commit_callbacks(execute=True):
        alone = bots_match(players[0], start=True)
    specs = [SeatSpec(kind="creator"), SeatSpec(kind="bot", level=1)]
    with_ada = match_create(creator=players[0], variant="chickenfoot", seats=specs)
    match_start(match_id=with_ada.pk, player=players[0])
    with_ada.refresh_from_db()
    with_ada.state = {**with_ada.state, "turn": 1}
    sent_at_start = list(sent)

    # when: the turn passes to that bot
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        bot_turn_schedule(match=with_ada)

    # then: the bots' table queued its turn on the bots' queue; ada's bot, on the default queue
    assert [(c["args"][0], c["queue"]) for c in sent_at_start if c["args"][0] == alone.pk] == [
        (alone.pk, django_settings.BOTS_QUEUE)
    ]
    assert [(c["args"][0], c["queue"]) for c in sent] == [
        (with_ada.pk, django_settings.CELERY_TASK_DEFAULT_QUEUE)
    ]


def test_the_sweeper_queues_a_stale_bot_turn_where_its_match_belongs(
    players: list[Player],
    sent: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: a table of bots and a table with ada, each with a bot to move for too long
    alone = bots_match(players[0], start=True)
    specs = [SeatSpec(kind="creator"), SeatSpec(kind="bot", level=1)]
    with_ada = match_create(creator=players[0], variant="chickenfoot", seats=specs)
    match_start(match_id=with_ada.pk, player=players[0])
    long_ago = timezone.now() - timedelta(hours=1)
    Match.objects.filter(pk__in=[alone.pk, with_ada.pk]).update(
        status=Match.Status.PLAYING, bot_turn_since=long_ago
    )
    sent.clear()

    # when: the sweep runs
    with django_capture_on_commit_callbacks(execute=True):
        sweeps.bot_turns(now=timezone.now())

    # then: each went to its own queue
    queues = {call["args"][0]: call["queue"] for call in sent}
    assert queues == {
        alone.pk: django_settings.BOTS_QUEUE,
        with_ada.pk: django_settings.CELERY_TASK_DEFAULT_QUEUE,
    }


def test_a_strong_bots_run_hands_over_on_the_bots_queue(
    players: list[Player], sent: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    # given: a started table of strong bots, its first turn not yet played
    with django_capture_on_commit_callbacks(execute=True):
        match = bots_match(players[0], start=True, level=4)
    sent.clear()

    # when: a worker (not eager) plays a turn: a strong bot plays one move and hands over
    with django_capture_on_commit_callbacks(execute=True):
        played = tasks.bot_play_turn.run(match.pk)

    # then: the next task is on the bots' queue
    assert played == 1
    assert [(call["args"], call["queue"]) for call in sent] == [
        ((match.pk,), django_settings.BOTS_QUEUE)
    ]
