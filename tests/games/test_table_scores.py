"""Entering a table match's scores round by round: every refusal names its seat and rule, tiles
are summed, the version and Idempotency-Key contract of moves, and the last round finishing the
match through the end-of-match task."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.tables.models import ScoreEntry
from scoring.models import MatchResult, Rating, RoundResult
from scoring.services import match_finalise
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db


def create(client: APIClient, variant: str = "chickenfoot", **options: Any) -> dict[str, Any]:
    response = client.post(
        "/api/matches",
        {
            "variant": variant,
            "play": "table",
            "options": {"max_pip": 6, "rounds": 3, **options},
            "seats": [
                {"kind": "creator"},
                {"kind": "player", "username": "grace"},
                {"kind": "guest", "name": "Bea"},
            ],
        },
        format="json",
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def post(
    client: APIClient,
    match_id: int,
    number: int,
    scores: list[dict],
    version: int | None = 0,
    **h: str,
) -> Any:
    body: dict[str, Any] = {"scores": scores}
    if version is not None:
        body["version"] = version
    return client.post(f"/api/matches/{match_id}/rounds/{number}/scores", body, format="json", **h)


GOOD = [
    {"seat": 0, "points": 0, "went_out": True},
    {"seat": 1, "points": 25},
    {"seat": 2, "points": 9},
]


@pytest.fixture
def table(clients: list[APIClient]) -> dict[str, Any]:
    return create(clients[0])


def refused(response: Any) -> tuple[dict[str, list[str]], dict[str, str]]:
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY, response.content
    body = response.json()
    assert body["code"] == "invalid_scores"
    return body["errors"], body["rules"]


def test_scores_are_entered_and_the_version_moves_on(table: dict, clients: list[APIClient]):
    response = post(clients[1], table["id"], 1, GOOD)

    assert response.status_code == HTTPStatus.CREATED, response.content
    body = response.json()
    assert (body["version"], body["status"]) == (1, "playing")
    assert [s["points"] for s in body["round"]["scores"]] == [0, 25, 9]
    assert response["ETag"] == '"1"'
    rows = RoundResult.objects.filter(match_id=table["id"]).order_by("seat")
    assert [(r.points, r.went_out) for r in rows] == [(0, True), (25, False), (9, False)]


def test_every_bad_entry_is_named_at_once_with_its_seat_and_rule(
    table: dict, clients: list[APIClient]
) -> None:
    scores = [
        {"seat": 0, "points": 5, "went_out": True},  # went out with points
        {"seat": 1, "points": -3, "went_out": True},  # negative, and a second seat out
        {"seat": 2, "tiles": [[6, 6], [1, 7], [2, 3], [3, 2]]},  # start double, not in set, twice
    ]

    errors, rules = refused(post(clients[0], table["id"], 1, scores))

    assert rules == {
        "scores.0.points": "CF-SCORE",
        "scores.1.points": "C-PIPS",
        "scores.1.went_out": "CF-SCORE",
        "scores.2.tiles.0": "C-ROUNDS",
        "scores.2.tiles.1": "C-SET",
        "scores.2.tiles.3": "C-SET",
    }
    assert "Seat 0" in errors["scores.0.points"][0]
    assert "Seat 1" in errors["scores.1.went_out"][0]
    assert "6|6" in errors["scores.2.tiles.0"][0]
    assert ScoreEntry.objects.count() == 0


def test_one_tile_in_two_hands_more_points_than_the_set_and_mexican_train_rules(
    clients: list[APIClient],
) -> None:
    match = create(clients[0], variant="mexican_train", max_pip=9)
    scores = [
        {"seat": 0, "tiles": [[1, 2]], "went_out": True},
        {"seat": 1, "tiles": [[2, 1]]},
        {"seat": 2, "points": 10_000},
    ]

    errors, rules = refused(post(clients[0], match["id"], 1, scores))

    assert rules == {
        "scores.0.tiles": "MT-SCORE",
        "scores.1.tiles.0": "C-SET",
        "scores.2.points": "C-SET",
    }
    assert "seat 0's hand" in errors["scores.1.tiles.0"][0]


def test_rounds_go_in_order_and_one_entry_per_seat(table: dict, clients: list[APIClient]):
    match_id = table["id"]

    ahead = refused(post(clients[0], match_id, 2, GOOD))
    fewer = refused(post(clients[0], match_id, 1, GOOD[:2]))
    twice = refused(post(clients[0], match_id, 1, [*GOOD[:2], {"seat": 1, "points": 3}]))
    post(clients[0], match_id, 1, GOOD)
    again = refused(post(clients[0], match_id, 1, GOOD, version=1))
    past = refused(post(clients[0], match_id, 9, GOOD, version=1))

    assert ahead[1] == {"round": "C-ROUNDS"}
    assert "Round 1 is the next" in ahead[0]["round"][0]
    assert fewer[1] == {"scores": "C-SEATS"}
    assert twice[1] == {"scores.2.seat": "C-SEATS"}
    assert again[1] == {"round": "C-ROUNDS"}
    assert "no round 9" in past[0]["round"][0]


def test_tiles_are_summed_the_double_blank_at_its_option(clients: list[APIClient]) -> None:
    match = create(clients[0], double_blank_points=25)
    scores = [
        {"seat": 0, "points": 0, "went_out": True},
        {"seat": 1, "tiles": [[0, 0], [4, 5]]},
        {"seat": 2, "tiles": [[3, 1]]},
    ]

    response = post(clients[0], match["id"], 1, scores)

    assert response.status_code == HTTPStatus.CREATED, response.content
    seats = response.json()["round"]["scores"]
    assert [s["points"] for s in seats] == [0, 34, 4]
    assert seats[1]["tiles"] == [[0, 0], [4, 5]]
    assert ScoreEntry.objects.get().seats[2]["tiles"] == [[1, 3]]


def test_a_stale_version_is_409_and_none_is_428(table: dict, clients: list[APIClient]) -> None:
    post(clients[0], table["id"], 1, GOOD)

    stale = post(clients[1], table["id"], 2, GOOD, version=0)
    missing = post(clients[1], table["id"], 2, GOOD, version=None)
    by_header = post(clients[1], table["id"], 2, GOOD, version=None, HTTP_IF_MATCH='"1"')

    assert (stale.status_code, stale.json()["current_version"]) == (409, 1)
    assert stale.json()["code"] == "stale_version"
    assert missing.status_code == HTTPStatus.PRECONDITION_REQUIRED
    assert by_header.status_code == HTTPStatus.CREATED, by_header.content


def test_an_idempotency_key_replays_the_first_answer(table: dict, clients: list[APIClient]):
    first = post(clients[0], table["id"], 1, GOOD, HTTP_IDEMPOTENCY_KEY="r1")

    retry = post(clients[0], table["id"], 1, GOOD, HTTP_IDEMPOTENCY_KEY="r1")
    other = post(clients[0], table["id"], 2, GOOD, version=1, HTTP_IDEMPOTENCY_KEY="r1")

    assert retry.status_code == HTTPStatus.CREATED
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert other.json()["code"] == "idempotency_key_reused"
    assert ScoreEntry.objects.count() == 1
    assert Match.objects.get(pk=table["id"]).version == 1


def test_only_the_creator_and_seated_players_enter_scores(
    table: dict, clients: list[APIClient]
) -> None:
    outsider = post(clients[3], table["id"], 1, GOOD)

    assert (outsider.status_code, outsider.json()["code"]) == (403, "not_scorer")


def test_the_match_view_says_who_may_score(
    table: dict, clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # the creator and the seated player may; someone else who may look at it (an organiser, a
    # finished match's reader) may not; an online match has no scores to enter
    organiser = PlayerFactory(is_organiser=True)
    link = clients[0].post(f"/api/matches/{table['id']}/scorer-links").json()["code"]
    scorer = APIClient()
    scorer.credentials(HTTP_AUTHORIZATION=f"Scorer {link}")
    views = {
        "creator": clients[0].get(f"/api/matches/{table['id']}"),
        "seated": clients[1].get(f"/api/matches/{table['id']}"),
        "organiser": client_for(organiser).get(f"/api/matches/{table['id']}"),
        "scorer link": scorer.get(f"/api/matches/{table['id']}"),
        "online": clients[0].get(f"/api/matches/{started_match().pk}"),
    }

    may = {who: response.json()["you_may_score"] for who, response in views.items()}

    assert may == {
        "creator": True,
        "seated": True,
        "organiser": False,
        "scorer link": True,
        "online": False,
    }


def test_the_scores_chart_draws_the_rounds_entered(table: dict, clients: list[APIClient]) -> None:
    assert post(clients[0], table["id"], 1, GOOD).status_code == HTTPStatus.CREATED
    second = [{"seat": 0, "points": 4}, {"seat": 1, "points": 0, "went_out": True},
              {"seat": 2, "points": 11}]  # fmt: skip
    assert post(clients[1], table["id"], 2, second, version=1).status_code == HTTPStatus.CREATED

    chart = clients[1].get(f"/api/matches/{table['id']}/scores.svg")
    narrow = clients[1].get(f"/api/matches/{table['id']}/scores.svg?width=340")
    too_narrow = clients[1].get(f"/api/matches/{table['id']}/scores.svg?width=10")

    assert chart.status_code == HTTPStatus.OK
    root = ET.fromstring(chart.content)  # noqa: S314
    points = {
        (c.get("data-series"), c.get("data-step")): float(c.get("data-value"))
        for c in root.iter("{http://www.w3.org/2000/svg}circle")
        if c.get("class") == "point"
    }
    assert points == {
        **{(name, "start"): 0 for name in ("Ada", "Grace", "Bea")},
        ("Ada", "R1"): 0, ("Grace", "R1"): 25, ("Bea", "R1"): 9,
        ("Ada", "R2"): 4, ("Grace", "R2"): 25, ("Bea", "R2"): 20,
    }  # fmt: skip
    # drawn for a phone's width: 340 wide, no text under 11
    small = ET.fromstring(narrow.content)  # noqa: S314
    assert small.get("width") == "340"
    assert (
        min(float(t.get("font-size")) for t in small.iter("{http://www.w3.org/2000/svg}text")) >= 11
    )
    assert (too_narrow.status_code, too_narrow.json()["errors"]) == (
        HTTPStatus.BAD_REQUEST,
        {"width": ["Ensure this value is greater than or equal to 280."]},
    )


def test_scores_for_an_online_match_are_refused(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    match = started_match()

    response = post(clients[0], match.pk, 1, GOOD, version=match.version)

    assert (response.status_code, response.json()["code"]) == (409, "not_table_match")


def test_a_malformed_sheet_is_400(table: dict, clients: list[APIClient]) -> None:
    both = [{"seat": 0, "points": 1, "tiles": [[1, 2]]}, *GOOD[1:]]

    response = post(clients[0], table["id"], 1, both)

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert response.json()["errors"] == {"scores.0.points": ["Give `points` or `tiles`, not both."]}


def test_the_last_round_finishes_the_match_with_places_and_ratings(
    table: dict,
    clients: list[APIClient],
    players: list[Player],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: rounds 1 and 2 (seat 0 and seat 1 tie on total; seat 0 has more zero rounds)
    match_id = table["id"]
    post(clients[0], match_id, 1, GOOD)
    post(clients[0], match_id, 2, [
        {"seat": 0, "points": 20}, {"seat": 1, "points": 0, "went_out": True},
        {"seat": 2, "points": 30},
    ], version=1)  # fmt: skip

    # when
    with django_capture_on_commit_callbacks(execute=True):
        last = post(clients[1], match_id, 3, [
            {"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 0},
            {"seat": 2, "points": 4},
        ], version=2)  # fmt: skip

    # then
    assert (last.status_code, last.json()["status"]) == (201, "finished")
    places = {r.seat: r.place for r in MatchResult.objects.filter(match_id=match_id)}
    assert places == {0: 1, 1: 2, 2: 3}
    assert Rating.objects.filter(player=players[0], variant="chickenfoot", matches=1).exists()
    view = clients[0].get(f"/api/matches/{match_id}").json()
    assert [s["seat"] for s in view["standings"]] == [0, 1, 2]
    assert view["totals"] == [20, 25, 43]
    assert post(clients[0], match_id, 4, GOOD, version=3).json()["code"] == "match_not_playing"
    mine = clients[0].get("/api/matches/mine").json()["results"]
    assert [row["id"] for row in mine] == [match_id]


def test_history_says_how_each_match_was_played_and_filters_by_it(
    table: dict,
    clients: list[APIClient],
    players: list[Player],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    online = make_finished_match(seated=players[:2], scores=[[0, 5]])
    match_finalise(match_id=online.pk)
    for number in (1, 2):
        post(clients[0], table["id"], number, GOOD, version=number - 1)
    with django_capture_on_commit_callbacks(execute=True):
        post(clients[0], table["id"], 3, GOOD, version=2)
    url = f"/api/players/{players[0].pk}/history"

    everything = clients[0].get(url).json()["results"]
    at_table = clients[0].get(url, {"play": "table"}).json()["results"]
    bad = clients[0].get(url, {"play": "tabletop"})

    assert {(row["match_id"], row["play"]) for row in everything} == {
        (online.pk, "online"),
        (table["id"], "table"),
    }
    assert [row["match_id"] for row in at_table] == [table["id"]]
    assert bad.status_code == HTTPStatus.BAD_REQUEST
    stats = clients[0].get(f"/api/players/{players[0].pk}/stats").json()
    assert stats["matches"] == 2
    versus = clients[0].get(f"/api/players/{players[0].pk}/head-to-head/{players[1].pk}").json()
    assert versus["matches"] == 2  # grace sat at both tables
    board = client_for(PlayerFactory()).get("/api/leaderboards/chickenfoot").json()
    names = [row["name"] for row in board["results"]]
    assert "Ada" in names
    assert "Bea" not in names  # the guest


def test_each_entry_is_published_to_the_match_group_after_commit(
    table: dict,
    clients: list[APIClient],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    sent: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr(
        "games.live.publish.publish", lambda *, match_id, message: sent.append((match_id, message))
    )

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        post(clients[0], table["id"], 1, GOOD)
        assert sent == []  # nothing before the commit
    for callback in callbacks:
        callback()

    assert sent == [
        (
            table["id"],
            {
                "type": "match.notice",
                "frame": {
                    "type": "round_scored",
                    "version": 1,
                    "round": 1,
                    "scores": [0, 25, 9],
                    "went_out": 0,
                    "finished": False,
                },
            },
        )
    ]


def test_the_rounds_endpoint_says_who_went_out_of_each_table_round(
    table: dict, clients: list[APIClient]
) -> None:
    post(clients[0], table["id"], 1, GOOD)
    post(clients[0], table["id"], 2, [{"seat": s, "points": p} for s, p in enumerate([3, 4, 5])],
         version=1)  # fmt: skip

    rounds = clients[1].get(f"/api/matches/{table['id']}/rounds").json()["rounds"]

    assert [(r["number"], r["ended_by"], r["went_out"]) for r in rounds] == [
        (1, "out", 0),
        (2, "blocked", None),
    ]
    assert [r["start_double"] for r in rounds] == [[6, 6], [5, 5]]
    assert all(r["seed"] is None for r in rounds)
