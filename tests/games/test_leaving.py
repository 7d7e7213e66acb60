"""Resigning (a bot plays on, the player ranks last) and abandoning (no standings), over HTTP."""

from __future__ import annotations

import random
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Move, Player, Seat
from games.services.replay import match_replay_verify
from games.services.standings import final_standings
from scoring.models import MatchResult, Rating, RatingChange
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_to_end, submit

# Transactional: bots move after commit, as in production.
pytestmark = pytest.mark.django_db(transaction=True)


def problem_code(response: Any) -> str:
    assert response["Content-Type"] == "application/problem+json"
    return response.json()["code"]


def test_a_resigned_seat_is_played_by_a_bot_and_counts_as_it_ends(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # given: three humans in play
    match = started_match("chickenfoot", 3, {"rounds": 2})
    version = match.version

    # when: seat 1 resigns
    response = clients[1].post(f"/api/matches/{match.pk}/resign")

    # then: a bot plays the seat, which stays theirs, marked as left
    assert response.status_code == HTTPStatus.OK, response.content
    body = response.json()
    assert body["seats"][1]["left"] == "resigned"
    assert body["seats"][1]["kind"] == "human"
    assert body["version"] > version
    seat = Seat.objects.get(match=match, position=1)
    assert (seat.left, seat.bot_level) == ("resigned", 2)
    match.refresh_from_db()
    assert 1 in match.bot_seats

    # and: the rest play to the end; seat 1 never waits for a human
    play_to_end(clients, match.pk, seed=4)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Move.objects.filter(match=match, seat=1).exists()
    marked = {row["seat"]: row.get("left") for row in match.standings}
    assert marked == {0: None, 1: "resigned", 2: None}
    assert match_replay_verify(match_id=match.pk).ok
    # the results are the seat's, by C-WIN, under the player who resigned
    result = MatchResult.objects.get(match_id=match.pk, seat=1)
    assert result.player_id == Seat.objects.get(match=match, position=1).player_id
    engine_place = next(row["place"] for row in match.standings if row["seat"] == 1)
    assert result.place == engine_place
    # and: the match rates the player who resigned at that place, like everyone at the table
    changes = RatingChange.objects.filter(match_id=match.pk)
    assert set(changes.values_list("player_id", flat=True)) == set(
        Seat.objects.filter(match=match).values_list("player_id", flat=True)
    )
    assert Rating.objects.get(player_id=result.player_id, variant="chickenfoot").matches == 1


def test_resign_refusals_change_nothing(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1})
    stranger = client_for(PlayerFactory(user__username="mallory"))
    assert clients[2].post(f"/api/matches/{match.pk}/resign").status_code == HTTPStatus.OK
    match.refresh_from_db()
    before = (match.version, match.moves_played, list(match.bot_seats))

    cases = [
        (stranger.post(f"/api/matches/{match.pk}/resign"), HTTPStatus.FORBIDDEN, "not_your_match"),
        (clients[2].post(f"/api/matches/{match.pk}/resign"), HTTPStatus.CONFLICT, "already_left"),
        (clients[0].post("/api/matches/999999/resign"), HTTPStatus.NOT_FOUND, "match_not_found"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.content
        assert problem_code(response) == code

    # a resigned player's own move is refused
    match.refresh_from_db()
    if match.state["turn"] == 2:  # a bot moves at once: it is never the resigned seat's turn
        pytest.fail("the bot did not play the resigned seat's turn")
    legal = clients[2].get(f"/api/matches/{match.pk}/legal-moves").json()
    move = {"kind": "draw", "version": legal["version"]}
    refused = submit(clients[2], match.pk, move)
    assert refused.status_code == HTTPStatus.CONFLICT
    assert problem_code(refused) in ("seat_left", "not_your_turn")

    match.refresh_from_db()
    assert (match.version, match.moves_played, list(match.bot_seats)) == before


def test_resigning_on_the_seats_turn_lets_the_bot_move_at_once(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1})
    turn = match.state["turn"]
    played = match.moves_played

    clients[turn].post(f"/api/matches/{match.pk}/resign")

    match.refresh_from_db()
    assert match.moves_played > played
    assert match.state["turn"] != turn or match.status != Match.Status.PLAYING
    assert Move.objects.filter(match=match, seat=turn, seq=played + 1).exists()


def test_resign_is_for_a_match_in_play(clients: list[APIClient]) -> None:
    created = (
        clients[0]
        .post(
            "/api/matches",
            {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]},
            format="json",
        )
        .json()
    )
    response = clients[0].post(f"/api/matches/{created['id']}/resign")
    assert response.status_code == HTTPStatus.CONFLICT
    assert problem_code(response) == "match_not_playing"


def test_abandon_stops_a_match_for_good_without_standings(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # given: a match in play, a few moves in
    match = started_match("chickenfoot", 3, {"rounds": 2})
    rng = random.Random(1)
    for _ in range(3):
        turn = Match.objects.get(pk=match.pk).state["turn"]
        legal = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()
        submit(clients[turn], match.pk, {**rng.choice(legal["moves"]), "version": legal["version"]})
    match.refresh_from_db()

    # when: a player who did not create it tries, then the creator does
    refused = clients[1].post(f"/api/matches/{match.pk}/abandon")
    assert refused.status_code == HTTPStatus.FORBIDDEN
    assert problem_code(refused) == "not_creator"
    assert Match.objects.get(pk=match.pk).version == match.version
    response = clients[0].post(f"/api/matches/{match.pk}/abandon")

    # then: abandoned, no standings; moves and a second abandon are refused
    assert response.status_code == HTTPStatus.OK, response.content
    assert response.json()["status"] == "abandoned"
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.standings is None
    assert match.finished_at is not None
    version, moves = match.version, match.moves_played
    turn = match.state["turn"]
    move = submit(clients[turn], match.pk, {"kind": "draw", "version": version})
    assert move.status_code == HTTPStatus.CONFLICT
    assert problem_code(move) == "match_not_playing"
    again = clients[0].post(f"/api/matches/{match.pk}/abandon")
    assert again.status_code == HTTPStatus.CONFLICT
    assert problem_code(again) == "match_not_playing"
    resign = clients[1].post(f"/api/matches/{match.pk}/resign")
    assert problem_code(resign) == "match_not_playing"
    match.refresh_from_db()
    assert (match.version, match.moves_played) == (version, moves)
    # and: it counts for nobody: no results and no rating change, however long one waits
    assert not MatchResult.objects.filter(match_id=match.pk).exists()
    assert not RatingChange.objects.filter(match_id=match.pk).exists()
    assert not Rating.objects.filter(player__in=players).exists()


def test_an_organiser_may_abandon_an_open_match(
    players: list[Player], clients: list[APIClient]
) -> None:
    created = (
        clients[0]
        .post(
            "/api/matches",
            {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]},
            format="json",
        )
        .json()
    )
    organiser = PlayerFactory(user__username="olga", is_organiser=True)
    response = client_for(organiser).post(f"/api/matches/{created['id']}/abandon")
    assert response.status_code == HTTPStatus.OK
    assert response.json()["status"] == "abandoned"
    join = clients[1].post(f"/api/matches/{created['id']}/join")
    assert join.status_code == HTTPStatus.CONFLICT


def test_final_standings_mark_the_leavers_and_keep_c_win_places() -> None:
    engine_order = [
        {"seat": 2, "total": 10, "place": 1},
        {"seat": 0, "total": 12, "place": 2},
        {"seat": 1, "total": 30, "place": 3},
    ]
    order = final_standings(standings=engine_order, left={2: "resigned"})
    assert [(r["seat"], r["place"], r.get("left")) for r in order] == [
        (2, 1, "resigned"),
        (0, 2, None),
        (1, 3, None),
    ]
    assert final_standings(standings=engine_order, left={}) == engine_order
