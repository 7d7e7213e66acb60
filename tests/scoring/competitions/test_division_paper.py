"""A stage's pairings sheet and table cards, and the standings chart, at an event with
divisions (docs/scoring.md, "Divisions"): each division in turn under its own heading (the
chart: each division's leaders), or one alone (``?division=``, 404 ``division_not_found`` for a
name the event has none of, only once the caller may read the sheet); hostile division names
printed and drawn as written."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.foundation.hostile import as_isolated_text, parse, shape
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.paper_reading import page_texts
from tests.scoring.competitions.event_api import (
    API,
    add,
    check_in_all,
    create_event,
    score_stage,
    start,
)
from tests.scoring.competitions.test_divisions import HOSTILE_DIVISIONS, divided, play
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


def hostile_event(client: APIClient) -> tuple[int, list[int]]:
    """A public one-stage event of four divisions with hostile names, two entrants each (the
    first division's named A 0 and A 1, and so on), stage 1 seated."""
    divisions: list[dict[str, Any]] = [{"name": name} for name in HOSTILE_DIVISIONS]
    divisions[0]["min_rating"] = 1600
    cid = create_event(client, divisions=divisions, stage_count=1)
    ids = [
        add(client, cid, name=f"{tag} {n}", division=name)["player_id"]
        for tag, name in zip("ABCD", HOSTILE_DIVISIONS, strict=True)
        for n in range(2)
    ]
    assert client.post(f"{API}/{cid}/close").status_code == HTTPStatus.OK
    assert client.post(f"{API}/{cid}/publish").status_code == HTTPStatus.OK
    check_in_all(client, cid, ids)
    start(client, cid, 1)
    return cid, ids


def test_hostile_division_names_are_printed_as_written_on_the_pairings_and_cards(
    organiser_client: APIClient,
) -> None:
    cid, _ids = hostile_event(organiser_client)
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


SVG = "{http://www.w3.org/2000/svg}"


def chart_lines(client: APIClient, path: str, **query: Any) -> dict[str, tuple[str | None, float]]:
    """Each line of a standings chart: its name -> (its data-group, its last value)."""
    response = client.get(path, query)
    assert response.status_code == HTTPStatus.OK, response.content
    lines = {}
    for group in parse(response.content.decode()).iter(f"{SVG}g"):
        if group.get("class") == "series":
            last = [c for c in group.iter(f"{SVG}circle") if c.get("class") == "point"][-1]
            lines[group.get("data-series")] = (
                group.get("data-group"),
                float(last.get("data-value")),
            )
    return lines


def test_the_standings_chart_draws_each_divisions_leaders_or_one_divisions(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    cid, opens, clubs = divided(organiser_client)
    play(organiser_client, cid, opens + clubs, range(1, 3), django_capture_on_commit_callbacks)
    chart = f"{API}/{cid}/standings.svg"
    standings = {
        name: organiser_client.get(f"{API}/{cid}/standings", {"division": name}).json()["standings"]
        for name in ("Open", "Club")
    }

    # the two best of each division, as their standings rank them, each line naming its division
    lines = chart_lines(organiser_client, chart, players=2)
    assert lines == {
        row["name"]: (name, row["placement_points"])
        for name, rows in standings.items()
        for row in rows[:2]
    }
    # one division: its leaders alone, the division in the title
    response = organiser_client.get(chart, {"division": "club", "players": 3})
    title = next(t for t in parse(response.content.decode()).iter(f"{SVG}text")
                 if t.get("class") == "chart-title")  # fmt: skip
    assert "Club" in title.text
    assert chart_lines(organiser_client, chart, division="club", players=3) == {
        row["name"]: (None, row["placement_points"]) for row in standings["Club"][:3]
    }
    missing = organiser_client.get(chart, {"division": "Masters"})
    assert missing.status_code == HTTPStatus.NOT_FOUND
    assert missing.json()["code"] == "division_not_found"


def test_hostile_division_names_are_data_in_the_chart(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    cid, ids = hostile_event(organiser_client)
    score_stage(organiser_client, cid, 1, django_capture_on_commit_callbacks, ids)

    lines = chart_lines(organiser_client, f"{API}/{cid}/standings.svg")
    assert sorted({group for group, _value in lines.values()}) == sorted(HOSTILE_DIVISIONS)
    one = organiser_client.get(f"{API}/{cid}/standings.svg", {"division": HOSTILE_DIVISIONS[0]})
    svg = one.content.decode()
    # the same markup as a plain name's chart: nothing the name wrote became an element
    plain = organiser_client.get(f"{API}/{cid}/standings.svg", {"division": HOSTILE_DIVISIONS[2]})
    assert shape(svg) == shape(plain.content.decode())
    title = next(t for t in parse(svg).iter(f"{SVG}text") if t.get("class") == "chart-title")
    assert as_isolated_text(HOSTILE_DIVISIONS[0]) in title.text
