"""A whole table tournament through the API, on PostgreSQL with a real Celery worker: 40
players, four stages of ten tables of four, ten scorer links entering every round at once
(``benchmarks/table_event.py`` drives it, as ``benchmarks.tables`` does), each match finished
by the end-of-match task on the worker. Then the figures are checked against a computation from
the round rows alone, and a stage-1 round is corrected: the standings and every later rating
equal a replay from scratch."""

from __future__ import annotations

import secrets
import time
from fractions import Fraction
from typing import Any
from urllib.parse import urlsplit

import pytest

from benchmarks import table_event
from benchmarks.http_client import Client
from games.models import Player, Seat
from scoring.models import (
    CompetitionMatch,
    MatchRecompute,
    MatchResult,
    Rating,
    RatingChange,
)
from tests.games.test_table_corrections import replayed_ratings
from tests.processes import WORKER_MARKS, wait_for

pytestmark = WORKER_MARKS

ROUNDS = 3  # per match: 4 stages x 10 tables x 3 rounds keep the test near a minute


def promote(username: str) -> None:
    Player.objects.filter(user__username=username).update(is_organiser=True)


def c_win(scores: list[list[int]]) -> list[int]:
    """Each seat's place by C-WIN (docs/rules.md): lowest total, most rounds at zero, lowest
    non-zero round; seats still level share the place."""
    seats = len(scores[0])

    def key(seat: int) -> tuple[float, ...]:
        column = [row[seat] for row in scores]
        non_zero = [points for points in column if points]
        low = min(non_zero) if non_zero else float("inf")
        return (sum(column), -column.count(0), low)

    return [1 + sum(key(other) < key(seat) for other in range(seats)) for seat in range(seats)]


def placement_points(places: list[int]) -> list[Fraction]:
    """The documented default scheme (docs/scoring.md, "Points scheme"): at a table of n the
    winner gets n + 1 and place p > 1 gets n + 1 - p; a shared place shares the points of the
    places it occupies equally."""
    n = len(places)
    scheme = [n + 1] + [n + 1 - p for p in range(2, n + 1)]
    shares = []
    for place in places:
        sharing = places.count(place)
        shares.append(Fraction(sum(scheme[place - 1 : place - 1 + sharing]), sharing))
    return shares


def expected_standings(client: Client, token: str, match_ids: list[int]) -> dict[int, dict]:
    """Per player: matches, wins, placement points and pips, from each match's rounds as the
    API shows them."""
    rows: dict[int, dict[str, Any]] = {}
    for match_id in match_ids:
        status, view, _ = client.call("GET", f"/api/matches/{match_id}", None, token)
        assert status == 200, view
        places = c_win(view["round_scores"])
        for seat, share in zip(view["seats"], placement_points(places), strict=True):
            row = rows.setdefault(
                seat["player_id"], {"matches": 0, "wins": 0, "points": Fraction(0), "pips": 0}
            )
            row["matches"] += 1
            row["wins"] += places[seat["position"]] == 1
            row["points"] += share
            row["pips"] += sum(scores[seat["position"]] for scores in view["round_scores"])
    return rows


def assert_standings(client: Client, event: table_event.Event) -> list[dict[str, Any]]:
    token = event.organiser.token
    all_matches = [m for ids in event.matches.values() for m in ids]
    expected = expected_standings(client, token, all_matches)
    status, body, _ = client.call(
        "GET", f"/api/competitions/{event.competition_id}/standings", None, token
    )
    assert status == 200, body
    standings = body["standings"]
    assert len(standings) == len(event.players)
    for row in standings:
        want = expected[row["player_id"]]
        assert (row["matches"], row["wins"], row["total_points"]) == (
            want["matches"],
            want["wins"],
            want["pips"],
        ), row
        assert abs(row["placement_points"] - float(want["points"])) < 0.002, row
    points = [row["placement_points"] for row in standings]
    assert points == sorted(points, reverse=True)
    return standings


def assert_ratings_replay() -> None:
    state, changes = replayed_ratings("chickenfoot")
    stored = {
        r.player_id: (r.mu, r.sigma, r.matches)
        for r in Rating.objects.filter(variant="chickenfoot")
    }
    assert stored.keys() == state.keys()
    for player_id, (mu, sigma, count) in state.items():
        assert stored[player_id] == pytest.approx((mu, sigma, count)), player_id
    for change in RatingChange.objects.filter(variant="chickenfoot"):
        assert (change.mu_after, change.sigma_after) == pytest.approx(
            changes[(change.match_id, change.player_id)]
        )


def assert_wall(client: Client, event: table_event.Event, standings: list[dict]) -> None:
    status, wall, _ = client.call(
        "GET", f"/api/public/competitions/{event.competition_id}/standings", None
    )
    assert status == 200, wall
    assert wall["final"] is True
    names = {p.player_id: p.username for p in [event.organiser, *event.players]}
    assert [
        (row["rank"], row["name"], row["matches"], row["placement_points"])
        for row in wall["standings"]
    ] == [
        (row["rank"], names[row["player_id"]], row["matches"], row["placement_points"])
        for row in standings
    ]


def test_a_forty_player_table_tournament_scored_by_ten_links_at_once(live_server: Any) -> None:
    # given: a live server on the test database, the worker on it
    port = int(urlsplit(live_server.url).port or 0)
    started = time.monotonic()

    # when: the event is played through, stage by stage
    event = table_event.event_run(
        port, secrets.token_hex(3), promote, players=40, stages=4, options={"rounds": ROUNDS}
    )

    # then: finished, every table of ten seated and scored, nothing entered twice
    client = Client(port)
    status, detail, _ = client.call(
        "GET", f"/api/competitions/{event.competition_id}", None, event.organiser.token
    )
    assert (status, detail["status"]) == (200, "finished"), detail
    assert [len(event.matches[n]) for n in (1, 2, 3, 4)] == [10, 10, 10, 10]
    timings = event.timings
    assert len(timings.entries) == 40 * ROUNDS
    assert (timings.replays, timings.stale) == (40, 40)
    match_ids = [m for ids in event.matches.values() for m in ids]
    assert CompetitionMatch.objects.filter(match_id__in=match_ids, finished=True).count() == 40
    # the no-show sat stage 2 out, the drop-out stages 3 and 4
    no_show, dropped = event.players[event.no_show].player_id, event.dropped
    seated = {
        n: set(Seat.objects.filter(match_id__in=ids).values_list("player_id", flat=True))
        for n, ids in event.matches.items()
    }
    assert no_show not in seated[2]
    assert no_show in seated[3]
    assert dropped in seated[2]
    assert dropped not in seated[3] | seated[4]
    assert [len(seated[n]) for n in (1, 2, 3, 4)] == [40, 39, 39, 39]
    # every match has a place for every seat; ratings changed once per match and player
    for match_id in match_ids:
        seats = Seat.objects.filter(match_id=match_id).count()
        places = MatchResult.objects.filter(match_id=match_id, place__isnull=False).count()
        assert places == seats, match_id
        changes = RatingChange.objects.filter(match_id=match_id)
        assert changes.count() == changes.values("player_id").distinct().count() == seats
    standings = assert_standings(client, event)
    assert_ratings_replay()
    assert_wall(client, event, standings)

    # when: a stage-1 round is corrected, and the recompute runs on the worker
    corrected = event.matches[1][0]
    table_event.correct_round(event, corrected, 1, "Seat recounted")
    wait_for(
        lambda: MatchRecompute.objects.filter(match_id=corrected, done_at__isnull=False).exists(),
        30,
        "the recompute of the corrected match",
    )

    # then: the standings and every later rating equal a replay from scratch
    standings = assert_standings(client, event)
    assert_ratings_replay()
    assert_wall(client, event, standings)
    assert time.monotonic() - started < 150
