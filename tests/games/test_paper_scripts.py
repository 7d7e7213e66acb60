"""Paper in every script: a table card with players named in Lao, Thai and Armenian embeds the
repository's Noto faces, sets each name in the face of its script, reads back as written and
renders; a score sheet writes its dates as the active language does."""

from __future__ import annotations

import datetime as dt
import io
from http import HTTPStatus
from typing import Any

import pytest
import time_machine
from django.utils import translation
from pypdf import PdfReader

from chickenfoot.i18n.formats import format_datetime
from games.models import Match
from games.paper.fonts import runs
from games.paper.score_sheet import score_sheet_pdf
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.paper_reading import keep, page_texts, pictures
from tests.scoring.competitions.table_event import API, started_event

pytestmark = pytest.mark.django_db
LAO, THAI, ARMENIAN, LATIN = "ສົມພອນ", "สมชาย", "Արամ", "Maria Santos"


def fonts_of(pdf: bytes) -> dict[str, Any]:
    """Each page's fonts by base name (the subset's tag taken off): their font dictionaries."""
    found = {}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            found[str(font["/BaseFont"]).lstrip("/").split("+")[-1]] = font
    return found


def test_runs_set_each_script_in_its_own_face() -> None:
    cut = [(face.regular, text) for face, text in runs(f"Seat 1: {LAO} & {THAI}, {ARMENIAN} → 3")]
    assert cut == [
        ("NotoSans", "Seat 1: "),
        ("NotoSansLao", f"{LAO} "),
        ("NotoSans", "& "),
        ("NotoSansThai", f"{THAI}"),
        ("NotoSans", ", "),
        ("NotoSansArmenian", f"{ARMENIAN} "),
        ("NotoSansMath", "→"),
        ("NotoSans", " 3"),
    ]


def test_a_table_card_in_lao_thai_and_armenian_embeds_the_noto_faces() -> None:
    # given: a table of four whose players are named in four scripts
    organiser = PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)
    client = client_for(organiser)
    cid, _ = started_event(client, [LAO, THAI, ARMENIAN, LATIN], table_size=4, name=LAO)
    # when
    response = client.get(f"{API}/{cid}/stages/1/table-cards.pdf")
    assert response.status_code == HTTPStatus.OK, response.content[:500]
    cards = bytes(response.content)
    # then: every face is embedded (a TrueType subset with its font file)
    fonts = fonts_of(cards)
    for face in ("NotoSans", "NotoSansLao", "NotoSansThai", "NotoSansArmenian"):
        for weight in ("Regular", "Bold"):
            font = fonts[f"{face}-{weight}"]
            assert font["/Subtype"] == "/TrueType"
            assert "/FontFile2" in font["/FontDescriptor"], face
    # and: the names read back as they were written, in the seats and the grid's heading
    (text,) = page_texts(cards)
    for name in (LAO, THAI, ARMENIAN, LATIN):
        assert text.count(name) >= 3, name  # a seat line, the grid's column, a signature
    assert text.startswith(LAO)  # the event's name
    # and: the page renders
    (picture,) = pictures(cards)
    keep(picture, "table-card-scripts.png")
    assert picture.width > 0


def test_the_score_sheet_writes_its_dates_as_the_language_does() -> None:
    # given: a table match whose first round is corrected at a known moment
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    PlayerFactory(user__username="grace", display_name=ARMENIAN)
    ada_client = client_for(ada)
    body = {"variant": "chickenfoot", "play": "table", "options": {"max_pip": 6, "rounds": 1},
            "seats": [{"kind": "creator"}, {"kind": "player", "username": "grace"}]}  # fmt: skip
    match_id = ada_client.post("/api/matches", body, format="json").json()["id"]
    scores = f"/api/matches/{match_id}/rounds/1/scores"
    first = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 25}]
    entered = ada_client.post(scores, {"version": 0, "scores": first}, format="json")
    assert entered.status_code == HTTPStatus.CREATED, entered.content
    at = dt.datetime(2026, 3, 4, 15, 7, tzinfo=dt.UTC)
    with time_machine.travel(at, tick=False):
        fixed = [first[0], {"seat": 1, "points": 31}]
        body = {"version": 1, "scores": fixed, "reason": "miscounted"}
        assert ada_client.put(scores, body, format="json").status_code == HTTPStatus.OK
    match = Match.objects.get(pk=match_id)
    # when: the sheet is printed in Armenian, and in English
    with translation.override("hy"):
        armenian = " ".join(page_texts(score_sheet_pdf(match=match)).pop().split())
        armenian_date = format_datetime(at, "short")
    english = " ".join(page_texts(score_sheet_pdf(match=match)).pop().split())
    # then: each writes the correction's moment its own way
    assert armenian_date == "04.03.26, 15:07"
    assert f"{armenian_date} UTC" in armenian
    assert "3/4/26, 3:07 PM UTC" in english
    with translation.override("hy"):
        change = translation.gettext("seat %(seat)s (%(name)s): %(old)s → %(new)s")
    assert change % {"seat": 2, "name": ARMENIAN, "old": 25, "new": 31} in armenian
    assert f"seat 2 ({ARMENIAN}): 25 → 31" in english
