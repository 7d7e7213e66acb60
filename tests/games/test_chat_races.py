"""Phrases said at once, on PostgreSQL: each gets its own chat seq, 1, 2, 3… without a gap,
under the match's row lock (games/chat/services.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http import HTTPStatus

import pytest
from django.db import connection, connections

from games.chat.models import ChatMessage
from games.models import Match, Player
from tests.games.conftest import client_for

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]

#: Phrases each seat says at the same moment.
EACH = 3


def test_phrases_said_at_once_each_get_a_seq_without_gaps(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    speakers = [p for p in players[:3] for _ in range(EACH)]
    barrier = threading.Barrier(len(speakers))
    statuses: list[int] = [0] * len(speakers)

    def run(i: int) -> None:
        client = client_for(speakers[i])
        try:
            barrier.wait(timeout=10)
            answer = client.post(
                f"/api/matches/{match.pk}/chat", {"phrase": "hello"}, format="json"
            )
            statuses[i] = answer.status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(speakers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert statuses == [HTTPStatus.CREATED] * len(speakers)
    rows = list(ChatMessage.objects.filter(match=match).order_by("seq").values("seq", "seat"))
    assert [r["seq"] for r in rows] == list(range(1, len(speakers) + 1))
    assert sorted(r["seat"] for r in rows) == sorted([0, 1, 2] * EACH)
