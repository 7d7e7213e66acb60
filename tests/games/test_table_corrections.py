"""Correcting a table match's scores: the refusals, the append-only trail and its log, and the
recompute of a finished match (its results, its competition's standings and every later
rating), equal to a replay from scratch."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine.scoring import final_order
from games.models import Match, Player, Round
from games.sweeps import match_recomputes
from games.tables.models import ScoreEntry
from scoring import ratings
from scoring.competitions import points
from scoring.models import (
    Competition,
    CompetitionMatch,
    CompetitionResult,
    CompetitionTotal,
    MatchRecompute,
    MatchResult,
    Rating,
    RatingChange,
    Registration,
    RoundResult,
    Stage,
)
from scoring.services import match_finalise, match_recompute
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.test_table_scores import GOOD, create, post
from tests.scoring.competitions.conftest import make_competition
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db

FIXED = [
    {"seat": 0, "points": 30},
    {"seat": 1, "points": 0, "went_out": True},
    {"seat": 2, "points": 9},
]
LAST = [
    {"seat": 0, "points": 0, "went_out": True},
    {"seat": 1, "points": 10},
    {"seat": 2, "points": 4},
]


def amend(
    client: APIClient,
    match_id: int,
    number: int,
    scores: list[dict],
    version: int | None,
    reason: str | None = "Miscounted",
    **h: str,
) -> Any:
    body: dict[str, Any] = {"scores": scores}
    if version is not None:
        body["version"] = version
    if reason is not None:
        body["reason"] = reason
    return client.put(f"/api/matches/{match_id}/rounds/{number}/scores", body, format="json", **h)


def finished_table(clients: list[APIClient], rounds: int = 2) -> int:
    """A table match of ada (creator), grace and a guest, finished and finalised."""
    match_id = create(clients[0], rounds=rounds)["id"]
    post(clients[0], match_id, 1, GOOD)
    post(clients[0], match_id, 2, LAST, version=1)
    assert match_finalise(match_id=match_id).written
    return match_id


def test_a_correction_is_kept_with_its_reason_and_the_round_before_it(
    clients: list[APIClient], players: list[Player]
) -> None:
    # given: round 1 entered
    match_id = create(clients[0])["id"]
    post(clients[0], match_id, 1, GOOD)

    # when: grace corrects it
    response = amend(clients[1], match_id, 1, FIXED, version=1, reason="Grace went out, not Ada")

    # then: the round reads as corrected; both entries are kept, the second with before/reason
    assert response.status_code == HTTPStatus.OK, response.content
    assert response["ETag"] == '"2"'
    assert response.json()["reason"] == "Grace went out, not Ada"
    assert Round.objects.get(match_id=match_id, number=1).scores == [30, 0, 9]
    rows = RoundResult.objects.filter(match_id=match_id, round_number=1).order_by("seat")
    assert [(r.points, r.went_out) for r in rows] == [(30, False), (0, True), (9, False)]
    first, second = ScoreEntry.objects.filter(match_id=match_id).order_by("pk")
    assert (first.before, first.reason, first.entered_by) == (None, "", players[0])
    assert second.before == first.seats
    assert [s["points"] for s in second.seats] == [30, 0, 9]
    assert (second.reason, second.entered_by, second.version) == (
        "Grace went out, not Ada",
        players[1],
        2,
    )
    view = clients[0].get(f"/api/matches/{match_id}").json()
    assert [s["points"] for s in view["table_rounds"][0]["scores"]] == [30, 0, 9]


def test_a_score_entry_has_no_update_nor_delete_path(clients: list[APIClient]) -> None:
    match_id = create(clients[0])["id"]
    post(clients[0], match_id, 1, GOOD)
    entry = ScoreEntry.objects.get(match_id=match_id)

    entry.reason = "rewritten"
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()
    assert ScoreEntry.objects.get(pk=entry.pk).reason == ""


def test_corrections_are_refused_without_a_reason_stale_by_outsiders_and_for_bad_entries(
    clients: list[APIClient],
) -> None:
    match_id = create(clients[0])["id"]
    post(clients[0], match_id, 1, GOOD)

    no_reason = amend(clients[0], match_id, 1, FIXED, version=1, reason=None)
    empty = amend(clients[0], match_id, 1, FIXED, version=1, reason="")
    too_long = amend(clients[0], match_id, 1, FIXED, version=1, reason="x" * 501)
    stale = amend(clients[0], match_id, 1, FIXED, version=0)
    outsider = amend(clients[2], match_id, 1, FIXED, version=1)
    not_yet = amend(clients[0], match_id, 2, FIXED, version=1)
    bad = amend(clients[0], match_id, 1, [
        {"seat": 0, "points": -1}, {"seat": 1, "points": 0, "went_out": True},
        {"seat": 2, "tiles": [[6, 6]]},
    ], version=1)  # fmt: skip

    assert no_reason.status_code == HTTPStatus.BAD_REQUEST
    assert set(no_reason.json()["errors"]) == {"reason"}
    assert empty.status_code == too_long.status_code == HTTPStatus.BAD_REQUEST
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
    assert stale.json()["current_version"] == 1
    assert (outsider.status_code, outsider.json()["code"]) == (403, "not_scorer")
    assert (not_yet.status_code, not_yet.json()["code"]) == (404, "round_not_found")
    assert bad.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert bad.json()["rules"] == {"scores.0.points": "C-PIPS", "scores.2.tiles.0": "C-ROUNDS"}
    assert ScoreEntry.objects.filter(match_id=match_id).count() == 1


def test_a_correction_retried_with_its_idempotency_key_answers_the_first_answer(
    clients: list[APIClient],
) -> None:
    match_id = create(clients[0])["id"]
    post(clients[0], match_id, 1, GOOD)

    first = amend(clients[0], match_id, 1, FIXED, version=1, HTTP_IDEMPOTENCY_KEY="fix-1")
    again = amend(clients[0], match_id, 1, FIXED, version=1, HTTP_IDEMPOTENCY_KEY="fix-1")
    other = amend(clients[0], match_id, 1, GOOD, version=1, HTTP_IDEMPOTENCY_KEY="fix-1")

    assert again.status_code == HTTPStatus.OK
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert other.json()["code"] == "idempotency_key_reused"
    assert ScoreEntry.objects.filter(match_id=match_id).count() == 2


def tournament_table(organiser: Player, seated: list[Player], clients: list[APIClient]) -> int:
    """A one-stage tournament of ``seated`` (accounts), whose one table is a table match that
    finishes (and with it the stage and the tournament)."""
    competition = make_competition(organiser, stage_count=1)
    for player in seated:
        Registration.objects.create(
            competition=competition, player=player, registered_at=timezone.now()
        )
    Competition.objects.filter(pk=competition.pk).update(
        status=Competition.Status.RUNNING, current_stage=1
    )
    stage = Stage.objects.create(competition=competition, number=1, started_at=timezone.now())
    match_id = create(clients[0], rounds=2)["id"]
    CompetitionMatch.objects.create(
        competition=competition, match_id=match_id, stage=stage, table_number=1
    )
    post(clients[0], match_id, 1, GOOD)
    post(clients[0], match_id, 2, LAST, version=1)
    assert match_finalise(match_id=match_id).written
    assert Competition.objects.get(pk=competition.pk).status == Competition.Status.FINISHED
    return match_id


@pytest.fixture
def organiser(db: None) -> Player:
    return PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)


def test_a_locked_match_is_refused_until_its_organiser_reopens_it(
    clients: list[APIClient], players: list[Player], organiser: Player
) -> None:
    # given: the tournament of the match is finished
    match_id = tournament_table(organiser, players[:2], clients)

    # when / then
    locked = amend(clients[0], match_id, 1, FIXED, version=2)
    assert (locked.status_code, locked.json()["code"]) == (409, "match_locked")
    by_player = clients[0].post(f"/api/matches/{match_id}/reopen", {"reason": "x"}, format="json")
    assert (by_player.status_code, by_player.json()["code"]) == (403, "not_organiser")
    olga = client_for(organiser)
    no_reason = olga.post(f"/api/matches/{match_id}/reopen", {}, format="json")
    assert no_reason.status_code == HTTPStatus.BAD_REQUEST
    reopened = olga.post(
        f"/api/matches/{match_id}/reopen", {"reason": "Sheet misread"}, format="json"
    )
    assert reopened.status_code == HTTPStatus.CREATED, reopened.content
    assert reopened.json()["reason"] == "Sheet misread"
    assert amend(clients[0], match_id, 1, FIXED, version=2).status_code == HTTPStatus.OK


def test_a_standalone_table_match_is_never_locked(clients: list[APIClient]) -> None:
    match_id = finished_table(clients)
    reopen = clients[0].post(f"/api/matches/{match_id}/reopen", {"reason": "x"}, format="json")

    assert amend(clients[0], match_id, 1, FIXED, version=2).status_code == HTTPStatus.OK
    assert (reopen.status_code, reopen.json()["code"]) == (403, "not_organiser")


def test_the_score_log_lists_every_entry_in_order_to_its_readers_only(
    clients: list[APIClient], players: list[Player], organiser: Player
) -> None:
    # given: a tournament table, reopened and corrected twice
    match_id = tournament_table(organiser, players[:2], clients)
    olga = client_for(organiser)
    olga.post(f"/api/matches/{match_id}/reopen", {"reason": "Sheet misread"}, format="json")
    # (each answers the version it was given: the results written in between change no score)
    first_fix = amend(clients[1], match_id, 1, FIXED, version=2, reason="Grace went out")
    answered = int(first_fix["ETag"].strip('"'))
    amend(clients[0], match_id, 2, GOOD, version=answered, reason="Round 2 <b>swapped</b>")

    # when
    first = clients[1].get(f"/api/matches/{match_id}/score-log?limit=3").json()
    rest = olga.get(f"/api/matches/{match_id}/score-log?after={first['next']}").json()

    # then: entries then corrections, oldest first, with before/after, reason and author
    log = first["entries"] + rest["entries"]
    # (writing the results moved the version on: 3 after the last entry)
    assert [(e["round"], e["kind"], e["version"]) for e in log] == [
        (1, "entry", 1), (2, "entry", 2), (1, "correction", 4), (2, "correction", 5),
    ]  # fmt: skip
    assert rest["next"] is None
    assert log[2]["before"] == log[0]["after"]
    assert [s["points"] for s in log[2]["after"]] == [30, 0, 9]
    assert log[2]["author"] == {"player_id": players[1].pk, "name": "Grace"}
    assert log[3]["reason"] == "Round 2 <b>swapped</b>"  # kept as data, as written
    assert log[0]["reason"] is None
    # and the reopening: who, when and why, on each page
    (reopening,) = first["reopenings"]
    assert rest["reopenings"] == first["reopenings"]
    assert reopening["author"] == {"player_id": organiser.pk, "name": "Olga"}
    assert reopening["reason"] == "Sheet misread"
    assert log[1]["at"] <= reopening["at"] <= log[2]["at"]
    stranger = client_for(PlayerFactory()).get(f"/api/matches/{match_id}/score-log")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_score_reader")
    bad = clients[0].get(f"/api/matches/{match_id}/score-log?limit=1000")
    assert bad.status_code == HTTPStatus.BAD_REQUEST
    past = clients[0].get(f"/api/matches/{match_id}/score-log?after={2**63}")
    assert (past.status_code, past.json()["code"]) == (HTTPStatus.BAD_REQUEST, "invalid")


def replayed_ratings(variant: str) -> tuple[dict[int, tuple[float, float, int]], dict]:
    """Every rated match of ``variant``, replayed from scratch in the order they finished."""
    state: dict[int, tuple[float, float, int]] = {}
    changes = {}
    by_match: dict[int, list[MatchResult]] = {}
    for row in MatchResult.objects.filter(variant=variant).order_by(
        "finished_at", "match_id", "seat"
    ):
        by_match.setdefault(row.match_id, []).append(row)
    for match_id, rows in by_match.items():
        before = [state.get(r.player_id, (ratings.MU, ratings.SIGMA, 0))[:2] for r in rows]
        after = ratings.rate(before, [r.place for r in rows])
        for row, new in zip(rows, after, strict=True):
            count = state.get(row.player_id, (0, 0, 0))[2] + 1
            state[row.player_id] = (*new, count)
            changes[(match_id, row.player_id)] = new
    return state, changes


def test_correcting_a_finished_event_recomputes_results_standings_and_later_ratings(
    clients: list[APIClient],
    players: list[Player],
    organiser: Player,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: a rated match before, the tournament's table, and rated matches after it
    ada, grace, alan, edsger = players
    make_finished_match(
        seated=[ada, alan], scores=[[0, 12]], finished_at=timezone.now() - timedelta(hours=1)
    )
    assert match_finalise(match_id=Match.objects.latest("pk").pk).written
    match_id = tournament_table(organiser, [ada, grace], clients)
    later = timezone.now() + timedelta(minutes=1)
    for minutes, seated in enumerate([[ada, grace, edsger], [grace, alan], [alan, edsger]]):
        scores = [[0] + [5 * (i + 1) for i in range(len(seated) - 1)]]
        done = make_finished_match(
            seated=seated, scores=scores, finished_at=later + timedelta(minutes=minutes)
        )
        assert match_finalise(match_id=done.pk).written
    old_places = dict(MatchResult.objects.filter(match_id=match_id).values_list("seat", "place"))
    client_for(organiser).post(
        f"/api/matches/{match_id}/reopen", {"reason": "Sheet misread"}, format="json"
    )

    # when: round 1 is corrected (grace went out, ada held 30)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = amend(clients[0], match_id, 1, FIXED, version=2)
    assert response.status_code == HTTPStatus.OK, response.content
    pending = clients[0].get(f"/api/matches/{match_id}").json()
    for callback in callbacks:
        callback()  # the recompute task, eagerly

    # then: pending until recomputed, and the figures equal a replay from scratch
    assert pending["results_pending"] is True
    assert clients[0].get(f"/api/matches/{match_id}").json()["results_pending"] is False
    assert clients[0].get("/api/matches/mine").json()["results"][0]["results_pending"] is False
    scores = list(
        Round.objects.filter(match_id=match_id).order_by("number").values_list("scores", flat=True)
    )
    expected_places = {row["seat"]: row["place"] for row in final_order(scores)}
    places = dict(MatchResult.objects.filter(match_id=match_id).values_list("seat", "place"))
    assert places == expected_places != old_places
    shares = points.table_points(
        places=[places[s] for s in range(3)], scheme_places=points.default_places(3)
    )
    results = CompetitionResult.objects.filter(match_id=match_id).order_by("registration__player")
    assert [(r.place, r.placement_points) for r in results] == [
        (places[0], shares[0]),
        (places[1], shares[1]),
    ]
    totals = dict(
        CompetitionTotal.objects.values_list("registration__player_id", "placement_points")
    )
    assert totals == {ada.pk: shares[0], grace.pk: shares[1]}
    state, changes = replayed_ratings("chickenfoot")
    stored = {
        r.player_id: (r.mu, r.sigma, r.matches)
        for r in Rating.objects.filter(variant="chickenfoot")
    }
    assert stored.keys() == state.keys()
    for player_id, (mu, sigma, count) in state.items():
        assert stored[player_id] == (pytest.approx(mu), pytest.approx(sigma), count)
    kept = {
        (c.match_id, c.player_id): (c.mu_after, c.sigma_after)
        for c in RatingChange.objects.filter(variant="chickenfoot")
    }
    assert kept.keys() == changes.keys()
    for key, (mu, sigma) in changes.items():
        assert kept[key] == (pytest.approx(mu), pytest.approx(sigma))


def test_the_recompute_task_run_twice_changes_nothing_more(clients: list[APIClient]) -> None:
    match_id = finished_table(clients)
    amend(clients[0], match_id, 1, FIXED, version=2)
    MatchRecompute.objects.filter(match_id=match_id).update(done_at=None)  # as if not yet run

    first = match_recompute(match_id=match_id)
    figures = list(MatchResult.objects.filter(match_id=match_id).values().order_by("seat"))
    trail = list(RatingChange.objects.values("match_id", "player_id", "mu_after", "sigma_after"))
    second = match_recompute(match_id=match_id)

    assert (first.written, second.written) == (True, False)
    assert list(MatchResult.objects.filter(match_id=match_id).values().order_by("seat")) == figures
    assert (
        list(RatingChange.objects.values("match_id", "player_id", "mu_after", "sigma_after"))
        == trail
    )


def test_a_recompute_rates_again_only_the_later_matches_it_can_reach(
    clients: list[APIClient], players: list[Player]
) -> None:
    # given: a finished table of ada and grace; later, alan and edsger play (not reached), then
    # grace and alan (reached through grace), then alan and edsger (reached through alan), and
    # two newcomers (never reached)
    _, grace, alan, edsger = players
    match_id = finished_table(clients)
    newcomers = [PlayerFactory(), PlayerFactory()]
    later = timezone.now() + timedelta(minutes=1)
    played = []
    for minutes, seated in enumerate(
        [[alan, edsger], [grace, alan], [alan, edsger], newcomers], start=1
    ):
        done = make_finished_match(
            seated=seated, scores=[[0, 7]], finished_at=later + timedelta(minutes=minutes)
        )
        assert match_finalise(match_id=done.pk).written
        played.append(done.pk)
    rows_before = {
        match: sorted(RatingChange.objects.filter(match_id=match).values_list("pk", flat=True))
        for match in played
    }

    # when: round 1 of the table is corrected, and recomputed
    assert amend(clients[0], match_id, 1, FIXED, version=2).status_code == HTTPStatus.OK
    outcome = match_recompute(match_id=match_id)

    # then: the table and the two reached matches are rated again, the others keep their rows,
    # and every rating equals a replay from scratch
    assert (outcome.written, outcome.rated_matches) == (True, 3)
    rows_after = {
        match: sorted(RatingChange.objects.filter(match_id=match).values_list("pk", flat=True))
        for match in played
    }
    unreached, reached = [played[0], played[3]], [played[1], played[2]]
    assert all(rows_after[m] == rows_before[m] for m in unreached)
    assert all(not set(rows_after[m]) & set(rows_before[m]) for m in reached)
    state, changes = replayed_ratings("chickenfoot")
    stored = {
        r.player_id: (r.mu, r.sigma, r.matches)
        for r in Rating.objects.filter(variant="chickenfoot")
    }
    assert stored.keys() == state.keys()
    for player_id, (mu, sigma, count) in state.items():
        assert stored[player_id] == (pytest.approx(mu), pytest.approx(sigma), count)
    for change in RatingChange.objects.filter(variant="chickenfoot"):
        assert (change.mu_after, change.sigma_after) == pytest.approx(
            changes[(change.match_id, change.player_id)]
        )


def test_the_sweeper_queues_a_pending_recompute_again(
    clients: list[APIClient],
    settings: Any,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: a correction whose recompute message was lost
    match_id = finished_table(clients)
    amend(clients[0], match_id, 1, FIXED, version=2)
    MatchRecompute.objects.filter(match_id=match_id).update(
        done_at=None,
        queued_at=timezone.now() - timedelta(seconds=settings.RESULTS_STALE_SECONDS + 1),
    )
    assert clients[0].get(f"/api/matches/{match_id}").json()["results_pending"] is True
    mine = clients[0].get("/api/matches/mine").json()["results"]
    assert [(row["id"], row["results_pending"]) for row in mine] == [(match_id, True)]

    # when
    with django_capture_on_commit_callbacks(execute=True):
        queued = match_recomputes(now=timezone.now())

    # then: queued once (eagerly run), and done
    assert queued == 1
    assert match_recomputes(now=timezone.now()) == 0
    assert MatchRecompute.objects.get(match_id=match_id).done_at is not None
    assert clients[0].get(f"/api/matches/{match_id}").json()["results_pending"] is False
    assert clients[0].get("/api/matches/mine").json()["results"][0]["results_pending"] is False


def test_a_match_locks_once_the_next_stage_is_seated(
    clients: list[APIClient], players: list[Player], organiser: Player
) -> None:
    # given: a table of stage 1 of a two-stage tournament, round 1 entered
    competition = make_competition(organiser, stage_count=2)
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    stage = Stage.objects.create(competition=competition, number=1, started_at=timezone.now())
    match_id = create(clients[0])["id"]
    CompetitionMatch.objects.create(competition=competition, match_id=match_id, stage=stage)
    post(clients[0], match_id, 1, GOOD)
    assert amend(clients[0], match_id, 1, FIXED, version=1).status_code == HTTPStatus.OK

    # when: stage 2 is seated
    Stage.objects.create(competition=competition, number=2, started_at=timezone.now())

    # then
    locked = amend(clients[0], match_id, 1, GOOD, version=2)
    assert (locked.status_code, locked.json()["code"]) == (409, "match_locked")


def test_correcting_a_match_in_play_recomputes_nothing(clients: list[APIClient]) -> None:
    match_id = create(clients[0])["id"]
    post(clients[0], match_id, 1, GOOD)

    amend(clients[0], match_id, 1, FIXED, version=1)

    assert not MatchRecompute.objects.filter(match_id=match_id).exists()
    assert clients[0].get(f"/api/matches/{match_id}").json()["results_pending"] is False
    assert clients[0].get("/api/matches/mine").json()["results"][0]["results_pending"] is False


def test_a_recompute_waits_for_the_results_of_the_match(clients: list[APIClient]) -> None:
    # given: the last round entered, its end-of-match task not yet run, and a correction
    match_id = create(clients[0], rounds=2)["id"]
    post(clients[0], match_id, 1, GOOD)
    post(clients[0], match_id, 2, LAST, version=1)
    amend(clients[0], match_id, 1, FIXED, version=2)

    # when: the recompute runs first, then the end-of-match task, then the recompute again
    early = match_recompute(match_id=match_id)
    assert match_finalise(match_id=match_id).written
    late = match_recompute(match_id=match_id)

    # then: the first left the correction pending, the second did it
    assert (early.written, early.reason, late.written) == (False, "not finalised yet", True)
    assert MatchRecompute.objects.get(match_id=match_id).done_at is not None


def test_written_results_move_the_version_on_and_a_write_answering_the_one_before_stands(
    clients: list[APIClient],
) -> None:
    # given: a table match whose last entry (version 2) finished it, its results not written
    match_id = create(clients[0], rounds=2)["id"]
    post(clients[0], match_id, 1, GOOD)
    post(clients[0], match_id, 2, LAST, version=1)
    url = f"/api/matches/{match_id}"
    pending = clients[0].get(url)
    assert (pending["ETag"], pending.json()["results_pending"]) == ('"2"', True)
    assert clients[0].get(url, HTTP_IF_NONE_MATCH='"2"').status_code == HTTPStatus.NOT_MODIFIED

    # when: the end-of-match task writes them
    assert match_finalise(match_id=match_id).written

    # then: a read with the ETag held while they were pending gets them (200, a new ETag)
    written = clients[0].get(url, HTTP_IF_NONE_MATCH='"2"')
    assert written.status_code == HTTPStatus.OK
    assert written["ETag"] == '"3"'
    assert written.json()["results_pending"] is False
    assert [row["place"] for row in written.json()["standings"]] == [1, 2, 3]
    assert clients[0].get(url, HTTP_IF_NONE_MATCH='"3"').status_code == HTTPStatus.NOT_MODIFIED

    # when: a correction answers version 2 (the results changed no score)
    fixed = amend(clients[0], match_id, 1, FIXED, version=2)

    # then: it stands; the recompute moves the version on again, and a correction answering
    # the one before the recompute stands too, but not one answering two changes back
    assert (fixed.status_code, fixed["ETag"]) == (HTTPStatus.OK, '"4"'), fixed.content
    assert clients[0].get(url).json()["results_pending"] is True
    assert match_recompute(match_id=match_id).written
    recomputed = clients[0].get(url, HTTP_IF_NONE_MATCH='"4"')
    assert (recomputed.status_code, recomputed["ETag"]) == (HTTPStatus.OK, '"5"')
    assert recomputed.json()["results_pending"] is False
    assert Match.objects.get(pk=match_id).results_version == 5
    stale = amend(clients[0], match_id, 2, LAST, version=3)
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
    assert stale.json()["current_version"] == 5
    assert amend(clients[0], match_id, 2, LAST, version=4).status_code == HTTPStatus.OK
