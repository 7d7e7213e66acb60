"""Redis out of reach: no endpoint answers a 5xx but the documented 503s (a socket ticket, and
health saying the broker is down); the request limits fail open. docs/reliability.md, "Redis
down", has the matrix these tests produce.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest

from games.models import Match, Player
from tests.games.conftest import client_for
from tests.games.schema_check import openapi
from tests.processes import redis_cache, refusing_port

pytestmark = pytest.mark.django_db


def test_a_ticket_answers_503_cache_unavailable_with_retry_after(
    settings: Any, started_match: Any, players: list[Player], caplog: pytest.LogCaptureFixture
) -> None:
    match: Match = started_match("chickenfoot", 2)
    with refusing_port() as port:
        settings.CACHES = redis_cache(f"redis://127.0.0.1:{port}/0")

        response = client_for(players[0]).post(f"/api/matches/{match.pk}/ticket")

    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response["Retry-After"] == "5"
    body = response.json()
    assert (body["code"], body["title"], body["status"]) == (
        "cache_unavailable",
        "Cache unavailable",
        503,
    )
    assert str(port) not in response.content.decode()  # where Redis is: in the log only
    logged = "The shared cache cannot be reached: ConnectionError: Error 111 connecting to"
    assert f"{logged} 127.0.0.1:{port}" in caplog.text


def test_the_ticket_documents_its_503_and_retry_after() -> None:
    operation = openapi()["paths"]["/api/matches/{match_id}/ticket"]["post"]
    unavailable = operation["responses"]["503"]

    examples = unavailable["content"]["application/problem+json"]["examples"]
    codes = {example["value"]["code"] for example in examples.values()}
    assert codes == {"cache_unavailable", "database_unavailable"}
    assert "Retry-After" in unavailable["headers"]
