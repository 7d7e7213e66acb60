"""A person's bot is never behind the matches of bots only (CI: ``CELERY_WORKER_EXPECTED=1``).

Like the crash tests (``test_reliability_worker.py``), this starts its own redis-server on a free
loopback port and its own workers on the database the test writes to, and stops only those, by
PID: first the main queue's worker alone, then the bots' queue's (docs/reliability.md, "Bots
under load").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress

import pytest
import redis
from django.conf import settings

from chickenfoot.problems import ConflictError
from games import engine
from games.models import Match, Move, Player
from games.services import SeatSpec, match_create, match_start, move_submit
from tests.conftest import broker_at
from tests.processes import WORKER_MARKS, Stack, own_redis_and_celery, wait_for

pytestmark = WORKER_MARKS

#: Matches of strong bots only, two for each of three players (the most each may have is 3).
LOAD = 6


@pytest.fixture
def stack() -> Iterator[Stack]:
    with own_redis_and_celery() as own:
        yield own


def moves_of(matches: list[Match]) -> list[int]:
    by_pk = dict(
        Match.objects.filter(pk__in=[m.pk for m in matches]).values_list("pk", "moves_played")
    )
    return [by_pk[m.pk] for m in matches]


def test_a_persons_bot_answers_while_the_matches_of_bots_only_wait_on_their_own_queue(
    players: list[Player], stack: Stack
) -> None:
    # given: the main queue's worker, alone; matches of strong bots only, started
    stack.celery.worker("main", queues=settings.CELERY_TASK_DEFAULT_QUEUE)
    load = []
    with broker_at(stack.redis.url):
        for index in range(LOAD):
            creator = players[index % 3]
            specs = [SeatSpec(kind="bot", level=4)] * 4
            match = match_create(creator=creator, variant="mexican_train", seats=specs)
            match_start(match_id=match.pk, player=creator)
            load.append(match)

        # when: the fourth player, at a table with a bot, plays whenever it is their turn
        human = players[3]
        specs = [SeatSpec(kind="creator"), SeatSpec(kind="bot", level=2)]
        table = match_create(creator=human, variant="chickenfoot", seats=specs)
        match_start(match_id=table.pk, player=human)

        def bot_answered() -> bool:
            table.refresh_from_db()
            if (
                table.status != Match.Status.PLAYING
                or Move.objects.filter(match=table, seat=1).count() >= 2
            ):
                return True
            if table.state["turn"] == 0:
                move = engine.legal_moves(engine.from_json(table.state), 0)[0].to_json()
                with suppress(ConflictError, engine.NotYourTurn):  # the bot moved meanwhile
                    move_submit(
                        match_id=table.pk, player=human, move=move, expected_version=table.version
                    )
            return False

        # then: the bot answers them (30 s bounds a liveness check, not a speed), while the
        # matches of bots only have not moved: their turns wait on the bots' queue
        wait_for(bot_answered, 30, "the bot at the person's table to move")
    assert Move.objects.filter(match=table, seat=1).exists()
    assert moves_of(load) == [0] * LOAD
    broker = redis.Redis.from_url(stack.redis.url)
    assert broker.llen(settings.BOTS_QUEUE) == LOAD
    assert broker.llen(settings.CELERY_TASK_DEFAULT_QUEUE) == 0

    # when: the bots' worker starts
    stack.celery.worker("bots", queues=settings.BOTS_QUEUE)

    # then: the matches of bots only play
    wait_for(lambda: min(moves_of(load)) > 0, 60, "every match of bots only to move")
