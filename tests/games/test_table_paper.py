"""Paper for events at the table (docs/tables.md, "Paper"): a stage's table cards with the
scorer's QR code, its pairings sheet for the wall, and a table match's score sheet with its
corrections. Each PDF is read back: its text, its pages rendered, its QR code decoded."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from games.paper.layout import MARGIN, PAGE, build
from games.paper.pairings import pairings_pdf
from games.paper.table_card import TableCard, card_page
from tests.foundation.hostile import HOSTILE, STORABLE
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.paper_reading import keep, page_texts, pictures, qr_codes
from tests.games.pdf_glyphs import places
from tests.scoring.competitions.table_event import API, started_event

pytestmark = pytest.mark.django_db
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]  # five at tables of two: one bye


@pytest.fixture
def organiser(db: None) -> Player:
    return PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)


@pytest.fixture
def organiser_client(organiser: Player) -> APIClient:
    return client_for(organiser)


def scorer(code: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Scorer {code}")
    return client


def pdf(response: Any) -> bytes:
    assert response.status_code == HTTPStatus.OK, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    return bytes(response.content)


def flat(text: str) -> str:
    return " ".join(text.split())


def problem(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == code


# --- table cards --------------------------------------------------------------------------


def test_the_table_cards_have_a_page_per_table_and_a_qr_code_that_scores_it(
    organiser_client: APIClient,
) -> None:
    cid, _players = started_event(organiser_client, NAMES)
    links = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"]
    board = organiser_client.get(f"{API}/{cid}/stages/1/dashboard").json()["tables"]
    # when
    cards = pdf(organiser_client.get(f"{API}/{cid}/stages/1/table-cards.pdf"))
    # then: one page per table, each with the event, stage, table, its players and its code
    texts = page_texts(cards)
    assert len(texts) == len(links) == 2
    for text, link, table in zip(texts, links, board, strict=True):
        assert "Club night" in text
        assert f"Stage 1 · Table {link['table']}" in flat(text)
        for seat in table["seats"]:
            assert seat["name"] in text
        assert link["code"] in text
        assert "12|12" not in text
        assert "9|9" in text
        assert "8|8" in text
    # and: each page renders, and its QR code is the table's scorer URL
    for number, (picture, link) in enumerate(zip(pictures(cards), links, strict=True), 1):
        if number == 1:
            keep(picture, "table-card.png")
        assert qr_codes(picture) == [link["url"]]
    # and: that code scores that table
    url = qr_codes(pictures(cards)[0])[0]
    code = url.rsplit("#", 1)[1]
    match_id = links[0]["match_id"]
    entered = scorer(code).post(
        f"/api/matches/{match_id}/rounds/1/scores",
        {"version": 0, "scores": _scores(0, 7)},
        format="json",
    )
    assert entered.status_code == HTTPStatus.CREATED, entered.content


@pytest.mark.parametrize(
    ("base", "artifact"),
    [
        ("http://testserver", "table-card-address-short.png"),  # fits under the code
        ("https://tournaments.chickenfoot.example.org", "table-card-address.png"),
        (
            "https://" + "a-long-host-name-for-scoring." * 3 + "example",
            "table-card-address-long.png",
        ),
    ],
)
def test_the_scorer_address_is_printed_whole_on_one_line(base: str, artifact: str) -> None:
    code = "KZUQY7ZCWT"
    url = f"{base}/score/#{code}"
    card = TableCard(table=1, seats=["Ann", "Ben"], doubles=[9, 8], url=url, code=code)
    document = build([card_page(event="Club night", stage=1, card=card)], title="Cards")
    # the address and the code are each drawn once, whole, on one line (a break inside either
    # would put its glyphs elsewhere than HarfBuzz sets them in one line)
    (address,) = places(document, url, "NotoSans-Regular")
    (printed,) = places(document, code, "NotoSans-Bold")
    # no smaller than 5 pt, and within the page's margins
    assert address[0].size >= 5
    assert printed[0].size == 16
    assert address[0].x >= MARGIN - 0.01
    assert address[-1].x + address[-1].size * 0.6 <= PAGE[0] - MARGIN
    # and the QR code still reads as the address
    picture = pictures(document)[0]
    keep(picture, artifact)
    assert qr_codes(picture) == [url]


def test_a_table_whose_link_is_revoked_prints_no_code(organiser_client: APIClient) -> None:
    cid, _ = started_event(organiser_client, NAMES[:4])
    link = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"][0]
    organiser_client.delete(f"/api/matches/{link['match_id']}/scorer-links/{link['link_id']}")
    cards = pdf(organiser_client.get(f"{API}/{cid}/stages/1/table-cards.pdf"))
    first = page_texts(cards)[0]
    assert link["code"] not in first
    assert "issue a new one" in flat(first)
    assert qr_codes(pictures(cards)[0]) == []


def test_only_the_organiser_prints_the_table_cards(
    organiser_client: APIClient,
) -> None:
    cid, players = started_event(organiser_client, NAMES[:4])
    problem(
        client_for(players[0]).get(f"{API}/{cid}/stages/1/table-cards.pdf"), 403, "not_organiser"
    )
    problem(organiser_client.get(f"{API}/{cid}/stages/2/table-cards.pdf"), 409, "wrong_stage")
    problem(
        organiser_client.get(f"{API}/999999/stages/1/table-cards.pdf"), 404, "competition_not_found"
    )
    problem(APIClient().get(f"{API}/{cid}/stages/1/table-cards.pdf"), 401, "not_authenticated")


# --- pairings -------------------------------------------------------------------------------


def test_the_pairings_list_tables_and_byes_and_no_code(organiser_client: APIClient) -> None:
    cid, players = started_event(organiser_client, NAMES)
    codes = [
        t["code"]
        for t in organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"]
    ]
    # when: the organiser prints them; the event is private
    sheet = pdf(organiser_client.get(f"{API}/{cid}/stages/1/pairings.pdf"))
    (text,) = page_texts(sheet)
    assert "Club night" in text
    assert "Stage 1: pairings" in text
    for name in NAMES:
        assert name in text
    assert "Table 1" in text
    assert "Table 2" in text
    assert "Byes" in text
    assert not [code for code in codes if code in text]
    keep(pictures(sheet)[0], "pairings.png")
    # then: private, it is the organiser's: 404 without a token, 403 to a player
    problem(APIClient().get(f"{API}/{cid}/stages/1/pairings.pdf"), 404, "competition_not_found")
    problem(client_for(players[0]).get(f"{API}/{cid}/stages/1/pairings.pdf"), 403, "not_organiser")
    # when: the event is public, anyone reads it, without a token, and no code is on it
    assert organiser_client.post(f"{API}/{cid}/publish").status_code == HTTPStatus.OK
    public = pdf(APIClient().get(f"{API}/{cid}/stages/1/pairings.pdf"))
    (public_text,) = page_texts(public)
    assert all(name in public_text for name in NAMES)
    assert not [code for code in codes if code in public_text]
    assert pdf(client_for(players[0]).get(f"{API}/{cid}/stages/1/pairings.pdf"))
    problem(APIClient().get(f"{API}/{cid}/stages/2/pairings.pdf"), 409, "wrong_stage")


# --- score sheets ----------------------------------------------------------------------------


def _table_match(client: APIClient) -> int:
    response = client.post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "play": "table",
            "options": {"max_pip": 6, "rounds": 2},
            "seats": [
                {"kind": "creator"},
                {"kind": "player", "username": "grace"},
                {"kind": "guest", "name": "Grandpa Joe"},
            ],
        },
        format="json",
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    return int(response.json()["id"])


def _scores(*points: int) -> list[dict[str, Any]]:
    return [
        {"seat": seat, "points": value, **({"went_out": True} if value == 0 else {})}
        for seat, value in enumerate(points)
    ]


def test_the_score_sheet_shows_rounds_totals_places_and_corrections(
    players: list[Player], clients: list[APIClient]
) -> None:
    # given: ada's table match with grace and a guest, round 1 corrected, round 2 entered
    match_id = _table_match(clients[0])
    base = f"/api/matches/{match_id}/rounds"
    first = clients[0].post(f"{base}/1/scores", {"version": 0, "scores": _scores(0, 25, 9)})
    assert first.status_code == HTTPStatus.CREATED, first.content
    corrected = clients[0].put(
        f"{base}/1/scores",
        {"version": 1, "scores": _scores(0, 25, 11), "reason": "Joe had the 1|1 too"},
        format="json",
    )
    assert corrected.status_code == HTTPStatus.OK, corrected.content
    second = clients[1].post(f"{base}/2/scores", {"version": 2, "scores": _scores(4, 0, 6)})
    assert second.status_code == HTTPStatus.CREATED, second.content
    # when: a seated player asks for the sheet
    sheet = pdf(clients[1].get(f"/api/matches/{match_id}/score-sheet.pdf"))
    (text,) = page_texts(sheet)
    flat_text = flat(text)
    # then: the names (the guest's too), each round with its start double, totals and places
    for name in ("Ada", "Grace", "Grandpa Joe"):
        assert name in text
    assert "6|6" in text
    assert "5|5" in text
    assert "11 *1" in flat_text  # the amended cell: its new value, marked
    assert "Total 4 25 17" in flat_text
    assert "Place 1 3 2" in flat_text
    # and: the footnote says who, before, after and why
    assert "*1 Round 1, by Ada" in flat_text
    assert "seat 3 (Grandpa Joe): 9 → 11" in flat_text
    assert "Reason: Joe had the 1|1 too" in flat_text
    keep(pictures(sheet)[0], "score-sheet.png")


def test_who_may_read_a_score_sheet(
    organiser_client: APIClient, players: list[Player], clients: list[APIClient]
) -> None:
    match_id = _table_match(clients[0])
    # the creator and a seated player may; another player may not
    assert pdf(clients[0].get(f"/api/matches/{match_id}/score-sheet.pdf"))
    problem(clients[2].get(f"/api/matches/{match_id}/score-sheet.pdf"), 403, "not_score_reader")
    problem(APIClient().get(f"/api/matches/{match_id}/score-sheet.pdf"), 401, "not_authenticated")
    problem(clients[0].get("/api/matches/999999/score-sheet.pdf"), 404, "match_not_found")
    # a scorer link of the match may; of another match, not
    code = clients[0].post(f"/api/matches/{match_id}/scorer-links").json()["code"]
    assert pdf(scorer(code).get(f"/api/matches/{match_id}/score-sheet.pdf"))
    other = _table_match(clients[0])
    problem(scorer(code).get(f"/api/matches/{other}/score-sheet.pdf"), 403, "not_scorer")
    # an event's organiser reads the sheet of its tables, and it names the event
    cid, _ = started_event(organiser_client, NAMES[:2])
    table = organiser_client.get(f"{API}/{cid}/stages/1/dashboard").json()["tables"][0]
    (text,) = page_texts(
        pdf(organiser_client.get(f"/api/matches/{table['match_id']}/score-sheet.pdf"))
    )
    assert "Club night" in text
    assert "Stage 1 · Table 1" in flat(text)
    # an online match has no score sheet
    online = (
        clients[0]
        .post(
            "/api/matches",
            {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "bot", "level": 1}]},
            format="json",
        )
        .json()["id"]
    )
    problem(clients[0].get(f"/api/matches/{online}/score-sheet.pdf"), 404, "match_not_found")


# --- hostile names ---------------------------------------------------------------------------


def test_hostile_names_are_set_as_written(organiser_client: APIClient) -> None:
    markup = ["<font size=80>", "<b>bold</b>", *STORABLE]
    names = [name for name in markup if "\x07" not in name][:8]
    cid, _ = started_event(organiser_client, names, name="<i>Cup</i> & co")
    cards = pdf(organiser_client.get(f"{API}/{cid}/stages/1/table-cards.pdf"))
    sheet = pdf(organiser_client.get(f"{API}/{cid}/stages/1/pairings.pdf"))
    for document in (cards, sheet):
        text = flat(" ".join(page_texts(document)))
        assert "<i>Cup</i> & co" in text
        for name in names:
            assert flat(name) in text, name
        assert pictures(document)


@pytest.mark.parametrize("name", HOSTILE)
def test_no_name_breaks_a_sheet(name: str) -> None:
    card = TableCard(
        table=1, seats=[name, "Bob"], doubles=[9, 8], url="https://x.example/score/#A", code="A"
    )
    pages = [card_page(event=name, stage=1, card=card)]
    for document in (
        build(pages, title=name),
        pairings_pdf(event=name, stage=1, tables=[(1, [name, "Bob"])], byes=[name]),
    ):
        text = " ".join(page_texts(document))
        assert "Bob" in text
        assert pictures(document)


def test_what_no_face_draws_is_printed_as_a_replacement_character() -> None:
    # given names in scripts the sheets have no face for (Han, an emoji) beside Latin and Lao
    document = pairings_pdf(
        event="Café 東京",
        stage=1,
        tables=[(1, ["Zoë", "Даша", "<b>"])],
        byes=["🙂 ສົມພອນ", "nul\x00"],
    )
    # then what a face draws reads back as written, and each character no face has as U+FFFD
    text = " ".join(page_texts(document))
    for written in ("Café \ufffd\ufffd", "Zoë", "Даша", "<b>", "\ufffd ສົມພອນ", "nul\ufffd"):
        assert written in text, written
    assert pictures(document)
