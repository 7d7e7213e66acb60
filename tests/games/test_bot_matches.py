"""Matches of bots only: the per-player limit."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from games import tasks
from games.bot_matches import bot_only_matches_of
from games.models import Match, Player, Seat
from games.services import SeatSpec, match_abandon, match_create, match_start, seat_resign
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
