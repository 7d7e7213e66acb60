"""The pages an account mail's link opens in a browser: they say to open it in the app, show
its code as text, and change nothing."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.test import Client
from django.utils.html import escape

from games.models import Player
from tests.foundation.hostile import STORABLE
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/account/verify-email", "/account/reset-password"])
@pytest.mark.parametrize("value", STORABLE)
def test_a_links_page_shows_its_code_as_text(path: str, value: str) -> None:
    response = Client().get(path, {"token": value, "uid": value})

    assert response.status_code == HTTPStatus.OK
    page = response.content.decode()
    assert escape(value) in page
    if escape(value) != value:
        assert value not in page
    assert "<script" not in page
    assert "in the Chickenfoot app" in page


def test_opening_a_link_changes_nothing() -> None:
    player = PlayerFactory(email="ada@example.com")

    Client().get("/account/verify-email", {"token": "anything"})
    refused = Client().post("/account/verify-email", {"token": "anything"})

    assert refused.status_code == HTTPStatus.METHOD_NOT_ALLOWED
    assert Player.objects.get(pk=player.pk).email_verified_at is None


def test_a_links_page_has_a_picker_without_scripts_that_keeps_the_link() -> None:
    """The page holds its link's code, and runs no script: its language picker is a form that
    sets the language cookie and comes back to the same link."""
    client = Client()
    page = client.get("/account/reset-password", {"token": "t0k", "uid": "u1d"})
    html = page.content.decode()
    assert 'name="language"' in html
    assert "<script" not in html
    back = client.post(
        "/i18n/setlang/",
        {"language": "lo", "next": "/account/reset-password?token=t0k&uid=u1d"},
    )
    assert back.status_code == HTTPStatus.FOUND
    assert back["Location"] == "/account/reset-password?token=t0k&uid=u1d"
    again = client.get(back["Location"])
    assert again["Content-Language"] == "lo"
    assert '<html lang="lo">' in again.content.decode()
