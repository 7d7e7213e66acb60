"""The printed standings and crosstable (docs/tables.md, "Paper"): what they print, read back
from the PDF; who may read them (the organiser; anyone when the competition is public); a
field of 200 on landscape pages; hostile names set as written."""

from __future__ import annotations

import io
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import translation
from pypdf import PdfReader
from rest_framework.test import APIClient

from games.models import Player
from games.paper.crosstable import crosstable_pdf
from games.paper.standings_sheet import standings_pdf
from scoring.models import Competition
from scoring.ports import games_port
from tests.foundation.hostile import HOSTILE, STORABLE
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.paper_reading import keep, page_texts, pictures
from tests.games.pdf_glyphs import shaped_as_harfbuzz
from tests.games.schema_check import check_response
from tests.games.test_languages_done_when import LANGUAGES, client_in, in_language, translated
from tests.games.test_paper_shaping import ARMENIAN, LAO, THAI, face
from tests.scoring.competitions.conftest import make_competition
from tests.scoring.competitions.test_crosstable import eventful
from tests.scoring.competitions.test_tie_breaks import swiss

pytestmark = pytest.mark.django_db

API = "/api/competitions"
PATH = "/api/competitions/{competition_id}"


def pdf(response: Any) -> bytes:
    assert response.status_code == HTTPStatus.OK, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "private, no-store"
    assert response.content.startswith(b"%PDF-")
    return bytes(response.content)


def flat(text: str) -> str:
    return " ".join(text.split())


def landscape(document: bytes) -> list[bool]:
    return [
        float(page.mediabox.width) > float(page.mediabox.height)
        for page in PdfReader(io.BytesIO(document)).pages
    ]


# --- the standings ------------------------------------------------------------------------------


def test_the_standings_sheet_prints_every_tie_break_of_the_order(
    organiser: Player, organiser_client: APIClient
) -> None:
    tournament = swiss(organiser, ["placement_points", "buchholz", "median_buchholz", "wins"])

    sheet = pdf(organiser_client.get(f"{API}/{tournament.pk}/standings.pdf"))

    (text,) = page_texts(sheet)
    lines = flat(text)
    assert "Spring open" in lines
    assert "Final standings" in lines
    assert "Ranked by: Placement points · Buchholz · Median Buchholz · Wins" in lines
    # rank, name, matches, then points, Buchholz, median Buchholz, wins, in the order's order
    for row in ("1= Ben 3 7 17 5 2", "1= Cat 3 7 17 5 2", "3 Fay 3 7 15 5 2",
                "4 Ann 3 5 21 7 1", "5= Dan 3 5 19 7 1", "5= Eve 3 5 19 7 1"):  # fmt: skip
        assert row in lines, row
    assert "A rank marked = is shared" in lines
    assert (
        f"competition-{tournament.pk}-standings.pdf"
        in organiser_client.get(f"{API}/{tournament.pk}/standings.pdf")["Content-Disposition"]
    )
    assert landscape(sheet) == [False]
    keep(pictures(sheet)[0], "standings-sheet.png")


def test_a_long_order_is_printed_on_its_side(organiser: Player) -> None:
    order = ["placement_points", "buchholz", "median_buchholz", "wins", "rounds_at_zero",
             "best_round", "head_to_head", "total_points", "mean_points_per_round"]  # fmt: skip
    tournament = swiss(organiser, order)

    sheet = pdf(client_for(organiser).get(f"{API}/{tournament.pk}/standings.pdf"))

    assert landscape(sheet) == [True]
    lines = flat(page_texts(sheet)[0])
    # Cat: 7 points, Buchholz 17, median 5, 2 wins, 2 at zero, lowest 3, h2h 0, 3 pips, 1 a round
    assert "1 Cat 3 7 17 5 2 2 3 0 3 1" in lines


def test_the_sheet_is_handed_names_and_figures_only(
    organiser: Player, organiser_client: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = swiss(organiser)
    handed: list[dict[str, Any]] = []
    printer = games_port()
    monkeypatch.setattr(
        printer, "standings_pdf", lambda *, sheet: handed.append(sheet) or b"%PDF-1.4"
    )
    monkeypatch.setattr(
        printer, "crosstable_pdf", lambda *, sheet: handed.append(sheet) or b"%PDF-1.4"
    )

    organiser_client.get(f"{API}/{tournament.pk}/standings.pdf")
    organiser_client.get(f"{API}/{tournament.pk}/crosstable.pdf")

    standings, crosstable = handed
    assert set(standings["rows"][0]) == {
        "rank", "shared", "name", "matches", "dropped",
        "placement_points", "wins", "mean_points_per_round", "head_to_head",
    }  # fmt: skip
    for entrant in crosstable["entrants"]:
        assert "player_id" not in entrant
        for entry in entrant["stages"]:
            assert entry["match_id"] is None
            assert all(set(o) == {"name", "bot", "number"} for o in entry["opponents"])


# --- the crosstable -----------------------------------------------------------------------------


def test_the_crosstable_sheet_prints_each_stage_of_each_entrant(
    organiser: Player, organiser_client: APIClient
) -> None:
    tournament = eventful(organiser)

    sheet = pdf(organiser_client.get(f"{API}/{tournament.pk}/crosstable.pdf"))

    assert landscape(sheet) == [True]
    (text,) = page_texts(sheet)
    lines = flat(text)
    assert "Crosstable · 2 of 3 stages" in lines
    assert "Stage 1 Stage 2" in lines
    # number, rank, name, points, wins, pips a round, head-to-head, then stage 1 and stage 2
    assert "1 1 Ann 4 1 0 0 T1 · 1/3 · 4 · 0 v 4 5 T1 · playing v 3 7" in lines
    assert "2 2 Gus 4 0 \u2013 0 no-show bye · 4" in lines
    assert "3 3 Dan 3 1 0 0 T2 · 1/2 · 3 · 0 v bot" in lines
    assert "4 4 Ben 2 0 5 0 T1 · 2/3 · 2 · 5 v 1 5 T2 · abandoned v 5" in lines
    assert "6 6= Eve (dropped out) 0 0 \u2013 0 no-show dropped out" in lines
    assert "7 6= Fay 0 0 \u2013 0 not entered T1 · playing v 1 3" in lines
    keep(pictures(sheet)[0], "crosstable-sheet.png")


def _big_field(entrants: int, stages: int) -> dict[str, Any]:
    """A crosstable document of ``entrants`` at tables of four for ``stages`` stages."""
    order = ["placement_points", "buchholz", "wins"]
    rows = []
    for number in range(1, entrants + 1):
        table = (number - 1) // 4 + 1
        rivals = [n for n in range((table - 1) * 4 + 1, table * 4 + 1) if n != number]
        rows.append(
            {
                "number": number,
                "rank": number,
                "shared": False,
                "name": f"Entrant {number:03d}",
                "dropped": False,
                "tie_breaks": {"placement_points": 30 - number / 10, "buchholz": 12.5, "wins": 1},
                "stages": [
                    {
                        "stage": stage,
                        "status": "played",
                        "table": table,
                        "match_id": None,
                        "opponents": [
                            {"name": "x", "bot": False, "number": rival} for rival in rivals
                        ],
                        "place": (number - 1) % 4 + 1,
                        "table_players": 4,
                        "placement_points": 5.0,
                        "total_points": 40 + stage,
                    }
                    for stage in range(1, stages + 1)
                ],
            }
        )
    return {
        "competition_id": 1,
        "name": "Big weekend",
        "status": "finished",
        "stage_count": stages,
        "current_stage": stages,
        "final": True,
        "tie_breaks": order,
        "stages": [{"number": n, "status": "finished"} for n in range(1, stages + 1)],
        "entrants": rows,
    }


def test_two_hundred_entrants_fill_landscape_pages_each_with_the_headings() -> None:
    document = crosstable_pdf(sheet=_big_field(200, 6))

    texts = page_texts(document)
    assert len(texts) > 5
    assert all(landscape(document))
    for number, text in enumerate(texts, start=1):
        lines = flat(text)
        assert "Stage 1" in lines
        assert "Stage 6" in lines
        assert f"Big weekend · crosstable · page {number}" in lines
    everything = flat(" ".join(texts))
    for number in range(1, 201):
        assert f"Entrant {number:03d}" in everything
    assert "200 200 Entrant 200 10 12.5 1 T50 · 4/4 · 5 · 41 v 197 198 199" in everything
    keep(pictures(document)[-1], "crosstable-sheet-last-page.png")


def test_more_stages_than_a_page_is_wide_print_in_blocks_of_stages() -> None:
    document = crosstable_pdf(sheet=_big_field(8, 20))

    texts = [flat(text) for text in page_texts(document)]

    assert len(texts) > 1
    assert "Stages 1 to" in texts[0]
    assert "Stage 20" in texts[-1]
    assert "Stage 20" not in texts[0]
    for text in texts:
        assert "Entrant 008" in text  # each block runs down the whole field


# --- who may read them --------------------------------------------------------------------------


@pytest.mark.parametrize("sheet", ["standings.pdf", "crosstable.pdf"])
def test_the_organiser_or_anyone_when_public(
    organiser: Player, organiser_client: APIClient, sheet: str
) -> None:
    tournament = swiss(organiser)
    url = f"{API}/{tournament.pk}/{sheet}"
    player = client_for(PlayerFactory())
    schema_path = f"{PATH}/{sheet}"

    # private: 404 without a token (as the wall: its existence is not revealed), 403 signed in
    hidden = APIClient().get(url)
    refused = player.get(url)
    check_response(hidden, schema_path, "GET")
    check_response(refused, schema_path, "GET")
    assert (hidden.status_code, hidden.json()["code"]) == (404, "competition_not_found")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")
    assert "while it is not public" in refused.json()["detail"]
    assert pdf(organiser_client.get(url))

    # public: anyone, with or without a token
    assert organiser_client.post(f"{API}/{tournament.pk}/publish").status_code == HTTPStatus.OK
    assert pdf(APIClient().get(url))
    assert pdf(player.get(url))

    # no parameter, and no such competition
    bad = APIClient().get(f"{url}?page=2")
    check_response(bad, schema_path, "GET")
    assert (bad.status_code, list(bad.json()["errors"])) == (400, ["page"])
    assert APIClient().get(f"{API}/999999/{sheet}").status_code == HTTPStatus.NOT_FOUND


def test_a_league_has_standings_on_paper_but_no_crosstable(organiser: Player) -> None:
    league = make_competition(organiser, kind="league", min_matches=2)
    league.registrations.create(
        player=PlayerFactory(display_name="Lou"), registered_at=league.created_at
    )
    Competition.objects.filter(pk=league.pk).update(status="running")
    client = client_for(organiser)

    text = flat(page_texts(pdf(client.get(f"{API}/{league.pk}/standings.pdf")))[0])
    refused = client.get(f"{API}/{league.pk}/crosstable.pdf")

    assert "Standings so far" in text
    assert "\u2013 Lou 0" in text
    assert "not ranked yet, with fewer than 2 matches" in text
    assert (refused.status_code, refused.json()["code"]) == (409, "competition_status")
    check_response(refused, f"{PATH}/crosstable.pdf", "GET")


# --- hostile names ------------------------------------------------------------------------------


def test_hostile_names_are_printed_as_written_on_both_sheets(
    organiser: Player, organiser_client: APIClient
) -> None:
    tournament = swiss(organiser)
    names = ["<font size=80>", "<b>bold</b>", STORABLE[0], "Tom & Jerry &amp;", '=HYPERLINK("x")',
             "two\nlines"]  # fmt: skip
    players = Player.objects.filter(registrations__competition=tournament).order_by("pk")
    for player, name in zip(players, names, strict=True):
        Player.objects.filter(pk=player.pk).update(display_name=name)
    Competition.objects.filter(pk=tournament.pk).update(name="<i>Cup</i> & co")

    for sheet in ("standings.pdf", "crosstable.pdf"):
        document = pdf(organiser_client.get(f"{API}/{tournament.pk}/{sheet}"))
        text = flat(" ".join(page_texts(document)))
        assert "<i>Cup</i> & co" in text
        # (a word wider than the name's column wraps where it must: compare without spaces)
        unspaced = "".join(text.split())
        for name in names:
            assert "".join(name.split()) in unspaced, (sheet, name)
        assert pictures(document)


@pytest.mark.parametrize("name", HOSTILE)
def test_no_name_breaks_either_sheet(name: str) -> None:
    field = _big_field(4, 2)
    field["name"] = name
    for entrant in field["entrants"]:
        entrant["name"] = name
    rows = [
        {"rank": 1, "shared": True, "name": name, "matches": 2, "dropped": True,
         "placement_points": 4.0, "buchholz": None}
    ]  # fmt: skip
    standings = {
        "event": name,
        "final": False,
        "stage_count": 3,
        "stages_finished": 1,
        "min_matches": 0,
        "tie_breaks": ["placement_points", "buchholz"],
        "rows": rows,
    }

    for document, printed in (
        (crosstable_pdf(sheet=field), "T1 · 1/4 · 5 · 41"),
        (standings_pdf(sheet=standings), "Standings after 1 of 3 stages"),
    ):
        assert printed in flat(" ".join(page_texts(document)))
        assert pictures(document)


# --- in the reader's language -------------------------------------------------------------------


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_sheets_print_in_the_language_asked_for(organiser: Player, language: str) -> None:
    tournament = swiss(organiser, ["placement_points", "buchholz", "head_to_head"])
    names = LANGUAGES[language]
    first, second = Player.objects.filter(registrations__competition=tournament).order_by("pk")[:2]
    Player.objects.filter(pk=first.pk).update(display_name=names[0])
    Player.objects.filter(pk=second.pk).update(display_name=names[1])
    client = client_in(organiser, language)

    standings = in_language(client.get(f"{API}/{tournament.pk}/standings.pdf"), language)
    crosstable = in_language(client.get(f"{API}/{tournament.pk}/crosstable.pdf"), language)

    standings_text = flat(" ".join(page_texts(pdf(standings))))
    crosstable_text = flat(" ".join(page_texts(pdf(crosstable))))
    for text in (standings_text, crosstable_text):
        for name in names:
            assert name in text, (language, name)
        if language != "ceb":  # Cebuano writes Buchholz as English does
            assert translated("Buchholz", language) in text
        assert translated("Ranked by: %(order)s", language, order="").strip() in text
    assert translated("Final standings", language) in standings_text
    assert translated("Final crosstable", language) in crosstable_text
    assert translated("Stage %(number)s", language, number="3") in crosstable_text
    for english in ("Final standings", "Ranked by", "Placement points"):
        assert english not in standings_text


# --- shaped as HarfBuzz shapes it ----------------------------------------------------------------


def test_both_sheets_draw_names_and_their_own_words_as_harfbuzz_shapes_them() -> None:
    # given: entrants named in Thai, Lao and Armenian (stacked marks, ligatures), the event in
    # Armenian, one entrant a no-show at stage 2, and the sheets printed in Lao
    field = _big_field(4, 2)
    field["name"] = ARMENIAN
    for entrant, name in zip(field["entrants"], (THAI, LAO, ARMENIAN), strict=False):
        entrant["name"] = name
    no_show = field["entrants"][3]["stages"][1]
    no_show.update(status="no_show", table=None, opponents=[], place=None)
    rows = [
        {"rank": n, "shared": False, "name": name, "matches": 2, "dropped": False,
         "placement_points": 4.0, "buchholz": 2.5}
        for n, name in enumerate((THAI, LAO, ARMENIAN), start=1)
    ]  # fmt: skip
    standings = {
        "event": ARMENIAN,
        "final": True,
        "stage_count": 2,
        "stages_finished": 2,
        "min_matches": 0,
        "tie_breaks": ["placement_points", "buchholz"],
        "rows": rows,
    }
    with translation.override("lo"):
        crosstable = crosstable_pdf(sheet=field)
        sheet = standings_pdf(sheet=standings)
        word = translation.gettext("no-show")

    # then: each name and the Lao word in a figures cell are HarfBuzz's glyphs where it puts them
    for document in (crosstable, sheet):
        assert shaped_as_harfbuzz(document, THAI, face("thai")) == 1
        assert shaped_as_harfbuzz(document, LAO, face("lao")) == 1
        # (the entrant and the event at the page's foot; the event as the title, in bold)
        assert shaped_as_harfbuzz(document, ARMENIAN, face("armenian")) == 2
        assert shaped_as_harfbuzz(document, ARMENIAN, face("armenian", bold=True)) == 1
    assert word != "no-show"
    assert shaped_as_harfbuzz(crosstable, word, face("lao")) == 1
