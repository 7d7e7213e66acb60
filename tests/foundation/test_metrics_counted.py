"""What the metrics count beyond requests and moves (docs/operations.md, "Metrics"): Celery tasks
by outcome, sockets open and their frames, failed finalisations, table score entries, and the
queues' depth read from a Redis of the test's own."""

from __future__ import annotations

import shutil
from datetime import timedelta
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Task
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from prometheus_client import REGISTRY
from rest_framework.test import APIClient

from chickenfoot.asgi import application
from chickenfoot.celery import app as celery_app
from chickenfoot.metrics.endpoint import metrics_text
from games.sweeps import sweeps_run
from games.tasks import ping
from scoring.models import MatchFinalisation
from scoring.services.finalise import finalisation_failed
from scoring.tasks import match_finalise_task
from tests.games.factories import MatchFactory, PlayerFactory, token_for
from tests.games.live import TIMEOUT, next_frame
from tests.processes import RedisServer, stop

TOKEN = "the-counted-test-token"


def sample(name: str, **labels: str) -> float:
    """The sample's value in this process's registry (what ``/metrics`` answers), 0 if none."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


@celery_app.task(name="tests.metrics.fails")
def fails() -> None:
    raise ValueError("a task that fails")


@celery_app.task(name="tests.metrics.retries", bind=True, max_retries=1)
def retries(self: Task, attempt: int = 0) -> int:
    if attempt == 0:
        raise self.retry(args=(1,), countdown=0)
    return attempt


def test_celery_tasks_are_counted_by_name_and_outcome() -> None:
    name = "chickenfoot_celery_tasks_total"
    before = {
        key: sample(name, task=task, outcome=outcome)
        for key, task, outcome in (
            ("ping", "games.tasks.ping", "success"),
            ("fails", "tests.metrics.fails", "failure"),
            ("retry", "tests.metrics.retries", "retry"),
            ("retried", "tests.metrics.retries", "success"),
        )
    }

    ping.apply()
    fails.apply(throw=False)
    retries.apply(throw=False)

    assert sample(name, task="games.tasks.ping", outcome="success") == before["ping"] + 1
    assert sample(name, task="tests.metrics.fails", outcome="failure") == before["fails"] + 1
    assert sample(name, task="tests.metrics.retries", outcome="retry") == before["retry"] + 1
    assert sample(name, task="tests.metrics.retries", outcome="success") == before["retried"] + 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_counts_open_until_it_closes_and_its_frames(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    player = await database_sync_to_async(PlayerFactory)()
    token = await database_sync_to_async(token_for)(player)
    open_before = sample("chickenfoot_sockets_open", socket="me")
    sent_before = sample("chickenfoot_socket_frames_sent_total", socket="me")

    socket = WebsocketCommunicator(
        application, "/ws/me/", headers=[(b"authorization", f"Token {token}".encode())]
    )
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    hello = await next_frame(socket)
    assert hello["type"] == "hello"
    assert sample("chickenfoot_sockets_open", socket="me") == open_before + 1
    assert sample("chickenfoot_socket_frames_sent_total", socket="me") == sent_before + 1

    await socket.disconnect()
    assert sample("chickenfoot_sockets_open", socket="me") == open_before


@pytest.mark.django_db(transaction=True)
def test_a_finalisation_given_up_on_is_counted_once_committed() -> None:
    name = "chickenfoot_finalisations_failed_total"
    before = sample(name)

    match = MatchFactory()
    finalisation_failed(match_id=match.pk, error="the rounds do not add up", give_up=True)
    finalisation_failed(match_id=match.pk, error="a transient error", give_up=False)

    assert sample(name) == before + 1


@pytest.mark.django_db
def test_pending_finalisations_are_counted_at_scrape_time_and_the_sweepers_requeues_by_kind(
    settings: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    settings.RESULTS_STALE_SECONDS = 30
    stale = timezone.now() - timedelta(minutes=5)
    matches = [MatchFactory() for _ in range(3)]
    for match in matches:  # as the move that ends a match leaves them: pending
        MatchFinalisation.objects.create(match=match, queued_at=stale)
    MatchFinalisation.objects.filter(match=matches[2]).update(failed_at=stale)  # given up on
    requeued = sample("chickenfoot_sweeper_requeues_total", kind="match_results")

    text = metrics_text().decode()
    assert "\nchickenfoot_finalisations_pending 2.0\n" in text

    sent: list[Any] = []
    monkeypatch.setattr(match_finalise_task, "apply_async", lambda **kw: sent.append(kw["args"]))
    with django_capture_on_commit_callbacks(execute=True):
        assert sweeps_run()["match_results"] == 2
    assert sorted(sent) == sorted((m.pk,) for m in matches[:2])
    assert sample("chickenfoot_sweeper_requeues_total", kind="match_results") == requeued + 2


@pytest.mark.django_db(transaction=True)
def test_table_score_entries_are_counted() -> None:
    client = APIClient()
    registered = client.post(
        "/api/players", {"username": "scorer", "password": "correct horse battery"}, format="json"
    )
    assert registered.status_code == HTTPStatus.CREATED, registered.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {registered.json()['token']}")
    created = client.post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "play": "table",
            "options": {"rounds": 2},
            "seats": [{"kind": "creator"}, {"kind": "guest", "name": "Bea"}],
        },
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    match = created.json()
    assert match["status"] == "playing", match
    before = sample("chickenfoot_score_entries_total", kind="round")

    entered = client.post(
        f"/api/matches/{match['id']}/rounds/1/scores",
        {
            "version": match["version"],
            "scores": [
                {"seat": 0, "points": 0, "went_out": True},
                {"seat": 1, "points": 25},
            ],
        },
        format="json",
    )

    assert entered.status_code == HTTPStatus.CREATED, entered.content
    assert sample("chickenfoot_score_entries_total", kind="round") == before + 1


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")
@pytest.mark.django_db  # the scrape counts the pending finalisations too
def test_the_queue_depth_is_read_from_redis_at_scrape_time(settings: Any, tmp_path: Path) -> None:
    server = RedisServer(tmp_path)
    server.start()
    try:
        settings.REDIS_URL = server.url
        settings.METRICS_TOKEN = TOKEN
        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        client = redis.Redis.from_url(server.url)
        client.rpush(queue, "one", "two", "three")

        response = APIClient().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")

        assert response.status_code == HTTPStatus.OK
        text = response.content.decode()
        assert f'chickenfoot_celery_queue_depth{{queue="{queue}"}} 3.0' in text
        assert f'chickenfoot_celery_queue_depth{{queue="{settings.BOTS_QUEUE}"}} 0.0' in text

        # a Redis that does not answer leaves the gauge out, never the scrape
        server.kill()
        response = APIClient().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert response.status_code == HTTPStatus.OK
        assert b"chickenfoot_moves" in response.content
        assert b"chickenfoot_celery_queue_depth{" not in response.content
    finally:
        if server.process is not None:
            stop(server.process)
