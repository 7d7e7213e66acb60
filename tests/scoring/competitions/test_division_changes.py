"""Divisions set, changed or removed after creation (PATCH /api/competitions/{id},
docs/scoring.md "Divisions"): until a stage is seated; entrants the organiser placed keep their
division by name, the others join the new rating bands (the unrated the last); a placed entrant
whose division is left out is a 400 naming ``divisions``; nothing is written on a refusal."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Competition, Registration
from tests.games.conftest import client_for
from tests.games.schema_check import check_response
from tests.scoring.competitions.event_api import API, add, check_in_all, create_event, start
from tests.scoring.competitions.test_divisions import DIVISIONS, PATH, rated
from tests.scoring.competitions.test_stage_undo import undo

pytestmark = pytest.mark.django_db


def patch(client: APIClient, cid: int, body: dict[str, Any]) -> Any:
    response = client.patch(f"{API}/{cid}", body, format="json")
    check_response(response, PATH, "patch")
    return response


def placed(cid: int) -> dict[int, tuple[str, bool]]:
    """Each entrant's division, and whether the organiser chose it."""
    return {
        player_id: (division, chosen)
        for player_id, division, chosen in Registration.objects.filter(
            competition_id=cid
        ).values_list("player_id", "division", "division_chosen")
    }


def test_divisions_set_after_creation_place_everyone_by_band_and_changes_keep_choices(
    organiser_client: APIClient,
) -> None:
    # given: an event without divisions, three registered by rating and two guests
    cid = create_event(organiser_client)
    strong, modest, new = rated("stella", 1700), rated("mo", 1500), rated("newt", None)
    for player in (strong, modest, new):
        assert client_for(player).post(f"{API}/{cid}/register").status_code == HTTPStatus.OK
    wes = add(organiser_client, cid, name="Walk-in Wes")["player_id"]
    vi = add(organiser_client, cid, name="Walk-in Vi")["player_id"]

    # when: two divisions: everyone by band, the unrated in the last
    response = patch(organiser_client, cid, {"divisions": DIVISIONS})

    # then
    assert response.status_code == HTTPStatus.OK, response.content
    assert response.json()["divisions"] == [{"name": "Open", "min_rating": 1600},
                                            {"name": "Club", "min_rating": None}]  # fmt: skip
    assert placed(cid) == {strong.pk: ("Open", False), modest.pk: ("Club", False),
                           new.pk: ("Club", False), wes: ("Club", False),
                           vi: ("Club", False)}  # fmt: skip

    # the organiser places two by hand; new bands re-place the others, choices stay (by name,
    # respelt: "OPEN" is Open's new spelling)
    for player_id in (vi, modest.pk):
        moved = organiser_client.patch(f"{API}/{cid}/entrants/{player_id}", {"division": "open"},
                                       format="json")  # fmt: skip
        assert moved.status_code == HTTPStatus.OK, moved.content
    response = patch(organiser_client, cid, {"divisions": [
        {"name": "OPEN", "min_rating": 1800}, {"name": "Middle", "min_rating": 1400},
        {"name": "Club"}]})  # fmt: skip
    assert response.status_code == HTTPStatus.OK, response.content
    assert placed(cid) == {strong.pk: ("Middle", False), modest.pk: ("OPEN", True),
                           new.pk: ("Club", False), wes: ("Club", False),
                           vi: ("OPEN", True)}  # fmt: skip
    listed = organiser_client.get(f"{API}/{cid}/entrants").json()["entrants"]
    assert {e["player_id"]: e["division"] for e in listed}[vi] == "OPEN"

    # removed ([] as null): nobody is in a division, choices gone
    response = patch(organiser_client, cid, {"divisions": []})
    assert response.status_code == HTTPStatus.OK, response.content
    assert response.json()["divisions"] is None
    assert set(placed(cid).values()) == {("", False)}
    assert add(organiser_client, cid, name="Walk-in Una")["division"] is None


def test_a_chosen_division_left_out_is_refused_naming_the_entrants_and_nothing_changes(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client, divisions=DIVISIONS)
    olive = add(organiser_client, cid, name="Olive <b>&amp;", division="Open")["player_id"]
    add(organiser_client, cid, name="Cliff", division="Club")
    banded = add(organiser_client, cid, name="Bea")["player_id"]
    before = placed(cid)

    response = patch(organiser_client, cid, {"divisions": [
        {"name": "Premier", "min_rating": 1600}, {"name": "Club"}]})  # fmt: skip

    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert set(body["errors"]) == {"divisions"}
    (message,) = body["errors"]["divisions"]
    assert f"Olive <b>&amp; (player {olive}) in Open" in message
    assert "Cliff" not in message
    assert f"player {banded}" not in message
    assert placed(cid) == before
    kept = Competition.objects.get(pk=cid).divisions
    assert [division["name"] for division in kept] == ["Open", "Club"]


def test_bad_divisions_are_refused_field_by_field_with_the_other_fields_unchanged(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client)
    body = {"seeding": "rating", "divisions": [{"name": "Open", "min_rating": 1600},
                                               {"name": " open ", "min_rating": 1700}]}  # fmt: skip
    response = patch(organiser_client, cid, body)
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert set(response.json()["errors"]) == {"divisions.1.name", "divisions.1.min_rating"}
    one = patch(organiser_client, cid, {"divisions": [{"name": "Only"}]})
    assert one.status_code == HTTPStatus.BAD_REQUEST
    assert set(one.json()["errors"]) == {"divisions"}
    shapeless = patch(organiser_client, cid, {"divisions": [{"min_rating": "high"}, "Club"]})
    assert shapeless.status_code == HTTPStatus.BAD_REQUEST
    competition = Competition.objects.get(pk=cid)
    assert (competition.divisions, competition.seeding) == (None, "random")


def test_divisions_stay_once_a_stage_is_seated_and_may_change_again_after_an_undo(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client, divisions=DIVISIONS)
    ids = [add(organiser_client, cid, name=f"P{n}", division="Club")["player_id"] for n in range(4)]
    assert organiser_client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 1)
    before = placed(cid)

    for value in (None, [{"name": "A"}, {"name": "B"}]):
        response = patch(organiser_client, cid, {"divisions": value, "seeding": "rating"})
        assert response.status_code == HTTPStatus.CONFLICT, response.content
        assert response.json()["code"] == "divisions_seated"
    # the same divisions again are no change
    same = patch(organiser_client, cid, {"divisions": DIVISIONS})
    assert same.status_code == HTTPStatus.OK, same.content
    competition = Competition.objects.get(pk=cid)
    assert (competition.divisions[0]["name"], competition.seeding) == ("Open", "random")
    assert placed(cid) == before

    # stage 1 undone: nothing is seated, the divisions may go
    assert undo(organiser_client, cid, 1).status_code == HTTPStatus.OK
    removed = patch(organiser_client, cid, {"divisions": None})
    assert removed.status_code == HTTPStatus.OK, removed.content
    assert set(placed(cid).values()) == {("", False)}


def test_only_the_organiser_changes_divisions_and_a_league_has_none(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client)
    stranger = client_for(rated("sam", None))
    refused = stranger.patch(f"{API}/{cid}", {"divisions": DIVISIONS}, format="json")
    assert refused.status_code == HTTPStatus.FORBIDDEN
    league = organiser_client.post(API, {
        "kind": "league", "name": "Tuesday league", "variant": "chickenfoot", "table_size": 4,
    }, format="json")  # fmt: skip
    assert league.status_code == HTTPStatus.CREATED, league.content
    response = patch(organiser_client, league.json()["id"], {"divisions": DIVISIONS})
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert set(response.json()["errors"]) == {"divisions"}
    assert Competition.objects.get(pk=cid).divisions is None
