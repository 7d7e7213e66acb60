"""Results an app can show without joins: standings with players, the round table, the rounds
endpoint, "my matches" with the turn, and paged lists."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games import engine
from games.models import Match, Move, Player, Round
from games.results import _ended_as_dealt, match_standings
from scoring.models import RatingChange
from tests.games.helpers import play_to_end, play_turn

pytestmark = pytest.mark.django_db


def play_until_round_ends(clients: list[APIClient], match: Match) -> None:
    rng = random.Random(7)
    while Round.objects.filter(match=match, status=Round.Status.FINISHED).count() == 0:
        assert play_turn(clients, match.pk, rng) is not None


# --- lowest_round, exactly --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounds", "zero_rounds", "lowest_round"),
    [
        ([0, 35, 0], 2, 35),  # the lowest *non-zero* round: zeros are counted apart
        ([12, 0, 7], 1, 7),
        ([0, 0], 2, None),  # every round at zero: there is no non-zero round
        ([50], 0, 50),
    ],
)
def test_lowest_round_is_the_lowest_non_zero_round(
    rounds: list[int], zero_rounds: int, lowest_round: int | None
) -> None:
    other = [5] * len(rounds)
    scores = [[mine, theirs] for mine, theirs in zip(rounds, other, strict=True)]

    (row,) = [r for r in engine.final_order(scores) if r["seat"] == 0]

    assert row["zero_rounds"] == zero_rounds
    assert row["lowest_round"] == lowest_round


# --- standings with players -------------------------------------------------------------------


def test_standings_name_each_place_with_its_seat_player_and_tie_breaks(
    clients: list[APIClient],
    players: list[Player],
    started_match: Callable[..., Match],
    django_capture_on_commit_callbacks: Callable,
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 2})
    with django_capture_on_commit_callbacks(execute=True):  # the end-of-match task writes them
        play_to_end(clients[:3], match.pk, seed=3)

    body = clients[1].get(f"/api/matches/{match.pk}").json()

    standings = body["standings"]
    assert [place["place"] for place in standings] == sorted(p["place"] for p in standings)
    by_seat = {place["seat"]: place for place in standings}
    assert set(by_seat) == {0, 1, 2}
    for seat in range(3):
        place = by_seat[seat]
        assert place["player_id"] == players[seat].pk
        assert place["name"] == players[seat].display_name
        assert place["total"] == body["totals"][seat]
        assert set(place) == {
            "place",
            "seat",
            "player_id",
            "name",
            "total",
            "zero_rounds",
            "lowest_round",
            "decided_by",
            "tiebreak",
            "rating",
        }
        change = RatingChange.objects.get(match=match, player=players[seat])
        before = round(1000 + 40 * change.ordinal_before)
        after = round(1000 + 40 * change.ordinal_after)
        assert place["rating"] == {"before": before, "after": after, "delta": after - before}
    assert body["started_at"] is not None
    assert body["finished_at"] is not None
    assert len(body["round_scores"]) == 2


def test_standings_of_an_unfinished_match_are_null(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()

    body = clients[0].get(f"/api/matches/{match.pk}").json()

    assert body["standings"] is None
    assert body["finished_at"] is None
    assert match_standings(match=match) is None


# --- the round table and seats ----------------------------------------------------------------


def test_the_match_view_always_has_the_round_table(
    clients: list[APIClient], players: list[Player], started_match: Callable[..., Match]
) -> None:
    lobby = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]},
        format="json",
    )
    before = clients[0].get(f"/api/matches/{lobby.json()['id']}").json()
    assert before["round_scores"] == []
    assert before["totals"] == [0, 0]
    assert before["started_at"] is None
    assert before["seats"][0]["player_id"] == players[0].pk
    assert before["seats"][1]["player_id"] is None

    match = started_match()
    assert clients[0].get(f"/api/matches/{match.pk}").json()["round_scores"] == []
    play_until_round_ends(clients, match)

    body = clients[2].get(f"/api/matches/{match.pk}").json()
    first = Round.objects.get(match=match, number=1)
    assert body["round_scores"][0] == first.scores
    assert body["totals"] == [sum(col) for col in zip(*body["round_scores"], strict=True)]


# --- GET /api/matches/{id}/rounds ------------------------------------------------------------


def test_rounds_show_each_round_and_reveal_a_seed_only_once_over(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    play_until_round_ends(clients, match)
    match.refresh_from_db()

    response = clients[0].get(f"/api/matches/{match.pk}/rounds")

    assert response.status_code == HTTPStatus.OK
    assert response["ETag"] == f'"{match.version}"'
    first, second = response.json()["rounds"]
    row = Round.objects.get(match=match, number=1)
    ended = next(
        event
        for events in Move.objects.filter(match=match).values_list("events", flat=True)
        for event in events
        if event["type"] == "round_ended"
    )
    assert first["number"] == 1
    assert first["start_double"] == [9, 9]
    assert first["status"] == "finished"
    assert first["scores"] == row.scores
    assert first["ended_by"] == ended["reason"]
    assert first["went_out"] == ended["seat"]
    assert first["seed"] == row.seed_revealed
    assert engine.commitment(first["seed"]) == first["commitment"]
    assert first["ended_at"] is not None
    assert second["number"] == 2
    assert second["start_double"] == [8, 8]
    assert second["status"] == "playing"
    assert second["scores"] is None
    assert second["ended_by"] is None
    assert second["went_out"] is None
    assert second["seed"] is None
    assert second["ended_at"] is None
    assert second["commitment"] == match.state["commitments"][1]


def test_rounds_leak_nothing_of_the_running_round(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    state = match.state
    text = clients[0].get(f"/api/matches/{match.pk}/rounds").content.decode()

    assert match.seed not in text
    assert engine.round_seed(match.seed, 1) not in text
    assert "hand" not in text
    held = [t for hand in state["hands"] for t in hand] + list(state["boneyard"])
    tiles = [json.dumps(t, separators=sep) for t in held for sep in ((",", ":"), (", ", ": "))]
    body = json.loads(text)
    assert set(body["rounds"][0]) == {
        "number",
        "start_double",
        "status",
        "scores",
        "ended_by",
        "went_out",
        "commitment",
        "seed",
        "started_at",
        "ended_at",
    }
    assert tiles
    assert not [tile for tile in tiles if tile in text]  # no tile of a hand or the boneyard


def test_rounds_refusals_and_304(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=2)

    assert clients[3].get(f"/api/matches/{match.pk}/rounds").status_code == HTTPStatus.FORBIDDEN
    assert clients[0].get("/api/matches/999/rounds").status_code == HTTPStatus.NOT_FOUND
    assert APIClient().get(f"/api/matches/{match.pk}/rounds").status_code == 401
    unchanged = clients[0].get(
        f"/api/matches/{match.pk}/rounds", HTTP_IF_NONE_MATCH=f'"{match.version}"'
    )
    assert unchanged.status_code == HTTPStatus.NOT_MODIFIED
    assert unchanged.content == b""


def test_a_round_that_ended_as_dealt_was_gone_out_by_the_seat_scoring_zero() -> None:
    assert _ended_as_dealt([12, 0, 30]) == ("out", 1)
    assert _ended_as_dealt([0, 0, 30]) == ("out", None)
    assert _ended_as_dealt(None) == ("out", None)


# --- my matches and paging --------------------------------------------------------------------


def test_my_matches_show_my_seat_and_whose_turn(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]

    rows = {seat: clients[seat].get("/api/matches/mine").json()["results"][0] for seat in range(3)}

    for seat, row in rows.items():
        assert row["id"] == match.pk
        assert row["your_seat"] == seat
        assert row["turn"] == turn
        assert row["your_turn"] is (seat == turn)
        assert "state" not in row


def test_my_open_match_has_no_turn(clients: list[APIClient]) -> None:
    clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "open"}, {"kind": "creator"}]},
        format="json",
    )

    (row,) = clients[0].get("/api/matches/mine").json()["results"]

    assert row["your_seat"] == 1
    assert row["turn"] is None
    assert row["your_turn"] is False


def test_my_matches_include_a_match_of_bots_i_created_once_each(
    clients: list[APIClient],
) -> None:
    bots = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "bot", "level": 1}] * 2},
        format="json",
    )
    seated = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "bot", "level": 1}]},
        format="json",
    )
    assert bots.status_code == seated.status_code == 201

    rows = clients[0].get("/api/matches/mine").json()["results"]
    others = clients[1].get("/api/matches/mine").json()["results"]

    assert [(row["id"], row["your_seat"]) for row in rows] == [
        (seated.json()["id"], 0),
        (bots.json()["id"], None),  # watched, not played: no seat, never "your turn"
    ]
    assert all(row["your_turn"] is False for row in rows[1:])
    assert others == []


@pytest.mark.parametrize("path", ["/api/matches/open", "/api/matches/mine"])
def test_lists_are_paged(clients: list[APIClient], path: str) -> None:
    ids = [
        clients[0]
        .post(
            "/api/matches",
            {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]},
            format="json",
        )
        .json()["id"]
        for _ in range(5)
    ]

    first = clients[0].get(path, {"page_size": 2}).json()
    last = clients[0].get(path, {"page_size": 2, "page": 3}).json()
    beyond = clients[0].get(path, {"page_size": 2, "page": 4})

    assert first["count"] == 5
    assert [m["id"] for m in first["results"]] == ids[::-1][:2]
    assert first["previous"] is None
    assert "page=2" in first["next"]
    assert [m["id"] for m in last["results"]] == [ids[0]]
    assert last["next"] is None
    assert beyond.status_code == HTTPStatus.NOT_FOUND
    assert beyond["Content-Type"] == "application/problem+json"


def test_page_size_over_the_largest_is_refused(clients: list[APIClient]) -> None:
    largest = clients[0].get("/api/matches/open", {"page_size": 100})
    over = clients[0].get("/api/matches/open", {"page_size": 101})

    assert largest.status_code == HTTPStatus.OK
    assert over.status_code == HTTPStatus.BAD_REQUEST
    assert over["Content-Type"] == "application/problem+json"
    assert list(over.json()["errors"]) == ["page_size"]
