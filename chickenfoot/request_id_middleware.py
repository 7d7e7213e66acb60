"""Give every HTTP request and every socket its request id (``chickenfoot.request_id``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from chickenfoot.request_id import request_id_from, request_id_var

HEADER = "X-Request-ID"
#: The header as WSGI names it (read from ``META``, without building ``request.headers``).
META_KEY = "HTTP_X_REQUEST_ID"


class RequestIdMiddleware:
    """Take the request's ``X-Request-ID`` (when sane) or make one, keep it for the request's log
    lines and tasks, and send it back on the answer, whatever the answer is.

    First in ``MIDDLEWARE``, so even the problem answer of a middleware below it carries it.
    The id stays set until the answer is sent (``request_finished``), so that Django's own line
    for an answer of 4xx or 5xx, logged once the middleware is done, carries it too.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request.META.get(META_KEY))
        request_id_var.set(request_id)
        response = self.get_response(request)
        response[HEADER] = request_id
        return response


@receiver(request_finished, dispatch_uid="request_id_clear")
def request_id_clear(**_: Any) -> None:
    """The answer is sent: the thread serves no request now."""
    request_id_var.set(None)


class SocketRequestIdMiddleware:
    """The same for a WebSocket connection (ASGI): one id for the connection's lifetime, from its
    ``X-Request-ID`` header when sane."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        given = None
        for name, value in scope.get("headers", ()):
            if name.lower() == b"x-request-id":
                given = value.decode("latin-1")
        request_id = request_id_from(given)
        token = request_id_var.set(request_id)
        try:
            return await self.app(dict(scope, request_id=request_id), receive, send)
        finally:
            request_id_var.reset(token)
