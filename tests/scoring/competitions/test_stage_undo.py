"""Undoing a stage (POST /api/competitions/{id}/stages/{n}/undo): its tables and byes go,
check-in for it opens again, and it is seated again from scratch."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match
from scoring.models import Bye, Competition, CompetitionTotal, Registration, SeatingChange, Stage
from tests.scoring.competitions.event_api import (
    API,
    add,
    check_in_all,
    create_event,
    score_stage,
    seated,
    start,
)

pytestmark = pytest.mark.django_db


def undo(client: APIClient, cid: int, number: int, version: int = 0) -> Any:
    return client.post(
        f"{API}/{cid}/stages/{number}/undo",
        {"reason": "Seated before the walk-ins came"},
        format="json",
        HTTP_IF_MATCH=f'"{version}"',
    )


def test_undoing_stage_one_reopens_check_in_and_it_starts_again(
    organiser_client: APIClient,
) -> None:
    # given: five at tables of 2 (a bye), stage 1 seated; Larry walks in after
    cid = create_event(organiser_client, late_entry="bye")
    ids = [add(organiser_client, cid, name=f"P{n}", check_in=True)["player_id"] for n in range(5)]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    match_ids = list(
        Match.objects.filter(competition_match__competition_id=cid).values_list("pk", flat=True)
    )
    larry = add(organiser_client, cid, name="Larry")["player_id"]
    assert Bye.objects.filter(competition_id=cid).count() == 2  # the odd one's, Larry's

    # when
    undone = undo(organiser_client, cid, 1)

    # then: no stage, no table, no bye, no points; check-in for stage 1 is open again
    assert undone.status_code == HTTPStatus.OK, undone.content
    assert undone.json()["stage"] == 1
    assert undone.json()["open"] is True
    assert {c["player_id"] for c in undone.json()["check_ins"]} == set(ids)
    assert not Stage.objects.filter(competition_id=cid).exists()
    assert not Match.objects.filter(pk__in=match_ids).exists()
    assert not Bye.objects.filter(competition_id=cid).exists()
    assert sum(CompetitionTotal.objects.filter(registration__competition_id=cid)
               .values_list("placement_points", flat=True)) == 0  # fmt: skip
    competition = Competition.objects.get(pk=cid)
    assert (competition.status, competition.current_stage) == ("closed", 0)
    assert Registration.objects.get(competition_id=cid, player_id=larry).first_stage == 1
    change = SeatingChange.objects.get(competition_id=cid)
    assert (change.kind, change.stage_number) == ("undo", 1)
    assert len(change.tables) == 2
    # and Larry checks in; stage 1 seats the six
    check_in_all(organiser_client, cid, [larry])
    start(organiser_client, cid, 1)
    assert sorted(p for t in seated(organiser_client, cid, 1) for p in t) == sorted([*ids, larry])


def test_only_the_stage_seated_last_and_before_scores(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    cid = create_event(organiser_client)
    ids = [add(organiser_client, cid, name=f"P{n}", check_in=True)["player_id"] for n in range(4)]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks)
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 2)

    scored = undo(organiser_client, cid, 1)
    undone = undo(organiser_client, cid, 2)

    assert (scored.status_code, scored.json()["code"]) == (409, "wrong_stage")
    assert undone.status_code == HTTPStatus.OK
    competition = Competition.objects.get(pk=cid)
    assert (competition.status, competition.current_stage) == ("running", 1)
    assert undo(organiser_client, cid, 1).json()["code"] == "stage_scoring_started"
