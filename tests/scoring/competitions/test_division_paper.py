"""A stage's pairings sheet and table cards at an event with divisions (docs/scoring.md,
"Divisions"): each division in turn under its own heading, or one alone (``?division=``, 404
``division_not_found`` for a name the event has none of, only once the caller may read the
sheet); hostile division names printed as written."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.paper_reading import page_texts
from tests.scoring.competitions.event_api import API, add, check_in_all, create_event, start
from tests.scoring.competitions.test_divisions import HOSTILE_DIVISIONS, divided
from tests.scoring.competitions.test_sheets import flat, pdf

pytestmark = pytest.mark.django_db


def texts(client: APIClient, path: str, **query: str) -> list[str]:
    return [flat(page) for page in page_texts(pdf(client.get(path, query)))]


def test_pairings_and_table_cards_print_each_division_under_its_heading_or_one_alone(
    organiser_client: APIClient,
) -> None:
    # given: Open's five (two tables of 2 and a bye), Club's four (two tables), stage 1 seated
    cid, opens, clubs = divided(organiser_client)
    check_in_all(organiser_client, cid, opens + clubs)
    start(organiser_client, cid, 1)
    pairings, cards = f"{API}/{cid}/stages/1/pairings.pdf", f"{API}/{cid}/stages/1/table-cards.pdf"

    # the pairings: Open's page (its tables and its bye), then Club's
    pages = texts(organiser_client, pairings)
    assert len(pages) == 2
    assert "Division Open" in pages[0]
    assert "Division Club" not in pages[0]
    assert "Olive" in pages[0]
    assert "Byes" in pages[0]
    assert "Cliff" not in pages[0]
    assert "Division Club" in pages[1]
    assert "Olive" not in pages[1]
    assert "Table 3" in pages[1]
    assert "Byes" not in pages[1]
    # one division alone, named as the event spells it or not
    (club,) = texts(organiser_client, pairings, division=" CLUB ")
    assert club == pages[1]

    # the table cards: a page per table, each naming its division; or one division's tables
    card_pages = texts(organiser_client, cards)
    assert ["Division Open" in page for page in card_pages] == [True, True, False, False]
    assert ["Division Club" in page for page in card_pages] == [False, False, True, True]
    open_cards = texts(organiser_client, cards, division="open")
    assert len(open_cards) == 2
    assert all("Division Open" in page and "Cliff" not in page for page in open_cards)

    for path in (pairings, cards):
        missing = organiser_client.get(path, {"division": "Masters"})
        assert missing.status_code == HTTPStatus.NOT_FOUND, path
        assert missing.json()["code"] == "division_not_found"
        assert "Open, Club" in missing.json()["detail"]


def test_without_divisions_the_sheets_name_none_and_take_no_division(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client)
    ids = [add(organiser_client, cid, name=f"P{n}")["player_id"] for n in range(4)]
    assert organiser_client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 1)
    for sheet in ("pairings.pdf", "table-cards.pdf"):
        path = f"{API}/{cid}/stages/1/{sheet}"
        assert not any("Division" in page for page in texts(organiser_client, path))
        refused = organiser_client.get(path, {"division": "Open"})
        assert refused.status_code == HTTPStatus.NOT_FOUND
        assert refused.json()["code"] == "division_not_found"


def test_a_division_is_looked_up_only_for_a_caller_who_may_read_the_sheet(
    organiser_client: APIClient,
) -> None:
    cid, opens, clubs = divided(organiser_client, open_count=2, club_count=2)
    check_in_all(organiser_client, cid, opens + clubs)
    start(organiser_client, cid, 1)
    stranger = client_for(PlayerFactory())
    for client, sheet, status in (
        (APIClient(), "pairings.pdf", HTTPStatus.NOT_FOUND),  # not public: no such competition
        (stranger, "pairings.pdf", HTTPStatus.FORBIDDEN),
        (stranger, "table-cards.pdf", HTTPStatus.FORBIDDEN),
    ):
        for division in ("Open", "Masters"):
            response = client.get(f"{API}/{cid}/stages/1/{sheet}", {"division": division})
            assert response.status_code == status, (sheet, division)
            assert response.json()["code"] != "division_not_found"


def test_hostile_division_names_are_printed_as_written_on_the_pairings_and_cards(
    organiser_client: APIClient,
) -> None:
    divisions = [{"name": name} for name in HOSTILE_DIVISIONS]
    divisions[0]["min_rating"] = 1600
    cid = create_event(organiser_client, divisions=divisions, stage_count=1)
    ids = [
        add(organiser_client, cid, name=f"{tag} {n}", division=name)["player_id"]
        for tag, name in zip("ABCD", HOSTILE_DIVISIONS, strict=True)
        for n in range(2)
    ]
    assert organiser_client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    assert organiser_client.post(f"{API}/{cid}/publish").status_code == HTTPStatus.OK
    check_in_all(organiser_client, cid, ids)
    start(organiser_client, cid, 1)
    anonymous = APIClient()
    pairings = texts(anonymous, f"{API}/{cid}/stages/1/pairings.pdf")
    cards = texts(organiser_client, f"{API}/{cid}/stages/1/table-cards.pdf")
    for pages in (pairings, cards):
        assert len(pages) == len(HOSTILE_DIVISIONS)
        for page, name in zip(pages, HOSTILE_DIVISIONS, strict=True):
            assert "".join(f"Division {name}".split()) in "".join(page.split()), (page, name)
    (one,) = texts(anonymous, f"{API}/{cid}/stages/1/pairings.pdf",
                   division=HOSTILE_DIVISIONS[1])  # fmt: skip
    assert "B 0" in one
    assert "A 0" not in one
