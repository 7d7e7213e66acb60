"""The read side: redaction per seat, the lobby, my matches, and flat query counts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.selectors import events_for_seat, match_list_for_player, match_list_open
from games.services import SeatSpec, match_create, seat_join
from tests.games.factories import MatchFactory
from tests.games.helpers import submit

pytestmark = pytest.mark.django_db

EVENTS = [
    {"type": "drew", "seat": 1, "tile": [2, 5], "count": 1, "boneyard": 3},
    {"type": "round_ended", "round": 1, "reason": "out", "seat": 0, "hands": [[], [[2, 5]]]},
    {"type": "round_started", "round": 2, "start_double": [8, 8]},
    {"type": "drew", "seat": 2, "tile": [8, 8], "count": 1, "boneyard": 20},
]


def test_events_of_the_running_round_hide_others_draws() -> None:
    # round 1 still running: seat 0 does not see seat 1's tile
    shown = events_for_seat(
        variant="chickenfoot", events=EVENTS[:1], seat=0, first_round=1, running_round=1
    )
    assert "tile" not in shown[0]
    # the drawer sees it
    mine = events_for_seat(
        variant="chickenfoot", events=EVENTS[:1], seat=1, first_round=1, running_round=1
    )
    assert mine[0]["tile"] == [2, 5]


def test_a_round_boundary_inside_one_move_redacts_only_the_new_round() -> None:
    shown = events_for_seat(
        variant="chickenfoot", events=EVENTS, seat=0, first_round=1, running_round=2
    )

    assert shown[0]["tile"] == [2, 5]  # round 1 is over: shown whole
    assert "tile" not in shown[3]  # round 2 runs: seat 2's draw is hidden
    over = events_for_seat(
        variant="chickenfoot", events=EVENTS, seat=0, first_round=1, running_round=None
    )
    assert over == EVENTS


def test_the_lobby_lists_open_matches_with_a_free_seat(players: list[Player]) -> None:
    waiting = MatchFactory(seat_count=2)
    full = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    seat_join(match_id=full.pk, player=players[1])
    MatchFactory(status=Match.Status.PLAYING)

    assert list(match_list_open()) == [waiting]
    assert list(match_list_for_player(player=players[1])) == [full]
    assert list(match_list_for_player(player=players[1], status="playing")) == []


def test_lists_cost_the_same_few_queries_however_many_matches(
    players: list[Player], clients: list[APIClient], django_assert_max_num_queries: Callable
) -> None:
    for _ in range(10):
        match_create(
            creator=players[0],
            variant="mexican_train",
            seats=[SeatSpec("creator"), SeatSpec("open"), SeatSpec("bot", 1)],
        )

    # the token; the page's count; the page; its seats with their players; (once) the player
    with django_assert_max_num_queries(5):
        assert len(clients[1].get("/api/matches/open").json()["results"]) == 10
    with django_assert_max_num_queries(5):
        assert len(clients[0].get("/api/matches/mine").json()["results"]) == 10


def test_a_move_request_stays_lean(
    clients: list[APIClient],
    started_match: Callable[..., Match],
    django_assert_max_num_queries: Callable,
) -> None:
    match = started_match()
    turn = match.state["turn"]
    move = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()["moves"][0]

    # the token's user, their player; the match locked, with the caller's seat; the move
    # inserted; the match updated; and (in a test's transaction) a savepoint and its release.
    # Then the next player's turn notification, in the move's transaction: their seat (with
    # whether they have a push device) and its row, in a savepoint of its own (a repeat of the
    # notification's key is skipped).
    with django_assert_max_num_queries(10):
        response = submit(clients[turn], match.pk, {**move, "version": match.version})
    assert response.status_code == 201
    with django_assert_max_num_queries(4):
        clients[turn].get(f"/api/matches/{match.pk}")
    with django_assert_max_num_queries(3):
        clients[turn].get(f"/api/matches/{match.pk}/legal-moves")
