"""A problem's ``title`` and ``detail`` (and its field messages) come from the message catalog,
in the reader's language; ``code``, ``type``, ``rule`` and the ``errors`` keys never change.

The catalog here is the test's own: a tiny Lao one, written as a .po and compiled with Babel
into a locale directory that ``LOCALE_PATHS`` names for the test alone.
"""

from __future__ import annotations

from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.utils import translation

from chickenfoot.problems import problem_from_exception
from games.engine.errors import RuleViolation
from games.engine.text import N_
from games.models import Match
from games.problems import MatchNotFound
from tests.games.conftest import client_for
from tests.games.helpers import submit

pytestmark = pytest.mark.django_db

LANGUAGE = "lo"

#: msgid -> the test's "translation" (marked, so that a test sees where each word came from).
TRANSLATIONS = {
    "No such match": "LO: ບໍ່ມີການແຂ່ງຂັນ",
    "There is no match %(match_id)s.": "LO: ບໍ່ມີການແຂ່ງຂັນ %(match_id)s.",
    "Not your turn": "LO: ບໍ່ແມ່ນຕາຂອງທ່ານ",
    "It is seat %(turn)s's turn, not seat %(seat)s's.": "LO: ຕາຂອງບ່ອນນັ່ງ %(turn)s, ບໍ່ແມ່ນ %(seat)s.",
    "Rule violation": "LO: ຜິດກົດ",
    "You do not hold %(tile)s: a play is a tile from your hand.": "LO: ທ່ານບໍ່ມີ %(tile)s.",
    "Invalid input": "LO: ຂໍ້ມູນບໍ່ຖືກຕ້ອງ",
    "Invalid input in: %(fields)s.": "LO: ຂໍ້ມູນບໍ່ຖືກຕ້ອງໃນ: %(fields)s.",
    # DRF's own message, from our catalog (chickenfoot/i18n/framework_messages.py)
    "This field is required.": "LO: ຕ້ອງມີ.",
}


def _po() -> str:
    entries = "\n".join(
        f'msgid "{msgid}"\nmsgstr "{msgstr}"\n' for msgid, msgstr in TRANSLATIONS.items()
    )
    return (
        'msgid ""\nmsgstr ""\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'"Language: {LANGUAGE}\\n"\n\n{entries}'
    )


@pytest.fixture
def lao_catalog(tmp_path: Path, settings: Any) -> None:
    """A Lao catalog of ``TRANSLATIONS`` (a .po compiled to a .mo with Babel), active."""
    messages = tmp_path / "locale" / LANGUAGE / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "django.po").write_text(_po(), encoding="utf-8")
    with (messages / "django.po").open("rb") as po:
        catalog = read_po(po, locale=LANGUAGE)
    with (messages / "django.mo").open("wb") as mo:
        write_mo(mo, catalog)
    settings.LOCALE_PATHS = [tmp_path / "locale"]  # resets Django's loaded catalogs
    with translation.override(LANGUAGE):
        yield


def test_a_problem_class_gives_its_title_and_detail_in_the_readers_language(
    lao_catalog: None, players: list[Any]
) -> None:
    # when
    response = client_for(players[0]).get("/api/matches/999999", HTTP_ACCEPT_LANGUAGE=LANGUAGE)

    # then
    assert response.status_code == HTTPStatus.NOT_FOUND
    body = response.json()
    assert body["title"] == "LO: ບໍ່ມີການແຂ່ງຂັນ"
    assert body["detail"] == "LO: ບໍ່ມີການແຂ່ງຂັນ 999999."
    assert body["code"] == "match_not_found"
    assert body["type"] == "https://chickenfoot.dev/problems/match-not-found"


def test_an_engine_refusal_is_translated_at_the_api_and_keeps_its_rule(
    lao_catalog: None, started_match: Any, clients: list[Any]
) -> None:
    # given: a match where seat 0 is to move
    match: Match = started_match()
    turn = match.state["turn"]
    other = (turn + 1) % match.seat_count

    # when: another seat moves
    response = submit(
        clients[other],
        match.pk,
        {"kind": "draw", "version": match.version},
        HTTP_ACCEPT_LANGUAGE=LANGUAGE,
    )

    # then
    assert response.status_code == HTTPStatus.CONFLICT
    body = response.json()
    assert body["title"] == "LO: ບໍ່ແມ່ນຕາຂອງທ່ານ"
    assert body["detail"] == f"LO: ຕາຂອງບ່ອນນັ່ງ {turn}, ບໍ່ແມ່ນ {other}."
    assert (body["code"], body["rule"]) == ("not_your_turn", "C-SEATS")
    assert body["type"] == "https://chickenfoot.dev/problems/not-your-turn"


def test_drf_messages_and_our_summary_come_from_our_catalog(
    lao_catalog: None, clients: list[Any]
) -> None:
    # when: a match created without its variant or seats
    response = clients[0].post(
        "/api/matches", {"options": {}}, format="json", HTTP_ACCEPT_LANGUAGE=LANGUAGE
    )

    # then: the field names are the same in every language, their messages are not
    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert body["title"] == "LO: ຂໍ້ມູນບໍ່ຖືກຕ້ອງ"
    assert body["code"] == "invalid"
    assert body["errors"]["variant"] == ["LO: ຕ້ອງມີ."]
    assert body["detail"].startswith("LO: ຂໍ້ມູນບໍ່ຖືກຕ້ອງໃນ: ")


def test_the_engines_english_text_is_translated_when_rendered(lao_catalog: None) -> None:
    # given: the engine's message, English as the engine speaks it
    refusal = RuleViolation(
        "CF-ONE", N_("You do not hold %(tile)s: a play is a tile from your hand.", tile="3|5")
    )
    assert refusal.detail == "You do not hold 3|5: a play is a tile from your hand."

    # when
    problem = problem_from_exception(refusal)

    # then
    assert problem is not None
    body = problem.as_dict()
    assert (body["title"], body["detail"]) == ("LO: ຜິດກົດ", "LO: ທ່ານບໍ່ມີ 3|5.")
    assert (body["code"], body["rule"]) == ("rule_violation", "CF-ONE")


def test_english_stays_the_english_of_the_msgids(settings: Any) -> None:
    with translation.override("en"):
        body = problem_from_exception(
            MatchNotFound(translation.gettext("There is no match %(match_id)s.") % {"match_id": 7})
        ).as_dict()  # type: ignore[union-attr]

    assert (body["title"], body["detail"]) == ("No such match", "There is no match 7.")
