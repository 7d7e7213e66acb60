"""The end-of-match task through the real broker and worker (CI: ``CELERY_WORKER_EXPECTED=1``)."""

from __future__ import annotations

import time

from chickenfoot.celery import app as celery_app
from games.models import Match, Player
from games.services import SeatSpec, match_create, match_start
from scoring.models import MatchFinalisation, MatchResult, Rating
from tests.processes import WORKER_MARKS

pytestmark = WORKER_MARKS


def test_the_worker_finalises_an_all_bot_match(players: list[Player]) -> None:
    # given: an all-bot match, started (the worker plays it out, then the end-of-match task runs)
    assert celery_app.conf.task_always_eager is False
    specs = [SeatSpec("bot", 1), SeatSpec("bot", 2), SeatSpec("bot", 3)]
    match = match_create(
        creator=players[0], variant="mexican_train", seats=specs, options={"rounds": 2}
    )
    match_start(match_id=match.pk, player=players[0])

    # when: we wait for the worker
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        # The move that ends the match leaves its marker pending; the task's commit finalises it.
        written = MatchFinalisation.objects.filter(
            match_id=match.pk, finalised_at__isnull=False, engine_agreed__isnull=False
        )
        if written.exists():
            break
        time.sleep(0.1)

    # then: the results and ratings are written, agreeing with the engine
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    marker = MatchFinalisation.objects.get(match_id=match.pk)
    assert marker.engine_agreed
    places = dict(MatchResult.objects.filter(match=match).values_list("seat", "place"))
    assert places == {row["seat"]: row["place"] for row in match.standings}
    assert Rating.objects.filter(variant="mexican_train").count() == 3
