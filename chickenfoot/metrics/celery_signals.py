"""Celery tasks counted by name and outcome (``chickenfoot_celery_tasks_total``), from Celery's
signals, in whichever process runs them (a worker; the web process on the embedded default)."""

from __future__ import annotations

from typing import Any

from celery.signals import task_failure, task_retry, task_success

from chickenfoot.metrics.counters import TASKS


def _name(sender: Any) -> str:
    return str(getattr(sender, "name", None) or "unknown")


@task_success.connect
def _on_success(sender: Any = None, **_: Any) -> None:
    TASKS.labels(task=_name(sender), outcome="success").inc()


@task_failure.connect
def _on_failure(sender: Any = None, **_: Any) -> None:
    TASKS.labels(task=_name(sender), outcome="failure").inc()


@task_retry.connect
def _on_retry(sender: Any = None, **_: Any) -> None:
    TASKS.labels(task=_name(sender), outcome="retry").inc()
