"""A guest entrant claims their entry, seats and results into an account with a code the
organiser asks for (POST /api/competitions/{id}/entrants/{player_id}/claim-code)."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player, Seat
from scoring.models import Bye, CompetitionResult, KeepApart, Registration
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


def claim(client: APIClient, code: str) -> Any:
    return client.post("/api/players/me/claims", {"code": code}, format="json")


def code_for(client: APIClient, cid: int, player_id: int) -> str:
    response = client.post(f"{API}/{cid}/entrants/{player_id}/claim-code")
    assert response.status_code == HTTPStatus.CREATED, response.content
    return str(response.json()["code"])


def test_a_guest_entered_before_any_stage_claims_the_entry(organiser_client: APIClient) -> None:
    # given: Wendy entered as a guest, kept apart from Sam
    cid = create_event(organiser_client)
    wendy = add(organiser_client, cid, name="Wendy", club="Riverside")["player_id"]
    sam = add(organiser_client, cid, name="Sam")["player_id"]
    organiser_client.put(
        f"{API}/{cid}/keep-apart", {"clubs": False, "pairs": [[wendy, sam]]}, format="json"
    )
    code = code_for(organiser_client, cid, wendy)
    account = PlayerFactory(display_name="Wendy W")

    # when: she signs up and claims it
    claimed = claim(client_for(account), code)

    # then: the entry (and its pair kept apart) is the account's; the code works once
    assert claimed.status_code == HTTPStatus.OK, claimed.content
    assert claimed.json() == {"player_id": account.pk, "matches": []}
    entrant = Registration.objects.get(competition_id=cid, player=account)
    assert (entrant.club, entrant.added_by_organiser) == ("Riverside", True)
    assert not Registration.objects.filter(player_id=wendy).exists()
    pair = KeepApart.objects.get(competition_id=cid)
    assert {pair.player_a_id, pair.player_b_id} == {account.pk, sam}
    assert pair.player_a_id < pair.player_b_id
    again = claim(client_for(PlayerFactory()), code)
    assert again.status_code == HTTPStatus.NOT_FOUND  # a spent code is as one never given


def test_a_guest_with_results_and_a_late_bye_claims_them_all(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    # given: stage 1 played by four guests; Larry came late (a bye for stage 1)
    cid = create_event(organiser_client, late_entry="bye")
    ids = [add(organiser_client, cid, name=f"G{n}", check_in=True)["player_id"] for n in range(4)]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    larry = add(organiser_client, cid, name="Larry")["player_id"]
    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks, [ids[0]])
    account = PlayerFactory(display_name="Grace")

    # when: G0 claims with a code, and Larry with another
    claimed = claim(client_for(account), code_for(organiser_client, cid, ids[0]))
    larry_account = PlayerFactory(display_name="Lawrence")
    claim(client_for(larry_account), code_for(organiser_client, cid, larry))

    # then: seat, results, bye and standings row are the accounts'
    assert claimed.status_code == HTTPStatus.OK, claimed.content
    (match_id,) = claimed.json()["matches"]
    assert Seat.objects.get(match_id=match_id, player=account)
    assert CompetitionResult.objects.filter(competition_id=cid, player=account).count() == 1
    assert Bye.objects.get(competition_id=cid).player_id == larry_account.pk
    names = [r["name"] for r in organiser_client.get(f"{API}/{cid}/standings").json()["standings"]]
    assert "Grace" in names
    assert "Lawrence" in names
    assert "G0" not in names
    # and the account plays on from stage 2
    check_in_all(organiser_client, cid, [account.pk, *ids[1:], larry_account.pk])
    start(organiser_client, cid, 2)
    assert any(account.pk in table for table in seated(organiser_client, cid, 2))


def test_claims_that_cannot_be(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client)
    wendy = add(organiser_client, cid, name="Wendy")["player_id"]
    sam = PlayerFactory(user__username="sam")
    add(organiser_client, cid, username="sam")

    not_a_guest = organiser_client.post(f"{API}/{cid}/entrants/{sam.pk}/claim-code")
    stranger = client_for(PlayerFactory()).post(f"{API}/{cid}/entrants/{wendy}/claim-code")
    nowhere = organiser_client.post(f"{API}/999999/entrants/{wendy}/claim-code")
    both_entered = claim(client_for(sam), code_for(organiser_client, cid, wendy))

    assert not_a_guest.status_code == HTTPStatus.CONFLICT
    assert not_a_guest.json()["code"] == "not_guest_seat"
    assert stranger.status_code == HTTPStatus.FORBIDDEN
    assert nowhere.status_code == HTTPStatus.NOT_FOUND
    assert both_entered.status_code == HTTPStatus.CONFLICT
    assert both_entered.json()["code"] == "claim_conflict"
    assert Registration.objects.get(competition_id=cid, player_id=wendy)
    assert Player.objects.get(pk=wendy).kind == Player.Kind.GUEST
