"""Django-level error views (``handler400/403/404/500``): problem JSON, never an HTML page.

They render through the renderer DRF's problem responses use, so a body looks the same byte for
byte whichever layer refused the request.
"""

from __future__ import annotations

import sys
from http import HTTPStatus

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from chickenfoot.outage import database_unreachable
from chickenfoot.problems import (
    PROBLEM_CONTENT_TYPE,
    Problem,
    ProblemJSONRenderer,
    body_too_large_problem,
    database_unavailable_problem,
    internal_error_problem,
)


def render_problem(problem: Problem) -> HttpResponse:
    """The problem as a plain Django response, with its headers (``Retry-After``)."""
    response = HttpResponse(
        ProblemJSONRenderer().render(problem.as_dict()),
        status=problem.status,
        content_type=PROBLEM_CONTENT_TYPE,
    )
    for name, value in problem.headers.items():
        response[name] = value
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):  # Django answers its size limit with a 400
        return render_problem(body_too_large_problem())
    return render_problem(
        Problem(
            status=HTTPStatus.BAD_REQUEST,
            code="bad_request",
            title=_("Bad request"),
            detail=_("The request could not be understood."),
        )
    )


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render_problem(
        Problem(
            status=HTTPStatus.FORBIDDEN,
            code="permission_denied",
            title=_("Permission denied"),
            detail=_("You do not have permission to perform this action."),
        )
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render_problem(
        Problem(
            status=HTTPStatus.NOT_FOUND,
            code="not_found",
            title=_("Not found"),
            detail=_("Nothing is served at %(path)s.") % {"path": request.path},
        )
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """A failure outside DRF's views (Django's pages, the admin, a middleware); Django calls this
    while handling the exception, so ``sys.exc_info()`` is the failure."""
    exc = sys.exc_info()[1]
    if exc is not None and database_unreachable(exc):
        return render_problem(database_unavailable_problem())
    return render_problem(internal_error_problem())
