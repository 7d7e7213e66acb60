"""Display names can be seen and read in order: none invisible, none reordering the text around
it, none stacking marks without end; names in every script pass (docs/api.md, "Names")."""

from __future__ import annotations

import unicodedata
from http import HTTPStatus

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.accounts.names import display_name_problem
from games.models import Player

pytestmark = pytest.mark.django_db

REFUSED = [
    pytest.param("\u200d", id="zero-width-joiner-alone"),
    pytest.param("\u200b\u200c\u2060", id="zero-widths-only"),
    pytest.param("\u3164", id="hangul-filler"),
    pytest.param("\u2800\u2800", id="blank-braille"),
    pytest.param("\u0301\u0302", id="marks-only"),
    pytest.param("Ada\u202eevil", id="right-to-left-override"),
    pytest.param("\u202dAda", id="left-to-right-override"),
    pytest.param("Ada\u2067x\u2069", id="isolate"),
    pytest.param("Ada\u200f", id="right-to-left-mark"),
    pytest.param("Ada\u200e", id="left-to-right-mark"),
    pytest.param("\u061cAda", id="arabic-letter-mark"),
    pytest.param("Ada\u0007", id="bell"),
    pytest.param("Ada\nLovelace", id="newline"),
    pytest.param("Z" + "\u0301" * 60, id="sixty-combining-marks"),
    pytest.param("Zo" + "\u0308\u0301\u0302\u0303\u0304", id="five-marks"),
    pytest.param("Z\u00f6" + "\u0301\u0302\u0303\u0304", id="five-marks-one-composed"),
]

ACCEPTED = [
    pytest.param("สมชาย", id="thai"),
    pytest.param("สมศักดิ์", id="thai-tone-marks"),
    pytest.param("ສົມສັກ", id="lao"),
    pytest.param("Արամ", id="armenian"),
    pytest.param("محمد", id="arabic"),
    pytest.param("میخواهم\u200cرفت", id="persian-zwnj"),
    pytest.param("मोहन", id="devanagari"),
    pytest.param("स्\u200dत्री", id="devanagari-zwj"),
    pytest.param("བསྒྲུབས", id="tibetan-stack"),
    pytest.param("שָׁלוֹם", id="hebrew-points"),
    pytest.param("Nguyễn Văn", id="vietnamese"),
    pytest.param("Zoe\u0308", id="decomposed-diaeresis"),
    pytest.param("Zo" + "\u0308\u0301\u0302\u0303", id="four-marks"),
    pytest.param("\U0001f468\u200d\U0001f469\u200d\U0001f467", id="emoji-family"),
    pytest.param("\u2764\ufe0f", id="emoji-variation-selector"),
    pytest.param("李小龍", id="han"),
    pytest.param("?", id="punctuation"),
]


def register(display_name: str) -> object:
    return APIClient().post(
        "/api/players",
        {"username": "ada", "password": "correct horse battery", "display_name": display_name},
        format="json",
    )


@pytest.mark.parametrize("name", REFUSED)
def test_a_display_name_that_cannot_be_read_is_a_400_naming_it(name: str) -> None:
    response = register(name)

    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert body["code"] == "invalid"
    assert list(body["errors"]) == ["display_name"]
    assert get_user_model().objects.count() == 0


@pytest.mark.parametrize("name", ACCEPTED)
def test_names_in_every_script_are_taken(name: str) -> None:
    assert display_name_problem(name) is None

    response = register(name)

    assert response.status_code == HTTPStatus.CREATED, response.content  # type: ignore[attr-defined]
    stored = Player.objects.get(user__username="ada").display_name
    assert stored == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("\ud800", "surrogate (U+D800)"),
        ("Ada\x00", "control character (U+0000)"),
        ("Ada\u202e", "bidirectional control character (U+202E)"),
        ("\u200d", "visible character"),
        ("a" + "\u0301" * 5, "at most 4 combining marks"),
    ],
)
def test_the_refusal_says_why(name: str, says: str) -> None:
    assert says in (display_name_problem(name) or "")


def test_the_admin_refuses_an_unreadable_display_name(players: list[Player]) -> None:
    admin = User.objects.create_superuser("root", "root@example.com", "a long admin passphrase")
    browser = Client()
    browser.force_login(admin)
    player = players[1]

    answer = browser.post(
        f"/admin/games/player/{player.pk}/change/",
        {"user": player.user.pk, "kind": player.kind, "display_name": "Ada\u202eevil"},
    )

    assert answer.status_code == HTTPStatus.OK  # the form again, with its error
    assert "bidirectional control character" in answer.text
    player.refresh_from_db()
    assert "\u202e" not in player.display_name
