"""The end-of-match service and task: the order from the rows, C-WIN tie-breaks, idempotency."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from games.models import Match, Player
from scoring.models import MatchFinalisation, MatchResult, Rating, RatingChange, RoundResult
from scoring.services import match_finalise
from scoring.tasks import match_finalise_task
from tests.games.helpers import play_to_end
from tests.scoring.conftest import FinishedMatch

pytestmark = pytest.mark.django_db


def places(match: Match) -> list[tuple[int, int, str]]:
    """(seat, place, decided_by) per seat, in seat order."""
    return list(
        MatchResult.objects.filter(match=match)
        .order_by("seat")
        .values_list("seat", "place", "decided_by")
    )


def test_C_WIN_lowest_total_decides(players: list[Player], finished_match: FinishedMatch) -> None:
    match = finished_match(seated=players[:3], scores=[[10, 0, 5], [3, 7, 0]])

    outcome = match_finalise(match_id=match.pk)

    assert outcome.written
    assert outcome.engine_agreed
    # totals 13, 7, 5
    assert places(match) == [(0, 3, "total"), (1, 2, "total"), (2, 1, "total")]


def test_C_WIN_tie_on_total_broken_by_zero_rounds(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    # seats 0 and 1 both total 10; seat 1 scored zero twice, seat 0 once
    match = finished_match(seated=players[:3], scores=[[0, 0, 1], [5, 0, 1], [5, 10, 1]])

    match_finalise(match_id=match.pk)

    assert places(match) == [(0, 3, "zero_rounds"), (1, 2, "zero_rounds"), (2, 1, "total")]


def test_C_WIN_tie_on_total_and_zeros_broken_by_lowest_round(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    # seats 0 and 1: total 12, one zero round each; lowest non-zero rounds 2 and 5
    match = finished_match(seated=players[:3], scores=[[0, 7, 40], [10, 0, 40], [2, 5, 40]])

    match_finalise(match_id=match.pk)

    assert places(match) == [(0, 1, "lowest_round"), (1, 2, "lowest_round"), (2, 3, "total")]


def test_C_WIN_a_seat_never_above_zero_ranks_best_on_lowest_round(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    # equal totals (0) cannot happen with equal zeros unless both are all-zero: shared
    match = finished_match(seated=players[:3], scores=[[0, 0, 3], [0, 0, 4]])

    match_finalise(match_id=match.pk)

    assert places(match) == [(0, 1, "shared"), (1, 1, "shared"), (2, 3, "total")]
    results = MatchResult.objects.filter(match=match).order_by("seat")
    assert [r.lowest_round for r in results] == [None, None, 3]
    assert [r.zero_rounds for r in results] == [2, 2, 0]


def test_C_WIN_players_still_level_share_the_place(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    # seats 1 and 2 level on all three keys: places 1, 2, 2, 4
    match = finished_match(seated=players, scores=[[0, 5, 3, 20], [1, 0, 0, 20], [1, 3, 5, 20]])

    match_finalise(match_id=match.pk)

    assert places(match) == [
        (0, 1, "total"),
        (1, 2, "shared"),
        (2, 2, "shared"),
        (3, 4, "total"),
    ]


def test_results_carry_the_figures_behind_the_place(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    match = finished_match(seated=players[:2], scores=[[0, 12], [9, 4], [50, 0]])

    match_finalise(match_id=match.pk)

    first, second = MatchResult.objects.filter(match=match).order_by("place")
    assert (first.seat, first.total, first.zero_rounds, first.lowest_round) == (1, 16, 1, 4)
    assert (second.seat, second.total, second.zero_rounds, second.lowest_round) == (0, 59, 1, 9)
    assert first.rounds_played == second.rounds_played == 3
    assert first.player_id == players[1].pk
    assert first.variant == "chickenfoot"
    assert first.finished_at == match.finished_at
    assert first.seat_count == 2


def test_a_mismatch_with_the_engine_is_logged_and_the_rows_decide(
    players: list[Player], finished_match: FinishedMatch, caplog: pytest.LogCaptureFixture
) -> None:
    # given: an engine order that says seat 0 won, while the rows say seat 1 did
    wrong = [
        {
            "seat": 0,
            "place": 1,
            "total": 3,
            "zero_rounds": 0,
            "lowest_round": 3,
            "decided_by": "total",
        },
        {
            "seat": 1,
            "place": 2,
            "total": 5,
            "zero_rounds": 1,
            "lowest_round": 5,
            "decided_by": "total",
        },
    ]
    match = finished_match(seated=players[:2], scores=[[9, 0], [3, 5]], standings=wrong)

    with caplog.at_level(logging.ERROR, logger="scoring.services.finalise"):
        outcome = match_finalise(match_id=match.pk)

    assert outcome.written
    assert outcome.engine_agreed is False
    assert places(match) == [(0, 2, "total"), (1, 1, "total")]
    assert MatchFinalisation.objects.get(match=match).engine_agreed is False
    assert any("differs" in record.message for record in caplog.records)


def test_running_twice_changes_nothing(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    match = finished_match(seated=players[:3], scores=[[1, 2, 3], [0, 4, 8]])
    first = match_finalise(match_id=match.pk)
    snapshot = (
        list(MatchResult.objects.values()),
        list(Rating.objects.values("player_id", "mu", "sigma", "matches")),
        list(RatingChange.objects.values()),
    )

    second = match_finalise(match_id=match.pk)
    match_finalise_task.delay(match.pk)

    assert first.written
    assert not second.written
    assert second.reason == "already finalised"
    assert snapshot == (
        list(MatchResult.objects.values()),
        list(Rating.objects.values("player_id", "mu", "sigma", "matches")),
        list(RatingChange.objects.values()),
    )


def test_a_match_not_finished_is_left_alone(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=3)

    outcome = match_finalise(match_id=match.pk)

    assert not outcome.written
    assert outcome.reason == "the match is playing"
    assert not MatchFinalisation.objects.exists()


def test_missing_round_rows_write_nothing(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    match = finished_match(seated=players[:3], scores=[[1, 2, 3], [0, 4, 8]])
    RoundResult.objects.filter(match=match, round_number=2, seat=1).delete()

    outcome = match_finalise(match_id=match.pk)

    assert not outcome.written
    assert outcome.failed
    assert "seats have different round counts" in outcome.reason
    assert not MatchResult.objects.exists()
    assert not Rating.objects.exists()
    # the marker says why, and that no retry will mend it: the sweeper leaves it alone
    marker = MatchFinalisation.objects.get(match_id=match.pk)
    assert marker.finalised_at is None
    assert marker.failed_at is not None
    assert "seats have different round counts" in marker.last_error


def test_a_failed_match_is_finalised_once_its_rows_are_mended(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    # given: a match that failed for a missing round row
    match = finished_match(seated=players[:3], scores=[[1, 2, 3], [0, 4, 8]])
    missing = RoundResult.objects.get(match=match, round_number=2, seat=1)
    missing.delete()
    assert match_finalise(match_id=match.pk).failed

    # when: the row is put back and the match finalised again (an organiser's request)
    missing.pk = None
    missing.save()
    outcome = match_finalise(match_id=match.pk)

    # then: written once, like any match
    assert outcome.written
    assert places(match) == [(0, 1, "total"), (1, 2, "total"), (2, 3, "total")]
    assert MatchFinalisation.objects.get(match_id=match.pk).finalised_at is not None
    assert not match_finalise(match_id=match.pk).written


def test_the_task_records_an_unexpected_error_on_the_marker(
    players: list[Player], finished_match: FinishedMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = finished_match(seated=players[:2], scores=[[0, 5]])

    def broken(**_: object) -> None:
        raise ValueError("ratings exploded")

    monkeypatch.setattr("scoring.services.finalise.ratings_update", broken)
    with pytest.raises(ValueError, match="ratings exploded"):
        match_finalise_task.apply(args=(match.pk,), throw=True)

    marker = MatchFinalisation.objects.get(match_id=match.pk)
    assert marker.finalised_at is None
    assert marker.failed_at is None  # the sweeper tries again, a bounded number of times
    assert marker.last_error == "ValueError: ratings exploded"
    assert not MatchResult.objects.exists()


def test_a_match_played_through_the_api_is_finalised_on_commit(
    players: list[Player],
    clients: list,
    started_match: Callable[..., Match],
    django_capture_on_commit_callbacks: Callable,
) -> None:
    # given: a match played to its end by the API (every move commits)
    match = started_match(variant="mexican_train", n=4, options={"rounds": 3})
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(clients, match.pk, seed=3)
    match.refresh_from_db()

    # then: a row per seat per round, equal to the engine's scores; results as the engine says
    assert match.status == Match.Status.FINISHED
    assert RoundResult.objects.filter(match=match).count() == 3 * 4
    for number, scores in enumerate(match.state["scores"], start=1):
        rows = RoundResult.objects.filter(match=match, round_number=number).order_by("seat")
        assert [r.points for r in rows] == scores
        assert sum(r.went_out for r in rows) <= 1
    assert MatchFinalisation.objects.get(match=match).engine_agreed
    by_seat = {row["seat"]: row for row in match.standings}
    for result in MatchResult.objects.filter(match=match):
        engine_row = by_seat[result.seat]
        assert (result.place, result.total, result.decided_by) == (
            engine_row["place"],
            engine_row["total"],
            engine_row["decided_by"],
        )
        assert result.player_id == players[result.seat].pk
    assert Rating.objects.filter(variant="mexican_train").count() == 4
