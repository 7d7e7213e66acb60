"""Tasks run under the request id of the request that sent them (chickenfoot/celery_request_id.py).

Eagerly here, as on the embedded default: the bot turn a move sets off logs under the move's
``X-Request-ID``. tests/games/test_request_id_worker.py shows the same on a real worker.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

import pytest

from chickenfoot.request_id import RequestIdFilter, request_id_current
from games import engine
from games.models import Match, Player
from games.services import SeatSpec, match_create, match_start
from tests.games.conftest import client_for
from tests.games.helpers import submit

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_eager_bot_turn_logs_under_the_move_s_request_id(
    players: list[Player], caplog: pytest.LogCaptureFixture
) -> None:
    # given: a human and a bot, the human to move
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("bot", 1)]
    )
    match_start(match_id=match.pk, player=players[0])
    human = client_for(players[0])
    caplog.handler.addFilter(RequestIdFilter())

    # when: the human moves until the bot has had a turn, each move with a request id of its own
    bot_lines = []
    for number in range(40):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        move = engine.legal_moves(engine.from_json(match.state), 0)[0].to_json()
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="games.tasks"):
            response = submit(
                human, match.pk, {**move, "version": match.version}, HTTP_X_REQUEST_ID=f"m-{number}"
            )
        assert response.status_code == HTTPStatus.CREATED, response.content
        bot_lines = [r for r in caplog.records if "bot moves played" in r.getMessage()]
        if bot_lines:
            break

    # then: the bot's turn, run in the request, logged under that request's id
    assert bot_lines, "no move handed the turn to the bot"
    assert {r.request_id for r in bot_lines} == {f"m-{number}"}  # type: ignore[attr-defined]
    assert request_id_current() is None
