"""Bot turns through the real broker and worker (CI: ``CELERY_WORKER_EXPECTED=1``)."""

from __future__ import annotations

import time

from chickenfoot.celery import app as celery_app
from games import engine
from games.models import Match, Move, Player
from games.services import SeatSpec, match_create, match_start, move_submit
from tests.processes import WORKER_MARKS

pytestmark = WORKER_MARKS


def bot_seats_moved(match: Match) -> set[int]:
    return set(Move.objects.filter(match=match).values_list("seat", flat=True)) - {0}


def test_the_worker_plays_the_bots_after_a_human_move(players: list[Player]) -> None:
    # given: a human and two bots
    assert celery_app.conf.task_always_eager is False
    specs = [SeatSpec("creator"), SeatSpec("bot", 1), SeatSpec("bot", 2)]
    match = match_create(creator=players[0], variant="mexican_train", seats=specs)
    match_start(match_id=match.pk, player=players[0])

    # when: the human moves whenever it is their turn; the worker plays the bots in between
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING or bot_seats_moved(match) == {1, 2}:
            break
        if match.state["turn"] == 0:
            state = engine.from_json(match.state)
            move = engine.legal_moves(state, 0)[0].to_json()
            move_submit(
                match_id=match.pk, player=players[0], move=move, expected_version=match.version
            )
        else:
            time.sleep(0.05)

    # then: both bots have moved, through the worker
    assert bot_seats_moved(match) == {1, 2}
