"""WSGI entry point: ``chickenfoot.wsgi:application``, for gunicorn or granian
(``python deploy/serve.py``, whose ``REQUEST_TIMEOUT_SECONDS`` puts a request watchdog
around it: chickenfoot/request_watchdog.py). The heap is settled once the application is loaded
(chickenfoot/heap.py)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from chickenfoot import heap
from chickenfoot.request_watchdog import watched

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chickenfoot.settings")

application = watched(get_wsgi_application())
heap.settle()
