"""chickenfoot/i18n/middleware.py: Django's LocaleMiddleware, its choices remembered per
(cookie, Accept-Language), each the one Django's makes."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware as DjangosLocaleMiddleware
from django.test import RequestFactory, override_settings
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot.i18n import middleware
from chickenfoot.i18n.middleware import LocaleMiddleware

HEADERS = [
    "",
    "th",
    "lo-LA,lo;q=0.9,en;q=0.5",
    "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5",
    "hy;q=0, ceb",
    "*",
    "zz",
    "en-US,en;q=0.9",
    "not a header at all ;;;",
]
COOKIES = [None, "th", "ceb", "xx", ""]


def _request(accept: str, cookie: str | None) -> HttpRequest:
    request = RequestFactory().get("/api/players/me", HTTP_ACCEPT_LANGUAGE=accept)
    if cookie is not None:
        request.COOKIES["django_language"] = cookie
    return request


def _answer(
    middleware_class: type, accept: str, cookie: str | None, vary: str | None = None
) -> tuple[Any, ...]:
    """The language chosen, ``request.LANGUAGE_CODE``, and the answer's headers (``vary``: the
    view's answer has that Vary already)."""
    request = _request(accept, cookie)

    def view(request: HttpRequest) -> HttpResponse:
        response = HttpResponse("ok")
        if vary is not None:
            response["Vary"] = vary
        return response

    chooser = middleware_class(view)
    with translation.override(None):
        response = chooser(request)
        active = translation.get_language()
    return active, request.LANGUAGE_CODE, response["Content-Language"], response["Vary"]


@pytest.mark.parametrize("cookie", COOKIES)
@pytest.mark.parametrize("accept", HEADERS)
def test_each_choice_is_django_s_the_first_time_and_every_time_after(
    accept: str, cookie: str | None
) -> None:
    # given
    middleware._chosen.clear()
    django_s = _answer(DjangosLocaleMiddleware, accept, cookie)
    # when
    first, again = (_answer(LocaleMiddleware, accept, cookie) for _ in range(2))
    # then
    assert first == again == django_s
    assert list(middleware._chosen) == [(cookie, accept)]


@settings(max_examples=150, deadline=None)
@given(
    accept=st.text(alphabet="abcdefhlnotyz-;=.,*0123456789 ", max_size=40),
    cookie=st.none() | st.sampled_from(COOKIES[1:]),
)
def test_any_header_gets_django_s_choice(accept: str, cookie: str | None) -> None:
    assert _answer(LocaleMiddleware, accept, cookie) == _answer(
        DjangosLocaleMiddleware, accept, cookie
    )


@pytest.mark.parametrize("vary", ["Accept", "Cookie, Accept-Encoding", "accept-language", "*"])
def test_a_vary_the_view_set_is_added_to_as_django_adds_to_it(vary: str) -> None:
    assert _answer(LocaleMiddleware, "th", None, vary) == _answer(
        DjangosLocaleMiddleware, "th", None, vary
    )


def test_what_is_remembered_stays_bounded() -> None:
    # given
    middleware._chosen.clear()
    long = "th," + "en;q=0.1," * 40
    # when
    _answer(LocaleMiddleware, long, None)
    for n in range(middleware.REMEMBERED + 20):
        _answer(LocaleMiddleware, f"th;q=0.{n % 9 + 1},x{n}", None)
    # then
    assert (None, long) not in middleware._chosen
    assert len(middleware._chosen) == middleware.REMEMBERED


def test_a_change_of_the_language_settings_forgets_the_choices() -> None:
    # given
    middleware._chosen.clear()
    assert _answer(LocaleMiddleware, "th", None)[0] == "th"
    # when
    with override_settings(LANGUAGES=[("en", "English"), ("lo", "Lao")]):
        within = _answer(LocaleMiddleware, "th", None)
    # then
    assert within[0] == "en"
    assert _answer(LocaleMiddleware, "th", None)[0] == "th"
