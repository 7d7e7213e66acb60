"""A table tournament's stage start gives each table one scorer link whose code the organiser
reads back (GET /api/competitions/{id}/stages/{n}/scorer-links) to print on the table's card:
it opens exactly that table's match."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Player
from games.tables.models import ScorerLink
from games.tables.scorer_links import scorer_link_code
from scoring.models import CompetitionMatch
from tests.games.conftest import client_for
from tests.scoring.competitions.table_event import API, started_event

pytestmark = pytest.mark.django_db
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def scorer(code: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Scorer {code}")
    return client


def test_the_stage_start_makes_one_live_link_per_table(organiser_client: APIClient) -> None:
    # given / when: four players at tables of two
    cid, _ = started_event(organiser_client, NAMES)
    # then: each table match has exactly one live link, whose code can be derived again
    match_ids = list(
        CompetitionMatch.objects.filter(competition_id=cid).values_list("match_id", flat=True)
    )
    assert len(match_ids) == 2
    for match_id in match_ids:
        links = list(ScorerLink.objects.filter(match_id=match_id))
        assert [(link.revoked_at, bool(link.salt)) for link in links] == [(None, True)]
        assert scorer_link_code(links[0]) is not None


def test_the_listed_code_opens_its_own_table_only(organiser_client: APIClient) -> None:
    cid, _ = started_event(organiser_client, NAMES)
    # when: the organiser lists the stage's links
    listed = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links")
    # then: each table has its code and its absolute URL
    assert listed.status_code == HTTPStatus.OK, listed.content
    body = listed.json()
    assert body["stage"] == 1
    first, second = body["tables"]
    assert [t["table"] for t in body["tables"]] == [1, 2]
    for table in body["tables"]:
        assert table["url"] == f"http://testserver/score/#{table['code']}"
        assert (table["revoked"], table["needs_new_link"]) == (False, False)
        assert len(table["code"]) == 10
    # and: the code reads its own match, and enters its scores
    phone = scorer(first["code"])
    assert phone.get(f"/api/matches/{first['match_id']}").status_code == HTTPStatus.OK
    entered = phone.post(
        f"/api/matches/{first['match_id']}/rounds/1/scores",
        {
            "version": 0,
            "scores": [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 9}],
        },
        format="json",
    )
    assert entered.status_code == HTTPStatus.CREATED, entered.content
    # and: nothing of the other table
    other = phone.get(f"/api/matches/{second['match_id']}")
    assert other.status_code == HTTPStatus.FORBIDDEN
    assert other.json()["code"] == "not_scorer"
    # and: listing again gives the same codes (derived, not stored)
    assert organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json() == body


def test_the_organiser_revokes_a_table_link_and_issues_a_new_one(
    organiser_client: APIClient,
) -> None:
    cid, _ = started_event(organiser_client, NAMES)
    table = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"][0]
    match_id, old_code = table["match_id"], table["code"]
    # when: the organiser (the match's creator) revokes it
    revoked = organiser_client.delete(f"/api/matches/{match_id}/scorer-links/{table['link_id']}")
    assert revoked.status_code == HTTPStatus.NO_CONTENT
    # then: the old code is refused, and the card has nothing to print
    refused = scorer(old_code).get(f"/api/matches/{match_id}")
    assert refused.status_code == HTTPStatus.UNAUTHORIZED
    assert refused.json()["code"] == "authentication_failed"
    listed = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"][0]
    assert (listed["revoked"], listed["needs_new_link"], listed["code"]) == (True, True, None)
    # when: a new one is issued through the match's endpoint
    issued = organiser_client.post(f"/api/matches/{match_id}/scorer-links")
    assert issued.status_code == HTTPStatus.CREATED, issued.content
    # then: the stage's list prints the new one, which works
    listed = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"][0]
    assert (listed["link_id"], listed["code"]) == (issued.json()["id"], issued.json()["code"])
    assert (listed["revoked"], listed["needs_new_link"]) == (False, False)
    assert scorer(listed["code"]).get(f"/api/matches/{match_id}").status_code == HTTPStatus.OK


def test_a_replaced_secret_means_a_new_link_not_a_wrong_code(
    organiser_client: APIClient, settings: object
) -> None:
    cid, _ = started_event(organiser_client, NAMES)
    before = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"][0]
    old_secret = settings.SECRET_KEY  # type: ignore[attr-defined]
    settings.SECRET_KEY = "another secret, long enough to be a key" * 2  # type: ignore[attr-defined]
    # when: the old key is still a fallback, the codes still print
    settings.SECRET_KEY_FALLBACKS = [old_secret]  # type: ignore[attr-defined]
    kept = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"][0]
    assert kept["code"] == before["code"]
    # when: it is gone, the card needs a new link (the code itself still works)
    settings.SECRET_KEY_FALLBACKS = []  # type: ignore[attr-defined]
    lost = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"][0]
    assert (lost["code"], lost["url"], lost["needs_new_link"]) == (None, None, True)
    assert lost["revoked"] is False


def test_only_the_organiser_lists_and_only_a_started_stage(
    organiser_client: APIClient, players: list[Player]
) -> None:
    cid, seated = started_event(organiser_client, NAMES)
    for someone in (players[0], seated[0]):
        refused = client_for(someone).get(f"{API}/{cid}/stages/1/scorer-links")
        assert refused.status_code == HTTPStatus.FORBIDDEN
        assert refused.json()["code"] == "not_organiser"
    early = organiser_client.get(f"{API}/{cid}/stages/2/scorer-links")
    assert early.status_code == HTTPStatus.CONFLICT
    assert early.json()["code"] == "wrong_stage"
    missing = organiser_client.get(f"{API}/999999/stages/1/scorer-links")
    assert missing.status_code == HTTPStatus.NOT_FOUND
    assert missing.json()["code"] == "competition_not_found"
    assert APIClient().get(f"{API}/{cid}/stages/1/scorer-links").status_code == 401


def test_an_online_event_has_no_scorer_links(organiser_client: APIClient) -> None:
    cid, _ = started_event(organiser_client, NAMES, play="online", options={})
    tables = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"]
    assert len(tables) == 2
    assert all(t["link_id"] is None and t["needs_new_link"] for t in tables)
    match_ids = [t["match_id"] for t in tables]
    assert not ScorerLink.objects.filter(match_id__in=match_ids).exists()
