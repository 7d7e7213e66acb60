"""A bot level's first use from several transactions at once makes one player (PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from games.models import Player, Seat
from games.services import SeatSpec, bot_player, match_create
from tests.games.factories import PlayerFactory
from tests.races import race

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrent inserts need PostgreSQL (CI runs this)",
    ),
    pytest.mark.django_db(transaction=True),
]

THREADS = 4


def test_the_first_bot_seats_of_a_level_made_at_once_sit_one_player() -> None:
    # given: people creating matches with a level-3 bot, no level-3 player yet
    creators = [PlayerFactory(user__username=f"c{i}") for i in range(THREADS)]
    specs = [SeatSpec(kind="creator"), SeatSpec(kind="bot", level=3)]

    def create(creator: Player) -> Callable[[], Any]:
        def call() -> int:
            with transaction.atomic():
                return match_create(creator=creator, variant="chickenfoot", seats=specs).pk

        return call

    # when: they all do it at once
    answers = race([create(c) for c in creators], keep_errors=True)

    # then: every match was made, and every bot seat sits the one level-3 player
    assert all(isinstance(a, int) for a in answers), answers
    bots = Player.objects.filter(kind="bot", bot_level=3)
    assert bots.count() == 1
    seated = set(
        Seat.objects.filter(match_id__in=answers, position=1).values_list("player_id", flat=True)
    )
    assert seated == {bots.get().pk}
    assert bot_player(level=3).pk == bots.get().pk
