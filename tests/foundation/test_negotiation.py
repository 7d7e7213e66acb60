"""chickenfoot/negotiation.py: DRF's content negotiation, its choices remembered."""

from __future__ import annotations

import pytest
from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from chickenfoot import negotiation
from chickenfoot.negotiation import RememberingNegotiation
from chickenfoot.renderers import JSONRenderer, SVGRenderer

ACCEPTS = [
    "*/*",
    "application/json",
    "application/json; indent=4",
    "image/svg+xml, application/json;q=0.5",
    "image/*",
    "text/html, */*;q=0.1",
    "application/json;q=0.2, image/svg+xml;q=0.9",
]


def _request(accept: str, query: str = "") -> Request:
    return Request(APIRequestFactory().get(f"/x{query}", HTTP_ACCEPT=accept))


def _choice(negotiator: DefaultContentNegotiation, accept: str, query: str = "") -> tuple:
    renderers: list[BaseRenderer] = [JSONRenderer(), SVGRenderer()]
    renderer, media_type = negotiator.select_renderer(_request(accept, query), renderers)
    return renderer.__class__, media_type


@pytest.mark.parametrize("accept", ACCEPTS)
def test_each_choice_is_drf_s_the_first_time_and_every_time_after(accept: str) -> None:
    # given
    negotiation._chosen.clear()
    drf = _choice(DefaultContentNegotiation(), accept)
    # when
    first, again = (_choice(RememberingNegotiation(), accept) for _ in range(2))
    # then
    assert first == again == drf
    assert len(negotiation._chosen) == 1


def test_a_format_in_the_url_and_a_refusal_are_worked_out_each_time() -> None:
    # given
    negotiation._chosen.clear()
    # when
    by_format = _choice(RememberingNegotiation(), "*/*", "?format=svg")
    with pytest.raises(exceptions.NotAcceptable):
        _choice(RememberingNegotiation(), "text/csv")
    # then
    assert by_format == _choice(DefaultContentNegotiation(), "*/*", "?format=svg")
    assert by_format[0] is SVGRenderer
    assert negotiation._chosen == {}


def test_what_clients_send_stays_bounded() -> None:
    # given
    negotiation._chosen.clear()
    # when: more distinct headers than are kept, and one too long to keep
    for n in range(negotiation.REMEMBERED + 50):
        _choice(RememberingNegotiation(), f"application/json; x={n}")
    long_header = ", ".join(["application/json", *(f"x/y{n}" for n in range(60))])
    assert len(long_header) > negotiation.LONGEST
    chosen = _choice(RememberingNegotiation(), long_header)
    # then
    assert len(negotiation._chosen) == negotiation.REMEMBERED
    assert chosen == _choice(DefaultContentNegotiation(), long_header)
    negotiation._chosen.clear()
