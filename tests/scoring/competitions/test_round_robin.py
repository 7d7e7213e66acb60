"""A round robin at tables of 2 (docs/scoring.md, "Round robin"): the circle method's schedule,
checked for 5 to 16 entrants against a count made here, and a table event played through it;
refusals as problem JSON naming ``pairing``, nothing written."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from http import HTTPStatus
from itertools import combinations
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.competitions.round_robin import (
    circle_rounds,
    rounds_needed,
    schedule_order,
    seat_round,
    stage_round,
)
from scoring.competitions.standings import met_counts
from scoring.models import Bye, Competition, Registration
from tests.scoring.competitions.event_api import (
    API,
    add,
    check_in_all,
    create_event,
    event_body,
    score_stage,
    seated,
    start,
)

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.mark.parametrize("players", range(5, 17))
def test_every_two_meet_exactly_once_and_the_byes_are_one_each(players: int) -> None:
    order = schedule_order(list(range(100, 100 + players)), seed="s")
    rounds = circle_rounds(order)

    # n - 1 rounds for an even field, n for an odd one
    assert len(rounds) == rounds_needed(players) == (players if players % 2 else players - 1)
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for pairs in rounds:
        seen = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seen) == sorted(order)  # each plays or has the bye, once a round
        for a, b in pairs:
            if a is None or b is None:
                byes[a if b is None else b] += 1  # type: ignore[index]
            else:
                met[frozenset((a, b))] += 1
    # every pair of the field, counted here from the field itself, met exactly once
    assert set(met) == {frozenset(pair) for pair in combinations(order, 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(dict.fromkeys(order, 1)) if players % 2 else Counter())


def test_a_stage_past_the_rounds_plays_them_again_and_an_absent_player_leaves_a_bye() -> None:
    order = [1, 2, 3, 4]
    assert stage_round(order, 4) == stage_round(order, 1)
    assert schedule_order([3, 1, 2], "seed") == schedule_order([2, 3, 1], "seed")

    tables, byes = seat_round([(1, 2), (3, 4), (5, None)], present={1, 2, 3, 5})

    assert tables == [[1, 2]]
    assert byes == [3, 5]


def test_a_table_event_of_five_plays_its_round_robin_through(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    # given: five at tables of 2, five stages, a round robin
    cid = create_event(organiser_client, stage_count=5, pairing="round_robin")
    ids = [add(organiser_client, cid, name=f"Robin {n}")["player_id"] for n in range(5)]
    assert organiser_client.get(f"{API}/{cid}").json()["pairing"] == "round_robin"
    organiser_client.post(f"{API}/{cid}/close")

    # when: every stage is seated and scored
    for number in range(1, 6):
        check_in_all(organiser_client, cid, ids)
        body = start(organiser_client, cid, number)
        assert len(body["tables"]) == 2
        assert len(body["byes"]) == 1
        score_stage(organiser_client, cid, number, django_capture_on_commit_callbacks, ids)
        if number == 1:
            late = organiser_client.post(
                f"{API}/{cid}/entrants", {"name": "Too late"}, format="json"
            )
            assert late.status_code == HTTPStatus.CONFLICT
            changed = organiser_client.patch(f"{API}/{cid}", {"pairing": "swiss"}, format="json")
            assert changed.status_code == HTTPStatus.CONFLICT

    # then: each two met once, each sat out once, and the tournament is over
    competition = Competition.objects.get(pk=cid)
    assert met_counts(competition=competition) == {
        frozenset(pair): 1 for pair in combinations(ids, 2)
    }
    sat_out = Bye.objects.filter(competition=competition).values_list("player_id", flat=True)
    assert Counter(sat_out) == Counter(dict.fromkeys(ids, 1))
    assert competition.status == Competition.Status.FINISHED
    assert Registration.objects.filter(competition=competition).count() == 5
    assert seated(organiser_client, cid, 1) != seated(organiser_client, cid, 2)


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"table_size": 5}, "pairing"),
        ({"table_size": 2, "play": "online", "allow_bots": True, "options": {}}, "pairing"),
        ({"kind": "league", "stage_count": None}, "pairing"),
        ({"pairing": "knockout"}, "pairing"),
    ],
)
def test_a_round_robin_it_cannot_play_is_refused_naming_the_field(
    organiser_client: APIClient, fields: dict[str, Any], named: str
) -> None:
    body = event_body(**{"pairing": "round_robin", **fields})

    response = organiser_client.post(API, body, format="json")

    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    assert named in response.json()["errors"]
    assert not Competition.objects.exists()


def test_the_organiser_chooses_a_round_robin_by_patch_before_stage_one(
    organiser_client: APIClient,
) -> None:
    wide = create_event(organiser_client, table_size=5)
    refused = organiser_client.patch(
        f"{API}/{wide}", {"pairing": "round_robin", "seeding": "order"}, format="json"
    )
    assert refused.status_code == HTTPStatus.BAD_REQUEST
    assert set(refused.json()["errors"]) == {"pairing"}
    competition = Competition.objects.get(pk=wide)
    assert (competition.pairing, competition.seeding) == ("swiss", "random")

    pairs = create_event(organiser_client)
    changed = organiser_client.patch(f"{API}/{pairs}", {"pairing": "round_robin"}, format="json")

    assert changed.status_code == HTTPStatus.OK, changed.content
    assert changed.json()["pairing"] == "round_robin"
