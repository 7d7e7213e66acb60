"""The organiser adds entrants (POST /api/competitions/{id}/entrants): guests and players with
accounts, club and seed, at any time until the competition finishes; late entry scoring; the
registration limit does not count them; a dropped entrant reinstated."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from scoring.models import Bye, Competition, CompetitionTotal, Registration
from tests.caches import CACHE_KINDS, cache_of_own
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
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


def test_a_walk_in_guest_is_entered_seated_and_scored(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    # given: a table event with one registered player
    cid = create_event(organiser_client)
    sam = PlayerFactory(user__username="sam", display_name="Sam")
    assert client_for(sam).post(f"{API}/{cid}/register").status_code == HTTPStatus.OK

    # when: the organiser adds a walk-in, checked in, and Sam by username with a club
    wendy = add(organiser_client, cid, name="Walk-in Wendy", club="Riverside", check_in=True)
    organiser_client.post(f"{API}/{cid}/close")
    check_in_all(organiser_client, cid, [sam.pk])

    # then: Wendy is a guest entrant, checked in, who plays stage 1 against Sam
    assert wendy["kind"] == "guest"
    assert wendy["name"] == "Walk-in Wendy"
    assert wendy["club"] == "Riverside"
    assert wendy["added_by_organiser"] is True
    assert wendy["first_stage"] == 1
    assert wendy["checked_in"] is True
    guest = Player.objects.get(pk=wendy["player_id"])
    assert guest.kind == Player.Kind.GUEST
    assert guest.user is None
    start(organiser_client, cid, 1)
    assert sorted(seated(organiser_client, cid, 1)[0]) == sorted([sam.pk, guest.pk])
    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks, [guest.pk])
    rows = organiser_client.get(f"{API}/{cid}/standings").json()["standings"]
    assert [(row["name"], row["rank"]) for row in rows] == [("Walk-in Wendy", 1), ("Sam", 2)]
    # a guest is on no leaderboard, as at table matches
    board = organiser_client.get("/api/leaderboards/chickenfoot").json()
    assert guest.pk not in [row["player_id"] for row in board["results"]]
    assert sam.pk in [row["player_id"] for row in board["results"]]


def test_players_with_accounts_by_username_or_id_with_club_and_seed(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client, play="online", table_size=3)
    sam = PlayerFactory(user__username="Sam", display_name="Sam")
    ada = PlayerFactory(display_name="Ada")

    by_name = add(organiser_client, cid, username="SAM", club="  Hilltop ", seed=3)
    by_id = add(organiser_client, cid, player_id=ada.pk)

    assert (by_name["player_id"], by_name["kind"], by_name["club"], by_name["seed"]) == (
        sam.pk,
        "human",
        "Hilltop",
        3,
    )
    assert by_id["player_id"] == ada.pk
    assert by_id["checked_in"] is None  # online: no check-in
    listed = organiser_client.get(f"{API}/{cid}/entrants").json()["entrants"]
    assert [e["player_id"] for e in listed] == [sam.pk, ada.pk]
    detail = organiser_client.get(f"{API}/{cid}").json()
    assert detail["registered"] == 2


def test_every_bad_field_is_named_at_once_and_nothing_is_written(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client, play="online")
    guests_before = Player.objects.filter(kind=Player.Kind.GUEST).count()

    response = organiser_client.post(
        f"{API}/{cid}/entrants",
        {"name": "Wendy", "username": "nobody", "seed": 0, "club": "x" * 65, "team": "A"},
        format="json",
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert body["code"] == "invalid"
    assert set(body["errors"]) == {"username", "seed", "club", "team"}
    assert "not two" in body["errors"]["username"][0]
    assert Registration.objects.filter(competition_id=cid).count() == 0
    assert Player.objects.filter(kind=Player.Kind.GUEST).count() == guests_before


@pytest.mark.parametrize(
    ("fields", "body", "field", "words"),
    [
        ({"play": "online"}, {"name": "Wendy"}, "name", "played online"),
        ({"kind": "league", "stage_count": None}, {"name": "Wendy"}, "name", "league ranks"),
        ({}, {"username": "ghost"}, "username", "no player ghost"),
        ({}, {"player_id": 999999}, "player_id", "no player 999999"),
        ({}, {}, "name", "Name the entrant"),
        ({}, {"name": "Shark bot"}, "name", "bot"),
        ({}, {"name": "a\u202eb"}, "name", ""),
    ],
)
def test_refusals_name_the_field(
    organiser_client: APIClient, fields: dict, body: dict, field: str, words: str
) -> None:
    cid = create_event(organiser_client, **fields)

    response = organiser_client.post(f"{API}/{cid}/entrants", body, format="json")

    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response.headers["Content-Type"] == "application/problem+json"
    assert words in " ".join(response.json()["errors"][field])


def test_a_bot_cannot_be_entered(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client)
    bot = Player.objects.create(kind=Player.Kind.BOT, bot_level=2, display_name="Greedy bot")

    response = organiser_client.post(f"{API}/{cid}/entrants", {"player_id": bot.pk})

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert list(response.json()["errors"]) == ["player_id"]


def test_conflicts_and_who_may_add(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client)
    sam = PlayerFactory(user__username="sam")
    add(organiser_client, cid, username="sam")

    again = organiser_client.post(f"{API}/{cid}/entrants", {"player_id": sam.pk})
    stranger = client_for(PlayerFactory()).post(f"{API}/{cid}/entrants", {"name": "Wendy"})
    nowhere = organiser_client.post(f"{API}/999999/entrants", {"name": "Wendy"})
    twin = organiser_client.post(f"{API}/{cid}/entrants", {"name": "Wendy"})
    twin_again = organiser_client.post(f"{API}/{cid}/entrants", {"name": " wendy "})
    Competition.objects.filter(pk=cid).update(status=Competition.Status.FINISHED)
    late = organiser_client.post(f"{API}/{cid}/entrants", {"name": "Zed"})

    assert again.status_code == HTTPStatus.CONFLICT
    assert again.json()["code"] == "already_registered"
    assert stranger.status_code == HTTPStatus.FORBIDDEN
    assert nowhere.status_code == HTTPStatus.NOT_FOUND
    assert twin.status_code == HTTPStatus.CREATED
    assert twin_again.status_code == HTTPStatus.BAD_REQUEST
    assert "entered already" in twin_again.json()["errors"]["name"][0]
    assert late.status_code == HTTPStatus.CONFLICT
    assert late.json()["code"] == "competition_status"


def test_the_registration_limit_does_not_count_the_organisers_entrants(
    organiser_client: APIClient, settings: Any, counts_of_own: None
) -> None:
    # given: one registration an hour from an address, and the organiser's own limit of 3
    settings.THROTTLE_RATES = {"register": "1/hour", "entrant_add": "3/min"}
    cid = create_event(organiser_client)
    first = APIClient().post(
        "/api/players", {"username": "reg1", "password": "a long passphrase 1"}, format="json"
    )
    second = APIClient().post(
        "/api/players", {"username": "reg2", "password": "a long passphrase 2"}, format="json"
    )
    assert first.status_code == HTTPStatus.CREATED
    assert second.status_code == HTTPStatus.TOO_MANY_REQUESTS

    # when: the organiser, from the same address, adds three entrants, then a fourth
    answers = [
        organiser_client.post(f"{API}/{cid}/entrants", {"name": f"Guest {n}"}) for n in range(4)
    ]

    # then: the three are in; the fourth meets the organiser's own limit
    assert [a.status_code for a in answers[:3]] == [HTTPStatus.CREATED] * 3
    assert answers[3].status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert answers[3].json()["code"] == "throttled"
    assert organiser_client.get(f"{API}/{cid}/entrants").status_code == HTTPStatus.OK


@pytest.fixture(params=CACHE_KINDS)
def counts_of_own(request: pytest.FixtureRequest, settings: Any) -> None:
    """Request counts in a cache of the test's own (Redis too, when ``REDIS_URL``)."""
    settings.CACHES = cache_of_own(request.param, f"test-entrants-{uuid.uuid4().hex}")


@pytest.mark.parametrize("late_entry", ["zero", "bye"])
def test_a_late_entrant_plays_from_the_next_stage(
    organiser_client: APIClient,
    django_capture_on_commit_callbacks: Callable[..., Any],
    late_entry: str,
) -> None:
    # given: stage 1 of four players seated at tables of up to 3 (no byes)
    cid = create_event(organiser_client, late_entry=late_entry, table_size=3)
    assert organiser_client.get(f"{API}/{cid}").json()["late_entry"] == late_entry
    four = [add(organiser_client, cid, name=f"P{n}", check_in=True)["player_id"] for n in range(4)]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)

    # when: Larry walks in during stage 1
    larry = add(organiser_client, cid, name="Late Larry")

    # then: he plays from stage 2; with "bye", stage 1 scores him a bye's points at once
    assert larry["first_stage"] == 2
    registration = Registration.objects.get(competition_id=cid, player_id=larry["player_id"])
    byes = list(Bye.objects.filter(registration=registration))
    rows = {
        r["player_id"]: r
        for r in organiser_client.get(f"{API}/{cid}/standings").json()["standings"]
    }
    if late_entry == "bye":
        assert [(b.stage.number, b.late_entry, b.placement_points) for b in byes] == [
            (1, True, 4000)  # a win at a full table of 3
        ]
        assert rows[larry["player_id"]]["placement_points"] == 4.0
        assert rows[larry["player_id"]]["by_stage"] == [
            {"stage": 1, "matches": 0, "placement_points": 4.0, "bye": True}
        ]
        assert CompetitionTotal.objects.get(registration=registration).byes == 1
    else:
        assert byes == []
        assert rows[larry["player_id"]]["placement_points"] == 0.0
    assert all(larry["player_id"] not in table for table in seated(organiser_client, cid, 1))

    # and: once stage 1 is scored, he checks in and is seated at stage 2
    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks)
    check_in_all(organiser_client, cid, [*four, larry["player_id"]])
    start(organiser_client, cid, 2)
    assert any(larry["player_id"] in table for table in seated(organiser_client, cid, 2))


def test_the_late_entry_scoring_is_the_organisers_until_someone_entered_late(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client)
    for n in range(2):
        add(organiser_client, cid, name=f"P{n}", check_in=True)

    changed = organiser_client.patch(f"{API}/{cid}", {"late_entry": "bye"}, format="json")
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    add(organiser_client, cid, name="Late Larry")
    refused = organiser_client.patch(f"{API}/{cid}", {"late_entry": "zero"}, format="json")

    assert changed.status_code == HTTPStatus.OK
    assert changed.json()["late_entry"] == "bye"
    assert refused.status_code == HTTPStatus.CONFLICT
    assert refused.json()["code"] == "competition_status"


def test_an_entrant_changes_club_and_seed(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client)
    wendy = add(organiser_client, cid, name="Wendy", club="Riverside", seed=4)

    changed = organiser_client.patch(
        f"{API}/{cid}/entrants/{wendy['player_id']}", {"club": "Hilltop", "seed": None}
    )
    bad = organiser_client.patch(
        f"{API}/{cid}/entrants/{wendy['player_id']}", {"club": "a\nb", "seed": -1}
    )
    stranger = organiser_client.patch(f"{API}/{cid}/entrants/999999", {"club": "Hilltop"})

    assert changed.status_code == HTTPStatus.OK
    (entrant,) = changed.json()["entrants"]
    assert (entrant["club"], entrant["seed"]) == ("Hilltop", None)
    assert bad.status_code == HTTPStatus.BAD_REQUEST
    assert set(bad.json()["errors"]) == {"seed"} or set(bad.json()["errors"]) == {"club", "seed"}
    assert stranger.status_code == HTTPStatus.CONFLICT
    assert stranger.json()["code"] == "not_registered"


def test_a_dropped_entrant_is_reinstated_for_the_next_stage(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    # given: four at stage 1; Dan drops out after it is seated
    cid = create_event(organiser_client)
    ids = [add(organiser_client, cid, name=f"P{n}", check_in=True)["player_id"] for n in range(4)]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    dan = ids[3]
    assert organiser_client.post(f"{API}/{cid}/drop", {"player_id": dan}).status_code == 200
    not_yet = organiser_client.post(f"{API}/{cid}/entrants/{ids[0]}/reinstate", {})

    # when: the organiser reinstates him, checked in for stage 2
    back = organiser_client.post(f"{API}/{cid}/entrants/{dan}/reinstate", {"check_in": True})

    # then: he is an entrant again and is seated at stage 2
    assert not_yet.status_code == HTTPStatus.CONFLICT
    assert back.status_code == HTTPStatus.OK, back.content
    (entrant,) = back.json()["entrants"]
    assert (entrant["dropped"], entrant["checked_in"]) == (False, True)
    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks)
    check_in_all(organiser_client, cid, ids[:3])
    start(organiser_client, cid, 2)
    assert any(dan in table for table in seated(organiser_client, cid, 2))
