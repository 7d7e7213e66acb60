"""games/accounts/token_requests.py: the API's requests with a token pass by the browser's
middleware (Django's authentication, messages); every other request goes through it."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from games.accounts.token_requests import token_api_request
from tests.games.factories import PlayerFactory, token_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "authorization", "passed_by"),
    [
        ("/api/players/me", "Token abc", True),
        ("/api/players/me", "Bearer abc", True),
        ("/api/players/me", "bearer abc", True),
        ("/api/players/me", "Basic YTpi", False),  # not a token: refused by the API, in full
        ("/api/players/me", "", False),
        ("/api/players/me", None, False),
        ("/account/login/", "Token abc", False),  # a page: its middleware in full
        ("/admin/", "Token abc", False),
    ],
)
def test_which_requests_pass_the_browser_s_middleware_by(
    path: str, authorization: str | None, passed_by: bool
) -> None:
    # given
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}
    # when
    request = RequestFactory().get(path, **headers)
    # then
    assert token_api_request(request) is passed_by


def test_a_token_request_is_answered_with_no_session_and_no_cookie() -> None:
    # given
    player = PlayerFactory()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_for(player)}")
    # when
    response = client.get("/api/players/me")
    # then
    assert response.status_code == HTTPStatus.OK
    assert response.json()["id"] == player.pk
    assert not response.wsgi_request.session.accessed
    assert not hasattr(response.wsgi_request, "_messages")
    assert response.wsgi_request.user == player.user  # set by DRF, from the token
    assert "Set-Cookie" not in response
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")


def test_a_token_decides_even_beside_another_user_s_session() -> None:
    # given: a browser logged in as one player, sending another's token
    logged_in, holder = PlayerFactory(), PlayerFactory()
    browser = Client()
    browser.force_login(logged_in.user)
    # when
    with_token = browser.get("/api/players/me", HTTP_AUTHORIZATION=f"Token {token_for(holder)}")
    bad_token = browser.get("/api/players/me", HTTP_AUTHORIZATION="Token not-a-token")
    by_session = browser.get("/api/players/me")  # the API takes tokens only
    # then
    assert with_token.json()["id"] == holder.pk
    assert bad_token.status_code == HTTPStatus.UNAUTHORIZED
    assert by_session.status_code == HTTPStatus.UNAUTHORIZED


def test_a_page_with_a_token_header_gets_the_browser_s_middleware_all_the_same() -> None:
    # given: a logged-in browser that also sends a token
    player = PlayerFactory()
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player.user)
    headers = {"HTTP_AUTHORIZATION": f"Token {token_for(player)}"}
    # when
    page = browser.get("/", **headers)
    forged = browser.post("/i18n/setlang/", {"language": "th"}, **headers)  # no CSRF token
    # then
    assert page.wsgi_request.session.session_key  # the session was loaded
    assert page.wsgi_request.user == player.user  # by Django's authentication middleware
    assert forged.status_code == HTTPStatus.FORBIDDEN
