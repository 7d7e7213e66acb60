"""A correction of an earlier stage that changes the standings marks the seated, unscored
next stage ``pairing_stale`` with what changed (the stage, the dashboard); a re-pair clears it
and seats by the standings as they now are."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match
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


def correct(client: APIClient, match_id: int, went_out: int, capture: Callable[..., Any]) -> None:
    """Reopen table match ``match_id`` and correct its one round: seat ``went_out`` went out,
    the others keep 10 + their seat's number of points (as ``score_stage`` enters them)."""
    reopened = client.post(f"/api/matches/{match_id}/reopen", {"reason": "Miscounted"})
    assert reopened.status_code in (HTTPStatus.OK, HTTPStatus.CREATED), reopened.content
    match = Match.objects.get(pk=match_id)
    scores = [
        {"seat": i, "points": 0 if i == went_out else 10 + i, "went_out": i == went_out}
        for i in range(match.seat_count)
    ]
    with capture(execute=True):
        answer = client.put(
            f"/api/matches/{match_id}/rounds/1/scores",
            {"reason": "The other one went out", "scores": scores},
            format="json",
            HTTP_IF_MATCH=f'"{match.version}"',
        )
    assert answer.status_code == HTTPStatus.OK, answer.content


def test_a_correction_that_moves_the_standings_marks_the_next_stage_and_a_re_pair_clears_it(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    # given: four at tables of 2; stage 1 won by the first seated at each table
    capture = django_capture_on_commit_callbacks
    cid = create_event(organiser_client)
    ids = [add(organiser_client, cid, name=f"P{n}", check_in=True)["player_id"] for n in range(4)]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    (a, b), (c, d) = seated(organiser_client, cid, 1)
    tables = score_stage(organiser_client, cid, 1, capture, [a, c])
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 2)
    assert sorted(map(sorted, seated(organiser_client, cid, 2))) == sorted(
        [sorted([a, c]), sorted([b, d])]
    )
    assert organiser_client.get(f"{API}/{cid}/stages/2").json()["pairing_stale"] is None

    # when: table 1 of stage 1 is corrected: b went out, not a
    correct(organiser_client, tables[0]["match_id"], went_out=1, capture=capture)

    # then: stage 2 is marked, with what changed: a and b changed places (on points)
    stage = organiser_client.get(f"{API}/{cid}/stages/2").json()
    stale = stage["pairing_stale"]
    assert stale is not None
    assert stale["corrections"] == [{"stage": 1, "table": 1, "match_id": tables[0]["match_id"]}]
    moved = {change["player_id"]: change for change in stale["changes"]}
    assert {a, b} <= set(moved) <= {a, b, d}  # d may move a rank on the tie-break (mean)
    assert (moved[a]["placement_points_before"], moved[a]["placement_points_after"]) == (3.0, 1.0)
    assert (moved[b]["placement_points_before"], moved[b]["placement_points_after"]) == (1.0, 3.0)
    assert (moved[b]["rank_before"], moved[b]["rank_after"]) == (3, 1)
    board = organiser_client.get(f"{API}/{cid}/stages/2/dashboard").json()
    assert board["pairing_stale"] == stale
    assert stage["version"] == 0  # the seating itself has not changed

    # and one call re-pairs it by the standings as they are now
    repaired = organiser_client.post(
        f"{API}/{cid}/stages/2/re-pair", {}, format="json", HTTP_IF_MATCH='"0"'
    )
    assert repaired.status_code == HTTPStatus.OK, repaired.content
    assert repaired.json()["pairing_stale"] is None
    assert sorted(map(sorted, seated(organiser_client, cid, 2))) == sorted(
        [sorted([b, c]), sorted([a, d])]
    )


def test_a_correction_undone_takes_the_mark_off(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    capture = django_capture_on_commit_callbacks
    cid = create_event(organiser_client)
    ids = [add(organiser_client, cid, name=f"P{n}", check_in=True)["player_id"] for n in range(4)]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    (a, _b), (c, _d) = seated(organiser_client, cid, 1)
    tables = score_stage(organiser_client, cid, 1, capture, [a, c])
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 2)

    correct(organiser_client, tables[0]["match_id"], went_out=1, capture=capture)
    assert organiser_client.get(f"{API}/{cid}/stages/2").json()["pairing_stale"] is not None
    correct(organiser_client, tables[0]["match_id"], went_out=0, capture=capture)

    assert organiser_client.get(f"{API}/{cid}/stages/2").json()["pairing_stale"] is None


def test_a_stage_with_scores_is_not_marked(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    capture = django_capture_on_commit_callbacks
    cid = create_event(organiser_client)
    ids = [add(organiser_client, cid, name=f"P{n}", check_in=True)["player_id"] for n in range(4)]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    (a, _b), (c, _d) = seated(organiser_client, cid, 1)
    tables = score_stage(organiser_client, cid, 1, capture, [a, c])
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 2)
    later = organiser_client.get(f"{API}/{cid}/stages/2").json()["tables"][0]
    with capture(execute=True):
        organiser_client.post(
            f"/api/matches/{later['match_id']}/rounds/1/scores",
            {"version": 0, "scores": [{"seat": 0, "points": 0, "went_out": True},
                                      {"seat": 1, "points": 4}]},
            format="json",
        )  # fmt: skip

    correct(organiser_client, tables[0]["match_id"], went_out=1, capture=capture)

    assert organiser_client.get(f"{API}/{cid}/stages/2").json()["pairing_stale"] is None
