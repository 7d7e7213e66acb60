"""The middleware that counts requests and times them, by the URL pattern's route."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from chickenfoot.metrics.counters import METHODS, REQUEST_SECONDS, REQUESTS

#: The route label of a request no URL pattern matched (a 404, or refused before resolving).
UNMATCHED = "unmatched"


def route_of(request: HttpRequest) -> str:
    """The matched pattern's route (``api/matches/<int:match_id>/moves``), never the path."""
    match = getattr(request, "resolver_match", None)
    route = getattr(match, "route", None) if match is not None else None
    return f"/{route}" if route else UNMATCHED


class RequestMetricsMiddleware:
    """Counts each answer (``chickenfoot_http_requests_total``) and its latency
    (``chickenfoot_http_request_duration_seconds``). First in ``MIDDLEWARE``, so the time is
    every other middleware's too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        route = route_of(request)
        method = request.method if request.method in METHODS else "other"
        REQUESTS.labels(route=route, method=method, status=str(response.status_code)).inc()
        REQUEST_SECONDS.labels(route=route, method=method).observe(elapsed)
        return response
