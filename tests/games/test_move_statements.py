"""What a move costs the database: a move within a round reads its match once (a column of it
read again on the way would be one statement more on every move)."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Match, Player
from tests.games.helpers import submit


def _reads_of_matches(statements: list[str]) -> list[str]:
    """The statements that read from the matches' table (the first table after FROM)."""
    return [
        sql
        for sql in statements
        if sql.startswith("SELECT")
        and "games_match" in sql.split(" FROM ", 1)[-1].split()[0].replace('"', "")
    ]


@pytest.mark.django_db
def test_a_move_within_a_round_reads_its_match_once(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=2)
    turn = match.state["turn"]
    legal = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()
    with CaptureQueriesContext(connection) as captured:
        answer = submit(clients[turn], match.pk, {**legal["moves"][0], "version": legal["version"]})
    assert answer.status_code == HTTPStatus.CREATED, answer.content
    assert not any(
        event["type"] in ("round_ended", "match_ended") for event in answer.json()["move"]["events"]
    )
    reads = _reads_of_matches([q["sql"] for q in captured.captured_queries])
    assert len(reads) == 1, reads
