"""Every finished match gets its results, whoever held its seats: a table of one bot level (one
player at every seat) is written and shown but not rated, and says why (``unrated_reason``);
every other table the API accepts is rated, each distinct player once."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match, Player
from scoring import tasks as scoring_tasks
from scoring.models import MatchFinalisation, MatchResult, Rating, RatingChange
from scoring.ratings import SINGLE_RATED_PLAYER
from scoring.services import match_finalise
from scoring.services.recompute import ratings_replay
from tests.games.conftest import client_for
from tests.games.factories import BotFactory, PlayerFactory
from tests.games.helpers import submit
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def bot(level: int) -> dict[str, Any]:
    return {"kind": "bot", "level": level}


CREATOR = {"kind": "creator"}
OPEN = {"kind": "open"}

#: Every kind of table the API accepts, and whether its match is rated: (seats, distinct
#: players, rated). A bot level is one player, whatever seats it holds.
TABLES = {
    "two seats of bot level 1": ([bot(1)] * 2, 1, False),
    "three seats of bot level 1": ([bot(1)] * 3, 1, False),
    "four seats of bot level 1": ([bot(1)] * 4, 1, False),
    "two seats of bot level 4": ([bot(4)] * 2, 1, False),
    "four seats of bot level 3": ([bot(3)] * 4, 1, False),
    "four seats of bot level 4": ([bot(4)] * 4, 1, False),
    "bot levels 1 and 2": ([bot(1), bot(2)], 2, True),
    "two seats of level 2 and one of level 3": ([bot(2), bot(2), bot(3)], 2, True),
    "every bot level": ([bot(1), bot(2), bot(3), bot(4)], 4, True),
    "a person and a bot": ([CREATOR, bot(1)], 2, True),
    "a person and three seats of one bot": ([CREATOR, bot(1), bot(1), bot(1)], 2, True),
    "two people and two seats of one bot": ([CREATOR, OPEN, bot(2), bot(2)], 3, True),
    "two people and bots of two levels": ([bot(1), CREATOR, bot(2), OPEN], 4, True),
}


def play_match(
    *,
    players: list[Player],
    seats: list[dict[str, Any]],
    capture: Capture,
    variant: str = "chickenfoot",
) -> tuple[int, dict[int, APIClient]]:
    """Create, fill and start a one-round match of ``seats`` through the API and play it to its
    end: the people by random legal moves, the bots by their tasks (run on commit)."""
    creator = client_for(players[0])
    created = creator.post(
        "/api/matches",
        {"variant": variant, "seats": seats, "options": {"rounds": 1}},
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    match_id = created.json()["id"]
    people = {}
    others = iter(players[1:])
    for position, seat in enumerate(seats):
        if seat == CREATOR:
            people[position] = creator
        elif seat == OPEN:
            client = client_for(next(others))
            joined = client.post(
                f"/api/matches/{match_id}/join", {"position": position}, format="json"
            )
            assert joined.status_code in (HTTPStatus.OK, HTTPStatus.CREATED), joined.content
            people[position] = client
    with capture(execute=True):
        assert creator.post(f"/api/matches/{match_id}/start").status_code == HTTPStatus.OK
    rng = random.Random(5)
    for _ in range(5000):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            break
        client = people[match.state["turn"]]
        legal = client.get(f"/api/matches/{match_id}/legal-moves").json()
        with capture(execute=True):
            move = {**rng.choice(legal["moves"]), "version": legal["version"]}
            assert submit(client, match_id, move).status_code == HTTPStatus.CREATED
    return match_id, people


@pytest.mark.parametrize(("seats", "distinct", "rated"), TABLES.values(), ids=TABLES.keys())
def test_every_table_the_api_accepts_gets_its_results(
    players: list[Player],
    django_capture_on_commit_callbacks: Capture,
    seats: list[dict[str, Any]],
    distinct: int,
    rated: bool,
) -> None:
    # given / when: a match of these seats played to its end (its end-of-match task on commit)
    match_id, _people = play_match(
        players=players, seats=seats, capture=django_capture_on_commit_callbacks
    )

    # then: finished, finalised, a result row per seat, places 1..n as C-WIN gives them
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED
    marker = MatchFinalisation.objects.get(match_id=match_id)
    assert marker.finalised_at is not None
    assert (marker.failed_at, marker.last_error) == (None, "")
    results = list(MatchResult.objects.filter(match_id=match_id).order_by("seat"))
    assert [row.seat for row in results] == list(range(len(seats)))
    assert len({row.player_id for row in results}) == distinct
    assert min(row.place for row in results) == 1
    assert {(row.seat, row.place, row.total) for row in results} == {
        (row["seat"], row["place"], row["total"]) for row in match.standings
    }
    # rated: one change per distinct player; not rated: none, and the reason on every row
    changes = RatingChange.objects.filter(match_id=match_id)
    assert changes.count() == (distinct if rated else 0)
    assert {row.unrated_reason for row in results} == {"" if rated else SINGLE_RATED_PLAYER}
    if not rated:
        assert not Rating.objects.filter(player_id=results[0].player_id).exists()

    # and the API shows them: the match's standings, its record, the players' histories
    viewer = client_for(players[0])
    shown = viewer.get(f"/api/matches/{match_id}").json()
    assert shown["results_pending"] is False
    assert len(shown["standings"]) == len(seats)
    assert shown["unrated_reason"] == (None if rated else SINGLE_RATED_PLAYER)
    assert all((row["rating"] is None) != rated for row in shown["standings"])
    record = viewer.get(f"/api/matches/{match_id}/record").json()
    assert record["unrated_reason"] == shown["unrated_reason"]
    assert record["results"] == shown["standings"]
    for player_id in {row.player_id for row in results}:
        history = viewer.get(f"/api/players/{player_id}/history").json()["results"]
        mine = [row for row in history if row["match_id"] == match_id]
        assert mine, player_id
        assert all(row["unrated_reason"] == shown["unrated_reason"] for row in mine)


@pytest.mark.parametrize("variant", ["chickenfoot", "mexican_train"])
@pytest.mark.parametrize("level", [1, 4])
def test_an_organiser_finalises_a_table_of_one_bot_level(
    players: list[Player],
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    level: int,
) -> None:
    # given: a match of three seats of one bot level over, its end-of-match task not run
    sent: list[Any] = []
    task = scoring_tasks.match_finalise_task
    monkeypatch.setattr(task, "apply_async", lambda *a, **kw: sent.append(kw))
    match_id, _ = play_match(
        players=players,
        seats=[bot(level)] * 3,
        capture=django_capture_on_commit_callbacks,
        variant=variant,
    )
    assert sent  # it was queued, and is still pending
    assert not MatchResult.objects.filter(match_id=match_id).exists()
    organiser = client_for(PlayerFactory(is_organiser=True))

    # when: an organiser finalises it, twice
    done = organiser.post(f"/api/matches/{match_id}/finalise")
    again = organiser.post(f"/api/matches/{match_id}/finalise")

    # then: written once, with its places, and not rated, saying why
    assert done.status_code == HTTPStatus.OK, done.content
    body = done.json()
    assert (body["written"], body["results_pending"]) == (True, False)
    assert body["unrated_reason"] == SINGLE_RATED_PLAYER
    assert sorted(row["seat"] for row in body["standings"]) == [0, 1, 2]
    assert all(row["rating"] is None for row in body["standings"])
    assert again.status_code == HTTPStatus.OK
    assert again.json() == {**body, "written": False}
    assert MatchResult.objects.filter(match_id=match_id).count() == 3
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_a_table_of_one_bot_level_leaves_its_ratings_as_they_were(
    players: list[Player], django_capture_on_commit_callbacks: Capture
) -> None:
    # given: bot level 1 rated once, against level 2
    play_match(players=players, seats=[bot(1), bot(2)], capture=django_capture_on_commit_callbacks)
    before = {r.player_id: (r.mu, r.sigma, r.matches) for r in Rating.objects.all()}
    assert len(before) == 2

    # when: level 1 plays a table of its own
    match_id, _ = play_match(
        players=players, seats=[bot(1)] * 2, capture=django_capture_on_commit_callbacks
    )

    # then: its results are written and no rating moved
    assert MatchResult.objects.filter(match_id=match_id).count() == 2
    after = {r.player_id: (r.mu, r.sigma, r.matches) for r in Rating.objects.all()}
    assert after == before


def test_a_correction_replays_the_ratings_past_a_match_that_was_not_rated(
    players: list[Player], clock: Callable[[int], Any]
) -> None:
    # given: level 1 against ada, then a table of level 1 alone, then level 1 against ada again
    ada, level_1 = players[0], BotFactory(kind=Player.Kind.BOT, bot_level=1)
    first = make_finished_match(seated=[level_1, ada], scores=[[0, 12]], finished_at=clock(1))
    alone = make_finished_match(seated=[level_1, level_1], scores=[[7, 0]], finished_at=clock(2))
    last = make_finished_match(seated=[ada, level_1], scores=[[0, 30]], finished_at=clock(3))
    for match in (first, alone, last):
        assert match_finalise(match_id=match.pk).written
    written = {
        (c.match_id, c.player_id): (c.mu_before, c.mu_after) for c in RatingChange.objects.all()
    }
    assert {match_id for match_id, _ in written} == {first.pk, last.pk}

    # when: the ratings are replayed from the first match, then from the last (a correction's)
    assert ratings_replay(variant="chickenfoot", match_id=first.pk, finished_at=clock(1)) == 2
    assert ratings_replay(variant="chickenfoot", match_id=last.pk, finished_at=clock(3)) == 1

    # then: the match not rated is passed over, and each rated one rates from the last before it
    replayed = {
        (c.match_id, c.player_id): (c.mu_before, c.mu_after) for c in RatingChange.objects.all()
    }
    assert replayed.keys() == written.keys()
    for key, figures in written.items():
        assert replayed[key] == pytest.approx(figures)
    assert Rating.objects.get(player=level_1).matches == 2


def test_the_upgrade_queues_again_the_matches_given_up_for_one_player(
    players: list[Player], clock: Callable[[int], Any]
) -> None:
    # given: a table of one bot level whose task gave up on openskill's error, and a match
    # given up for another reason
    level_1 = BotFactory(kind=Player.Kind.BOT, bot_level=1)
    alone = make_finished_match(seated=[level_1, level_1], scores=[[7, 0]], finished_at=clock(1))
    other = make_finished_match(seated=players[:2], scores=[[7, 0]], finished_at=clock(2))
    error = "ValueError: Argument 'teams' must have at least 2 teams, not 1."
    for match, last_error in ((alone, error), (other, "match 2: 1 rounds recorded, 3 played")):
        MatchFinalisation.objects.create(
            match_id=match.pk,
            queued_at=clock(1),
            attempts=5,
            failed_at=timezone.now(),
            last_error=last_error,
        )

    # when: the migration's data step runs
    migration = importlib.import_module("scoring.migrations.0016_unrated_reason")
    migration.pending_again(apps, None)

    # then: the first is pending for the sweeper again, the other stays given up
    again = MatchFinalisation.objects.get(match_id=alone.pk)
    assert (again.failed_at, again.attempts, again.finalised_at) == (None, 0, None)
    assert MatchFinalisation.objects.get(match_id=other.pk).failed_at is not None
    assert match_finalise(match_id=alone.pk).written
    assert (
        MatchResult.objects.filter(match_id=alone.pk, unrated_reason=SINGLE_RATED_PLAYER).count()
        == 2
    )
