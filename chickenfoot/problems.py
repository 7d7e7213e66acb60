"""Every API error as an RFC 9457 problem document (``application/problem+json``).

``problem_exception_handler`` is DRF's ``EXCEPTION_HANDLER``: it renders DRF's exceptions, the
engine's ``EngineError`` family, the project's ``ProblemError`` family, Django's ``Http404`` /
``PermissionDenied`` / ``ValidationError`` / ``RequestDataTooBig`` (413), a database that cannot be
reached (503 with ``Retry-After``), and, as a 500 without a traceback, anything else.
docs/errors.md lists the problem types.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from chickenfoot.i18n.engine_text import localized
from chickenfoot.metrics.counters import REFUSALS
from chickenfoot.outage import database_unreachable
from chickenfoot.problem_types import PROBLEM_TYPE_BASE, problem_type  # noqa: F401
from chickenfoot.renderers import JSONRenderer
from games.engine.errors import EngineError, RuleViolation

logger = logging.getLogger(__name__)

#: A title or detail: text, a lazy translation (a class's ``title``), or an engine ``Text``
#: (translated as the problem is rendered).
StrOrPromise = str | Promise

PROBLEM_CONTENT_TYPE = "application/problem+json"

#: What a problem repeats back of a request, at most: a body of 50,000 bad keys is answered with
#: the first few and a count of the rest, not with all of them.
MAX_LISTED = 20  # fields under ``errors``, and items of any other list member
MAX_MESSAGES = 5  # messages for one field
MAX_REPEATED_CHARS = 200  # a field name, a message, a string member
MAX_DETAIL_CHARS = 1000  # ``detail``

# Titles for DRF's exception codes; anything else falls back to the HTTP status phrase.
_TITLES: dict[str, StrOrPromise] = {
    "invalid": gettext_lazy("Invalid input"),
    "parse_error": gettext_lazy("Malformed request"),
    "authentication_failed": gettext_lazy("Authentication failed"),
    "not_authenticated": gettext_lazy("Not authenticated"),
    "unsupported_auth_scheme": gettext_lazy("Unsupported authorization scheme"),
    "permission_denied": gettext_lazy("Permission denied"),
    "not_found": gettext_lazy("Not found"),
    "method_not_allowed": gettext_lazy("Method not allowed"),
    "not_acceptable": gettext_lazy("Not acceptable"),
    "unsupported_media_type": gettext_lazy("Unsupported media type"),
    "throttled": gettext_lazy("Too many requests"),
    "internal_error": gettext_lazy("Internal server error"),
}


def _title_for(code: str, status: int) -> StrOrPromise:
    if code in _TITLES:
        return _TITLES[code]
    try:
        return _(HTTPStatus(status).phrase)
    except ValueError:
        return code.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Problem:
    """One problem document, before rendering."""

    status: int
    code: str
    title: StrOrPromise
    detail: StrOrPromise
    rule: str | None = None
    errors: dict[str, list[str]] | None = None
    #: The rule id each field of ``errors`` broke, when several fields are wrong and one broke a
    #: rule (``{"options.spinner_arms": "CF-SPINNER"}``).
    rules: dict[str, str] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    #: How many fields (and list items) it repeats back at most: ``MAX_LISTED``, unless the
    #: problem names more on purpose (every bad row of an uploaded file).
    max_listed: int = MAX_LISTED

    def as_dict(self) -> dict[str, Any]:
        """The JSON body. The standard members win over any ``extra`` member of the same name.

        What repeats the request back is capped (``max_listed``, ``MAX_MESSAGES``,
        ``MAX_REPEATED_CHARS``, ``MAX_DETAIL_CHARS``), whoever built the problem. ``title``,
        ``detail`` and messages are given in the active language (lazy translations and the
        engine's messages are translated here).
        """
        limit = self.max_listed
        body: dict[str, Any] = {
            name: capped_errors(value, limit) if name == "errors" else _capped(value, limit)
            for name, value in self.extra.items()
        }
        body.update(
            type=problem_type(self.code),
            title=str(localized(self.title)),
            status=self.status,
            detail=shorten(str(localized(self.detail)), MAX_DETAIL_CHARS),
            code=self.code,
        )
        if self.rule:
            body["rule"] = self.rule
        if self.errors is not None:
            body["errors"] = capped_errors(self.errors, limit)
        if self.rules:
            body["rules"] = _capped(self.rules, limit)
        return body


def shorten(text: str, limit: int = MAX_REPEATED_CHARS) -> str:
    """``text``, or its first ``limit`` characters and how many more there were."""
    if len(text) <= limit:
        return text
    return _("%(start)s… (%(more)s more characters)") % {
        "start": text[:limit],
        "more": f"{len(text) - limit:,}",
    }


def and_more(items: list[str], total: int) -> str:
    """``"a, b, c"``, or ``"a, b, c and 49,997 more"`` when ``total`` counts more than listed."""
    listed = ", ".join(items)
    if total > len(items):
        return _("%(listed)s and %(more)s more") % {
            "listed": listed,
            "more": f"{total - len(items):,}",
        }
    return listed


def capped_errors(errors: Any, limit: int = MAX_LISTED) -> Any:
    """``errors`` with at most ``limit`` fields of at most ``MAX_MESSAGES`` messages, each
    name and message shortened. Idempotent."""
    if not isinstance(errors, Mapping):
        return _capped(errors, limit)
    out: dict[str, list[str]] = {}
    for name, messages in list(errors.items())[:limit]:
        listed = [shorten(str(localized(m))) for m in list(messages)[:MAX_MESSAGES]]
        if len(messages) > MAX_MESSAGES:
            listed.append(_("… and %(more)s more.") % {"more": f"{len(messages) - MAX_MESSAGES:,}"})
        out[shorten(str(name))] = listed
    return out


def _capped(value: Any, limit: int = MAX_LISTED) -> Any:
    """A member other than ``errors``: lists cut to ``limit`` items, strings shortened."""
    if isinstance(value, str | Promise):
        return shorten(str(localized(value)))
    if isinstance(value, list | tuple):
        return [_capped(item, limit) for item in value[:limit]]
    if isinstance(value, Mapping):
        return {shorten(str(k)): _capped(v, limit) for k, v in list(value.items())[:limit]}
    return value


class ProblemError(Exception):
    """Base of the errors services raise; rendered as a problem with these members.

    ``extra`` is merged into the body, e.g. ``ConflictError("Stale move", extra={"current_version":
    7})``; ``headers`` go on the response (``Retry-After``). Subclass it (setting ``status``,
    ``code``, ``title``) or pass them when raising.
    """

    status: int = HTTPStatus.BAD_REQUEST
    code: str = "bad_request"
    title: StrOrPromise = gettext_lazy("Bad request")
    #: How many fields it repeats back at most (``Problem.max_listed``).
    max_listed: int = MAX_LISTED

    def __init__(
        self,
        detail: StrOrPromise | None = None,
        *,
        status: int | None = None,
        code: str | None = None,
        title: StrOrPromise | None = None,
        extra: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code
        if title is not None:
            self.title = title
        self.detail = detail or self.title
        self.extra = dict(extra or {})
        self.headers = dict(headers or {})
        super().__init__(self.detail)


class ConflictError(ProblemError):
    """The request conflicts with the resource's current state (stale version, duplicate)."""

    status = HTTPStatus.CONFLICT
    code = "conflict"
    title = gettext_lazy("Conflict")


class ForbiddenError(ProblemError):
    """The caller is authenticated but may not do this."""

    status = HTTPStatus.FORBIDDEN
    code = "forbidden"
    title = gettext_lazy("Forbidden")


class NotFoundError(ProblemError):
    """The resource does not exist (or the caller may not know that it does)."""

    status = HTTPStatus.NOT_FOUND
    code = "not_found"
    title = gettext_lazy("Not found")


class InvalidInput(ProblemError):
    """400 ``invalid``, as for a serializer's errors: every bad field in ``errors``, and, for the
    fields that broke a rule, its id in ``rules``. For a service that checks more than the
    serializer did, so that both are answered at once."""

    code = "invalid"
    title = _TITLES["invalid"]

    def __init__(
        self, errors: dict[str, list[str]], *, rules: Mapping[str, str] | None = None
    ) -> None:
        extra: dict[str, Any] = {"errors": errors}
        if rules:
            extra["rules"] = dict(rules)
        super().__init__(errors_summary(errors), extra=extra)


class InvalidHeader(ProblemError):
    """A request header whose value is not one the API takes; ``errors`` names the header."""

    code = "invalid_header"
    title = gettext_lazy("Invalid header")

    def __init__(self, header: str, message: str) -> None:
        super().__init__(
            _("%(header)s: %(message)s") % {"header": header, "message": message},
            extra={"errors": {header: [message]}},
        )


def body_too_large_problem() -> Problem:
    """413: the body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE``; it was not read."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return Problem(
        status=HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
        code="body_too_large",
        title=_("Body too large"),
        detail=_("The request body is larger than the %(limit)s bytes the server accepts.")
        % {"limit": f"{limit:,}"},
    )


def database_unavailable_problem() -> Problem:
    """503: the database cannot be reached (``chickenfoot.outage``); try again later."""
    seconds = settings.DATABASE_RETRY_AFTER_SECONDS
    return Problem(
        status=HTTPStatus.SERVICE_UNAVAILABLE,
        code="database_unavailable",
        title=_("Database unavailable"),
        detail=_("The database cannot be reached right now; try again in %(seconds)s seconds.")
        % {"seconds": seconds},
        headers={"Retry-After": str(seconds)},
    )


class ProblemJSONRenderer(JSONRenderer):
    """JSON, announced as ``application/problem+json``."""

    media_type = PROBLEM_CONTENT_TYPE
    format = "problem+json"


def flatten_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF validation detail as ``{"field": [messages]}``; nested fields join with dots."""
    out: dict[str, list[str]] = {}

    def add(key: str, message: Any) -> None:
        out.setdefault(key or api_settings.NON_FIELD_ERRORS_KEY, []).append(str(message))

    def walk(node: Any, path: str) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if path and key == api_settings.NON_FIELD_ERRORS_KEY:
                    walk(value, path)  # a nested field's own errors (a list too short) are its
                else:
                    walk(value, f"{path}.{key}" if path else str(key))
        elif isinstance(node, list | tuple):
            for index, item in enumerate(node):
                if isinstance(item, Mapping | list | tuple):
                    walk(item, f"{path}.{index}" if path else str(index))
                else:
                    add(path, item)
        else:
            add(path, node)

    walk(detail, prefix)
    return out


def errors_summary(errors: dict[str, list[str]]) -> str:
    """One sentence for ``detail`` from field errors: the one message, or the fields named (the
    first ``MAX_LISTED``, and how many more)."""
    if len(errors) == 1:
        ((name, messages),) = errors.items()
        if len(messages) == 1:
            message = shorten(str(localized(messages[0])))
            if name == api_settings.NON_FIELD_ERRORS_KEY:
                return message
            return _("%(field)s: %(message)s") % {"field": shorten(name), "message": message}
    names = [shorten(name) for name in list(errors)[:MAX_LISTED]]
    return _("Invalid input in: %(fields)s.") % {"fields": and_more(names, len(errors))}


def _from_validation(errors: dict[str, list[str]]) -> Problem:
    return Problem(
        status=HTTPStatus.BAD_REQUEST,
        code="invalid",
        title=_TITLES["invalid"],
        detail=errors_summary(errors),
        errors=errors,
    )


def _from_api_exception(exc: exceptions.APIException) -> Problem:
    if isinstance(exc, exceptions.ValidationError):
        return _from_validation(flatten_errors(exc.detail))
    headers: dict[str, str] = {}
    if auth_header := getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = auth_header
    if (wait := getattr(exc, "wait", None)) is not None:
        headers["Retry-After"] = str(int(wait))
    code = exc.get_codes() if isinstance(exc.detail, str) else exc.default_code
    code = code if isinstance(code, str) else exc.default_code
    return Problem(
        status=exc.status_code,
        code=code,
        title=getattr(exc, "title", None) or _title_for(code, exc.status_code),
        detail=str(exc.detail),
        extra=getattr(exc, "extra", None) or {},
        headers=headers,
    )


def problem_from_exception(exc: Exception) -> Problem | None:
    """The problem ``exc`` stands for, or ``None`` when it is unexpected (a server error)."""
    if isinstance(exc, ProblemError):
        return Problem(
            status=int(exc.status),
            code=exc.code,
            title=exc.title,
            detail=exc.detail,
            extra=exc.extra,
            headers=exc.headers,
            max_listed=exc.max_listed,
        )
    if isinstance(exc, EngineError):
        return Problem(
            status=exc.status,
            code=exc.code,
            title=getattr(exc, "title", None) or exc.code.replace("_", " ").capitalize(),
            detail=exc.detail,
            rule=exc.rule,
            errors=exc.errors,
            rules=exc.rules,
        )
    if isinstance(exc, RequestDataTooBig):
        return body_too_large_problem()
    if database_unreachable(exc):
        return database_unavailable_problem()
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        return _from_validation(flatten_errors(detail))
    if isinstance(exc, exceptions.APIException):
        return _from_api_exception(exc)
    return None


def internal_error_problem() -> Problem:
    """The problem for an unexpected failure: nothing about its cause leaves the server."""
    return Problem(
        status=HTTPStatus.INTERNAL_SERVER_ERROR,
        code="internal_error",
        title=_TITLES["internal_error"],
        detail=_("The server failed to complete the request. It has been logged."),
    )


def problem_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response:
    """DRF's ``EXCEPTION_HANDLER``: every error becomes a problem response."""
    problem = problem_from_exception(exc)
    if problem is None:
        view = context.get("view")
        logger.error(
            "Unhandled exception in %s", type(view).__name__ if view else "API view", exc_info=exc
        )
        problem = internal_error_problem()
    elif problem.code == "database_unavailable":
        # the driver's message (host, port) stays here, in the server's log
        logger.error("The database cannot be reached: %s", exc)
    elif problem.code == "cache_unavailable":
        cause = exc.__cause__ or exc
        logger.error("The shared cache cannot be reached: %s: %s", type(cause).__name__, cause)
    elif problem.status >= HTTPStatus.INTERNAL_SERVER_ERROR:
        logger.error("Server-side problem: %s", problem.detail, exc_info=exc)
    if isinstance(exc, RuleViolation) and exc.rule:
        REFUSALS.labels(rule=exc.rule).inc()
    set_rollback()
    request = context.get("request")
    if request is not None:
        # Errors are always JSON, whatever renderer the client negotiated (or failed to).
        request.accepted_renderer = ProblemJSONRenderer()
        request.accepted_media_type = PROBLEM_CONTENT_TYPE
    return Response(
        problem.as_dict(),
        status=problem.status,
        headers=dict(problem.headers),
        content_type=PROBLEM_CONTENT_TYPE,
    )
