"""No log line carries a token, a device credential, a password, a hand's tile or a seed.

Registration, log-in (a good one and a bad one), a match against bots and its moves go through
the API with every logger at DEBUG, formatted as the JSON lines of ``LOG_FORMAT=json``; the
captured text is then searched for what must never be there.
"""

from __future__ import annotations

import json
import logging
import re
from http import HTTPStatus

import pytest
from pythonjsonlogger.json import JsonFormatter
from rest_framework.test import APIClient

from chickenfoot.request_id import RequestIdFilter
from games.models import Match
from tests.games.helpers import submit

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple 81"


def hidden_tiles(match: Match) -> set[tuple[int, int]]:
    """Every tile in a hand now (none of them has been played)."""
    match.refresh_from_db()
    return {(a, b) for hand in match.state["hands"] for a, b in hand}


def test_registration_login_and_moves_log_no_secret(caplog: pytest.LogCaptureFixture) -> None:
    # given: every logger at DEBUG, in the JSON lines the workers write
    caplog.handler.setFormatter(JsonFormatter("%(levelname)s %(name)s %(request_id)s %(message)s"))
    caplog.handler.addFilter(RequestIdFilter())
    caplog.set_level(logging.DEBUG)
    client = APIClient()

    # when: a player registers, logs in (once wrongly), creates a match against bots and plays
    registered = client.post(
        "/api/players", {"username": "ada", "password": PASSWORD}, format="json"
    )
    assert registered.status_code == HTTPStatus.CREATED, registered.content
    refused = client.post(
        "/api/auth/token", {"username": "ada", "password": PASSWORD + "x"}, format="json"
    )
    assert refused.status_code >= HTTPStatus.BAD_REQUEST
    logged_in = client.post(  # as a known device: with the credential registering gave
        "/api/auth/token",
        {
            "username": "ada",
            "password": PASSWORD,
            "device_credential": registered.json()["device_credential"],
        },
        format="json",
    )
    assert logged_in.status_code in (HTTPStatus.OK, HTTPStatus.CREATED), logged_in.content
    tokens = {registered.json()["token"], logged_in.json()["token"]}
    tokens |= {registered.json()["device_credential"], logged_in.json()["device_credential"]}
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {logged_in.json()['token']}")
    created = client.post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "bot", "level": 1}]},
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    match_id = created.json()["id"]
    assert client.post(f"/api/matches/{match_id}/start").status_code == HTTPStatus.OK
    played = 0
    for _ in range(6):
        seen = client.get(f"/api/matches/{match_id}").json()
        if seen["status"] != "playing" or seen["state"]["turn"] != seen["your_seat"]:
            break
        legal = client.get(f"/api/matches/{match_id}/legal-moves").json()
        moved = submit(client, match_id, {**legal["moves"][0], "version": legal["version"]})
        assert moved.status_code == HTTPStatus.CREATED, moved.content
        played += 1
    assert played, "no move was played: the test would prove little"

    # then: the requests logged, and nothing secret
    match = Match.objects.get(pk=match_id)
    text = caplog.text
    assert text, "nothing was logged: the test would prove nothing"
    for line in text.splitlines():
        json.loads(line)  # every line is one JSON object
    for token in tokens:
        assert token not in text
    assert PASSWORD not in text
    assert match.seed not in text
    assert '"hands"' not in text
    assert '"boneyard"' not in text
    for a, b in hidden_tiles(match):
        # a tile as the engine, JSON or a repr writes one, alone or in a list of tiles (a task's
        # arguments, "[1, 6]", are a match id and a version: not a tile)
        for shape in (
            f'tile": [{a}, {b}]',
            f"tile': ({a}, {b})",
            f"tile=({a}, {b})",
            f"tile=[{a}, {b}]",
            f"[[{a}, {b}]",
            f", [{a}, {b}]",
            f"(({a}, {b})",
            f", ({a}, {b})",
        ):
            assert shape not in text, shape
        # and as a short name ("1-6"), not inside an id or a number
        assert not re.search(rf"(?<![\w.:-]){a}[-|]{b}(?![\w.:-])", text), (a, b)
