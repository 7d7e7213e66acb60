"""The Content-Security-Policy: on every answer, no inline script anywhere, and the API docs'
pages loosened for their own styles only."""

from __future__ import annotations

import re
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

SITE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/matches/1/",
        "/players/1/",
        "/competitions/1/",
        "/how-to-play/lo/",
        "/api/health",
        "/api/nowhere",
        "/api/matches/1/scores.svg",
        "/admin/login/",
    ],
)
def test_every_answer_carries_the_site_policy(url: str) -> None:
    response = APIClient().get(url)
    assert response.status_code < HTTPStatus.INTERNAL_SERVER_ERROR
    assert directives(response["Content-Security-Policy"]) == directives(SITE_POLICY)


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_api_docs_run_no_inline_script(url: str) -> None:
    response = APIClient().get(url)
    assert response.status_code == HTTPStatus.OK
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'", "'unsafe-inline'"]
    assert policy["worker-src"] == ["'self'", "blob:"]
    page = response.content.decode()
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []


def test_swagger_uis_start_up_script_is_a_file_of_its_own() -> None:
    page = APIClient().get("/api/docs/").content.decode()
    (url,) = (src for src in re.findall(r'<script src="([^"]+)"', page) if "script" in src)
    script = APIClient().get(url.replace("&amp;", "&"))
    assert script.status_code == HTTPStatus.OK
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content
