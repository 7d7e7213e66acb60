"""The API's URLs and ``/test/stuck``, a view that sleeps (``STUCK_SECONDS``, default 60)."""

from __future__ import annotations

import os
import time

from django.http import HttpRequest, JsonResponse
from django.urls import include, path


def stuck(request: HttpRequest) -> JsonResponse:
    time.sleep(float(os.environ.get("STUCK_SECONDS", "60")))
    return JsonResponse({"slept": True})


urlpatterns = [path("test/stuck", stuck), path("", include("chickenfoot.urls"))]
