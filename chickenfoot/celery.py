"""The Celery app. Its configuration is the ``CELERY_*`` part of Django's settings."""

from __future__ import annotations

import os

from celery import Celery

from chickenfoot import celery_request_id  # noqa: F401 - connects the request id's signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chickenfoot.settings")

app = Celery("chickenfoot")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Count every task's outcome (docs/operations.md, "Metrics").
import chickenfoot.metrics.celery_signals  # noqa: E402, F401
