"""The OpenAPI schema generates cleanly and is served with its Swagger UI."""

from __future__ import annotations

import re
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient


def test_schema_generates_without_warnings_and_validates(tmp_path: Path) -> None:
    # --fail-on-warn turns every warning or error of the generator into a failure.
    target = tmp_path / "schema.yaml"

    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(target))

    assert target.read_text().startswith("openapi: 3.1.0")


def _keys(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from _keys(value)
    elif isinstance(node, list):
        for item in node:
            yield from _keys(item)


def test_every_nullable_is_written_the_openapi_3_1_way() -> None:
    """OpenAPI 3.1 has no ``nullable`` (a validator ignores it and refuses the null): a value
    that may be null says so in its ``type`` or with a ``{type: "null"}`` alternative."""
    schema = SchemaGenerator().get_schema(request=None, public=True)

    assert schema["openapi"] == "3.1.0"
    assert [value for key, value in _keys(schema) if key == "nullable"] == []
    page = schema["components"]["schemas"]["PaginatedHistoryRowList"]["properties"]
    assert page["next"]["type"] == ["string", "null"]
    assert page["previous"]["type"] == ["string", "null"]


@pytest.mark.django_db
def test_schema_is_served_as_json_to_anyone(api_client: APIClient) -> None:
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/json")

    assert response.status_code == HTTPStatus.OK
    schema = response.json()
    assert schema["openapi"] == "3.1.0"
    assert schema["info"]["title"] == "Chickenfoot API"
    health = schema["paths"]["/api/health"]["get"]
    # its own answers, and those any operation may get (games/api/schema_hooks.py)
    assert set(health["responses"]) == {"200", "503", "405", "406", "500"}
    assert health["responses"]["200"]["content"]["application/json"]["examples"]


@pytest.mark.django_db
def test_swagger_ui_is_served_to_anyone(api_client: APIClient) -> None:
    response = api_client.get("/api/docs/")

    assert response.status_code == HTTPStatus.OK
    assert b"swagger-ui" in response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "marker"), [("/api/docs/", "swagger-ui"), ("/api/redoc/", "redoc")]
)
def test_api_docs_pages_need_no_internet(api_client: APIClient, url: str, marker: str) -> None:
    """Swagger UI and ReDoc load their scripts from the project's static files, never a CDN."""
    from django.contrib.staticfiles import finders

    response = api_client.get(url)

    assert response.status_code == HTTPStatus.OK
    page = response.content.decode()
    assert marker in page.lower()
    assert "cdn" not in page.lower()
    assert "https://" not in page
    scripts = re.findall(r'src="/static/([^"]+)"', page)
    assert scripts
    for script in scripts:
        assert finders.find(script), f"{script} is not among the static files"
