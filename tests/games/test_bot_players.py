"""One player per bot level: every bot seat at a level sits it, at many matches and at several
seats of one match; its results gather there and it is rated once a match, at its best place."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

import pytest
from django.db import IntegrityError, transaction

from games.models import Match, Player, Seat
from games.problems import AlreadySeated
from games.services import SeatSpec, bot_player, match_create, match_start, seat_join
from scoring import ratings
from scoring.models import MatchResult, Rating, RatingChange
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db


def bots_match(creator: Player, levels: list[int]) -> Match:
    specs = [SeatSpec(kind="bot", level=level) for level in levels]
    return match_create(creator=creator, variant="chickenfoot", seats=specs, options={"rounds": 1})


def test_a_bot_level_is_one_player_made_on_first_use() -> None:
    # when
    first, again, other = bot_player(level=2), bot_player(level=2), bot_player(level=3)

    # then
    assert first.pk == again.pk != other.pk
    assert first.display_name == "Greedy bot (level 2)"
    assert Player.objects.filter(kind="bot").count() == 2


def test_the_database_refuses_a_second_player_for_a_bot_level() -> None:
    bot_player(level=1)

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(kind="bot", bot_level=1, display_name="Another")


def test_two_seats_of_one_level_sit_one_player_and_rate_it_once_at_its_best(
    players: list[Player], django_capture_on_commit_callbacks: Callable
) -> None:
    # given: a match of two level-2 bots and one level-1 bot
    match = bots_match(players[0], [2, 2, 1])

    # when: it is played out
    with django_capture_on_commit_callbacks(execute=True):
        match_start(match_id=match.pk, player=players[0])

    # then: the two seats hold one player; each seat has its result; one rating change each
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    greedy, random_bot = bot_player(level=2), bot_player(level=1)
    seats = list(Seat.objects.filter(match=match).values_list("player_id", flat=True))
    assert seats == [greedy.pk, greedy.pk, random_bot.pk]
    results = {r.seat: r for r in MatchResult.objects.filter(match=match)}
    assert len(results) == 3
    changes = {c.player_id: c for c in RatingChange.objects.filter(match=match)}
    assert set(changes) == {greedy.pk, random_bot.pk}
    best = min(results[0].place, results[1].place)
    expected = ratings.rate([(ratings.MU, ratings.SIGMA)] * 2, [best, results[2].place])
    assert changes[greedy.pk].mu_after == pytest.approx(expected[0][0])
    assert changes[random_bot.pk].mu_after == pytest.approx(expected[1][0])
    assert Rating.objects.get(player=greedy, variant="chickenfoot").matches == 1


def test_one_bot_player_sits_at_many_matches_and_the_leaderboard_lists_it_once_when_asked(
    players: list[Player], django_capture_on_commit_callbacks: Callable
) -> None:
    # given: two matches of bots, played out
    for _ in range(2):
        match = bots_match(players[0], [2, 1])
        with django_capture_on_commit_callbacks(execute=True):
            match_start(match_id=match.pk, player=players[0])

    # when
    client = client_for(players[0])
    with_bots = client.get("/api/leaderboards/chickenfoot?bots=true").json()
    without = client.get("/api/leaderboards/chickenfoot").json()

    # then
    assert Player.objects.filter(kind="bot").count() == 2
    assert sorted(r["name"] for r in with_bots["results"]) == [
        "Greedy bot (level 2)",
        "Rookie bot (level 1)",
    ]
    assert {r["matches"] for r in with_bots["results"]} == {2}
    assert without["count"] == 0


def test_a_person_still_sits_once_at_a_match(players: list[Player]) -> None:
    specs = [SeatSpec(kind="creator"), SeatSpec(kind="open"), SeatSpec(kind="bot", level=2)]
    match = match_create(creator=players[0], variant="chickenfoot", seats=specs)

    with pytest.raises(AlreadySeated):
        seat_join(match_id=match.pk, player=players[0])

    response = client_for(players[1]).post(f"/api/matches/{match.pk}/join", {}, format="json")
    assert response.status_code == HTTPStatus.OK
