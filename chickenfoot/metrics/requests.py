"""The middleware that counts requests and times them, by the URL pattern's route."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from chickenfoot.metrics.counters import METHODS, REQUEST_SECONDS, REQUESTS

#: The route label of a request no URL pattern matched (a 404, or refused before resolving).
UNMATCHED = "unmatched"

#: (route, method, status) -> the counter's and the histogram's children for it, looked up once:
#: routes, methods and statuses are each a short list, so this stays small.
_children: dict[tuple[str, str, int], tuple[Any, Any]] = {}


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
        method = request.method if request.method in METHODS else "other"
        key = (route_of(request), method, response.status_code)
        children = _children.get(key)
        if children is None:
            route, method, status = key
            children = _children[key] = (
                REQUESTS.labels(route=route, method=method, status=str(status)),
                REQUEST_SECONDS.labels(route=route, method=method),
            )
        children[0].inc()
        children[1].observe(elapsed)
        return response
