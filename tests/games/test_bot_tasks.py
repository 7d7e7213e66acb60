"""The bot-turn task on the embedded default: runs, hand-overs, and its limits."""

from __future__ import annotations

from typing import Any

import pytest

from chickenfoot.celery import app as celery_app
from games import tasks
from games.models import Match, Move, Player
from games.services import SeatSpec, match_create, match_start
from games.services.replay import match_replay_verify


@pytest.mark.django_db(transaction=True)
def test_a_bot_run_hands_over_to_fresh_tasks_and_every_move_is_applied_once(
    players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: a task plays at most 40 moves before handing over
    monkeypatch.setattr(tasks, "BOT_MOVES_PER_TASK", 40)
    runs: list[int] = []
    run = tasks.bot_play_turn.run
    monkeypatch.setattr(tasks.bot_play_turn, "run", lambda *a, **kw: runs.append(run(*a, **kw)))
    specs = [SeatSpec(kind="bot", level=lv) for lv in (1, 2, 3)]
    match = match_create(creator=players[0], variant="chickenfoot", seats=specs)

    # when: started (the first task runs eagerly after commit)
    match_start(match_id=match.pk, player=players[0])

    # then: several tasks, none over the cap, and a complete, gap-free, replayable log
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert len(runs) > 1
    assert max(runs) <= 40
    assert sum(runs) == match.moves_played
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.moves_played + 1))
    assert match_replay_verify(match_id=match.pk).ok


def test_the_visibility_timeout_outlasts_every_tasks_time_limit() -> None:
    """A task still running must never be redelivered to a second worker (docs/reliability.md)."""
    conf = celery_app.conf
    celery_app.loader.import_default_modules()
    visibility = conf.broker_transport_options["visibility_timeout"]
    ours = {name: t for name, t in celery_app.tasks.items() if not name.startswith("celery.")}
    assert "games.tasks.bot_play_turn" in ours
    for name, task in ours.items():
        limit = task.time_limit or conf.task_time_limit
        assert limit < visibility, name
    assert (conf.task_soft_time_limit or conf.task_time_limit) > tasks.BOT_RUN_SECONDS


def test_no_task_retries_later_than_a_countdown_may_wait(settings: Any) -> None:
    """A retry is a countdown too: past COUNTDOWN_MAX_SECONDS Redis would hand it out again."""
    celery_app.loader.import_default_modules()
    retrying = {
        name: task
        for name, task in celery_app.tasks.items()
        if not name.startswith("celery.") and getattr(task, "autoretry_for", ())
    }
    assert "games.tasks.clock_expire_task" in retrying
    for name, task in retrying.items():
        if task.retry_backoff:
            longest = getattr(task, "retry_backoff_max", 600)  # Celery's default: 600 s
            assert longest <= settings.COUNTDOWN_MAX_SECONDS, name
        else:
            assert task.default_retry_delay <= settings.COUNTDOWN_MAX_SECONDS, name
