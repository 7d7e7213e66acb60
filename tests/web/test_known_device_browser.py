"""The web's device cookie in a real browser: the browser an account registered from keeps its
device credential in an HttpOnly cookie, and logs in through the lobby's form while the account
is locked out for everyone else (docs/reliability.md, "Known devices")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games.accounts.devices import COOKIE
from tests.web.test_browser import PASSWORD, register

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 3


def log_in_with_the_form(page: Any, base: str, username: str) -> None:
    page.goto(base + "/")
    form = page.locator("#login-form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()


def test_the_browser_an_account_logged_in_from_logs_in_while_it_is_locked_out(
    live_server: Any, new_page: Any, settings: Any
) -> None:
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    settings.LOGIN_KNOWN_DEVICE_DAYS = 90
    settings.LOGIN_KNOWN_ADDRESS_DAYS = 0  # every browser here comes from 127.0.0.1
    home = new_page()
    register(home, live_server.url, "ada", "Ada")
    cookie = next(c for c in home.context.cookies() if c["name"] == COOKIE)
    assert (cookie["httpOnly"], cookie["sameSite"], cookie["path"]) == (
        True,
        "Strict",
        "/api/auth/token",
    )
    assert COOKIE not in home.evaluate("document.cookie")  # out of the pages' scripts' reach
    with home.expect_navigation():  # signing out revokes the token, then loads the lobby again
        home.locator("#account button", has_text="Sign out").click()
    for number in range(LIMIT):  # someone fails at ada's username from elsewhere
        Client(REMOTE_ADDR=f"198.51.100.{number}").post(
            "/api/auth/token",
            {"username": "ada", "password": "a guess"},
            content_type="application/json",
        )

    log_in_with_the_form(home, live_server.url, "ada")
    home.locator("#lobby").wait_for(state="visible")
    assert "Signed in as Ada" in home.locator("#account").inner_text()

    elsewhere = new_page()  # another browser: no credential, the lock holds
    log_in_with_the_form(elsewhere, live_server.url, "ada")
    elsewhere.locator("#messages .error").wait_for()
    assert "Too many failed log-ins" in elsewhere.locator("#messages").inner_text()
    assert elsewhere.locator("#lobby").is_hidden()
