"""Changes to a stage's seating racing each other and a score entry, on PostgreSQL: one change
per version applies; a score entered at the same moment as a swap either comes first (and the
swap is refused) or after (at the table as the swap left it), never both."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection

from games.models import Seat
from scoring.models import SeatingChange
from tests.games.conftest import client_for
from tests.races import race
from tests.scoring.competitions.event_api import API, add, create_event, seated, start

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]


def _event(organiser: Any) -> tuple[int, list[list[int]]]:
    client = client_for(organiser)
    cid = create_event(client, options={"rounds": 2})
    for n in range(6):
        add(client, cid, name=f"P{n}", check_in=True)
    client.post(f"{API}/{cid}/close")
    start(client, cid, 1)
    return cid, seated(client, cid, 1)


def test_racing_changes_of_one_version_apply_once(organiser: Any) -> None:
    # given: three tables of 2
    cid, tables = _event(organiser)
    pairs = [
        [tables[0][0], tables[1][0]],
        [tables[1][1], tables[2][1]],
        [tables[0][1], tables[2][0]],
    ]

    # when: three swaps, each answering version 0, at once
    answers = race(
        [
            lambda pair=pair: client_for(organiser).post(
                f"{API}/{cid}/stages/1/swap", {"players": pair}, format="json",
                HTTP_IF_MATCH='"0"',
            )
            for pair in pairs
        ]
    )  # fmt: skip

    # then: one applied; the others were told the seating moved on
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [HTTPStatus.OK, HTTPStatus.CONFLICT, HTTPStatus.CONFLICT]
    assert {a.json()["code"] for a in answers if a.status_code == HTTPStatus.CONFLICT} == {
        "stale_version"
    }
    assert SeatingChange.objects.filter(competition_id=cid).count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_a_score_and_a_swap_at_once_never_both_touch_one_table(
    organiser: Any, attempt: int
) -> None:
    # given: table 1's round about to be entered while its first player is swapped away
    cid, tables = _event(organiser)
    client = client_for(organiser)
    match_id = client.get(f"{API}/{cid}/stages/1").json()["tables"][0]["match_id"]
    scores = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 9}]

    # when
    swap, entry = race(
        [
            lambda: client_for(organiser).post(
                f"{API}/{cid}/stages/1/swap", {"players": [tables[0][0], tables[1][0]]},
                format="json", HTTP_IF_MATCH='"0"',
            ),
            lambda: client_for(organiser).post(
                f"/api/matches/{match_id}/rounds/1/scores", {"version": 0, "scores": scores},
                format="json",
            ),
        ]
    )  # fmt: skip

    # then: either the swap came first (the entry then answers the match's older version) or
    # the entry did (the swap is refused: scoring started)
    assert (swap.status_code, entry.status_code) in {
        (HTTPStatus.OK, HTTPStatus.CONFLICT),
        (HTTPStatus.CONFLICT, HTTPStatus.CREATED),
    }, (swap.content, entry.content)
    seats = list(Seat.objects.filter(match_id=match_id).order_by("position").values_list(
        "player_id", flat=True))  # fmt: skip
    if swap.status_code == HTTPStatus.OK:
        assert seats[0] == tables[1][0]
        assert entry.json()["code"] == "stale_version"
    else:
        assert swap.json()["code"] == "stage_scoring_started"
        assert seats == tables[0]
