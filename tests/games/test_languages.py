"""The language of an answer: the player's saved one, then Accept-Language, then English; on
API answers, problem answers and pages alike, each naming it (Content-Language) and varying by
Accept-Language."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from chickenfoot.i18n.languages import LANGUAGE_CODES, NATIVE_NAMES
from games.models import Player
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after() -> Any:
    yield
    translation.activate("en")


def language_of(response: Any) -> str:
    vary = {part.strip().lower() for part in response.get("Vary", "").split(",")}
    assert "accept-language" in vary, response.get("Vary")
    return response["Content-Language"]


def player_with(language: str) -> Player:
    return PlayerFactory(language=language)


# --- on API answers ---------------------------------------------------------------------------


def test_an_api_answer_is_in_english_when_nothing_asks_otherwise() -> None:
    response = client_for(player_with("")).get("/api/players/me")
    assert response.status_code == HTTPStatus.OK
    assert language_of(response) == "en"


@pytest.mark.parametrize(
    ("accept", "expected"),
    [("lo", "lo"), ("th-TH,th;q=0.9", "th"), ("hy-AM", "hy"), ("ceb", "ceb"), ("fr", "en")],
)
def test_accept_language_chooses_when_the_player_chose_none(accept: str, expected: str) -> None:
    response = client_for(player_with("")).get("/api/players/me", HTTP_ACCEPT_LANGUAGE=accept)
    assert language_of(response) == expected


def test_the_players_saved_language_comes_before_accept_language() -> None:
    response = client_for(player_with("hy")).get("/api/players/me", HTTP_ACCEPT_LANGUAGE="th")
    assert language_of(response) == "hy"
    assert response.json()["language"] == "hy"


def test_the_players_language_holds_for_the_scoring_api_too() -> None:
    response = client_for(player_with("lo")).get("/api/competitions", HTTP_ACCEPT_LANGUAGE="th")
    assert language_of(response) == "lo"


# --- on problem answers -----------------------------------------------------------------------


def test_a_problem_answer_names_its_language_at_every_level() -> None:
    # nothing asked: English
    response = client_for(player_with("")).get("/api/matches/999999")
    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response["Content-Type"] == "application/problem+json"
    assert language_of(response) == "en"
    # Accept-Language
    response = client_for(player_with("")).get("/api/matches/999999", HTTP_ACCEPT_LANGUAGE="ceb")
    assert language_of(response) == "ceb"
    # the player's own, first
    response = client_for(player_with("th")).get("/api/matches/999999", HTTP_ACCEPT_LANGUAGE="lo")
    assert language_of(response) == "th"


def test_a_problem_before_authentication_follows_accept_language() -> None:
    response = APIClient().get("/api/players/me", HTTP_ACCEPT_LANGUAGE="lo")
    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert language_of(response) == "lo"


# --- on pages ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "cookie", "expected"),
    [(None, None, "en"), ("hy", None, "hy"), ("hy", "lo", "lo"), ("fr", None, "en")],
)
def test_a_page_follows_its_cookie_then_accept_language(
    accept: str | None, cookie: str | None, expected: str
) -> None:
    client = Client()
    if cookie:
        client.cookies["django_language"] = cookie
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    response = client.get("/", **headers)
    assert response.status_code == HTTPStatus.OK
    assert language_of(response) == expected
    assert f'<html lang="{expected}"' in response.content.decode()


def test_every_page_offers_each_language_by_its_own_name() -> None:
    page = Client().get("/").content.decode()
    assert 'id="language-picker"' in page
    for code in LANGUAGE_CODES:
        assert f'value="{code}"' in page
        assert NATIVE_NAMES[code] in page


def test_a_page_that_is_not_found_names_its_language() -> None:
    response = Client().get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="th")
    assert response.status_code == HTTPStatus.NOT_FOUND
    assert language_of(response) == "th"


def test_the_script_catalog_is_served_in_the_language_asked_for() -> None:
    response = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="lo")
    assert response.status_code == HTTPStatus.OK
    assert "javascript" in response["Content-Type"]
    assert language_of(response) == "lo"
    assert "gettext" in response.content.decode()


# --- choosing one -----------------------------------------------------------------------------


def test_a_player_saves_a_language_and_the_answer_is_in_it() -> None:
    player = player_with("")
    client = client_for(player)
    response = client.patch("/api/players/me", {"language": "lo"}, format="json")
    assert response.status_code == HTTPStatus.OK, response.content
    assert response.json()["language"] == "lo"
    assert language_of(response) == "lo"
    player.refresh_from_db()
    assert player.language == "lo"
    assert language_of(client.get("/api/players/me", HTTP_ACCEPT_LANGUAGE="th")) == "lo"
    # none again: Accept-Language decides
    response = client.patch("/api/players/me", {"language": ""}, format="json")
    assert response.json()["language"] == ""
    assert language_of(client.get("/api/players/me", HTTP_ACCEPT_LANGUAGE="th")) == "th"


@pytest.mark.parametrize("bad", ["fr", "LO", "en-us", 7, ["lo"]])
def test_an_unknown_language_is_refused_naming_the_field(bad: object) -> None:
    player = player_with("th")
    response = client_for(player).patch("/api/players/me", {"language": bad}, format="json")
    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "invalid"
    assert list(body["errors"]) == ["language"]
    assert "en, lo, th, hy, ceb" in body["errors"]["language"][0]
    player.refresh_from_db()
    assert player.language == "th"


def test_a_patch_without_a_language_changes_nothing() -> None:
    player = player_with("hy")
    response = client_for(player).patch("/api/players/me", {}, format="json")
    assert response.status_code == HTTPStatus.OK
    assert response.json()["language"] == "hy"
