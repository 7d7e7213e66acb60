"""Celery tasks of the games app. A task takes ids, calls a service, and is idempotent."""

from __future__ import annotations

from celery import shared_task
from django.contrib.auth import get_user_model


@shared_task
def ping() -> str:
    """Answer ``"pong"``: proves a message round-trips through the broker and a worker."""
    return "pong"


@shared_task
def user_count() -> int:
    """How many user accounts the worker's database holds: proves it reads the web's database."""
    return get_user_model().objects.count()
