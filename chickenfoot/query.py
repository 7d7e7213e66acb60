"""Query parameters taken as documented: a typo, an empty value or a repeat is a 400.

A filter given empty (``?status=``) or twice (``?status=open&status=playing``) would otherwise be
ignored or half-read, and a misspelt one ignored: the answer would be every row instead of the
few asked for. Shared by the games and scoring APIs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination, PageNumberPagination
from rest_framework.request import Request

from chickenfoot.numbers import whole_number
from chickenfoot.problems import flatten_errors

#: A check run with the query's own: it raises DRF's ``ValidationError`` for what it finds.
QueryCheck = Callable[[], object]


def query_param_errors(query: QueryDict, known: Iterable[str]) -> dict[str, list[str]]:
    """What is wrong with the parameters themselves: each one not in ``known``, given without a
    value, or given more than once, under its own name."""
    known = sorted(set(known))
    errors: dict[str, list[str]] = {}
    for name in query:
        values = query.getlist(name)
        if name not in known:
            allowed = ", ".join(known) or "none"
            errors[name] = [
                _("Unknown query parameter. Known ones: %(allowed)s.") % {"allowed": allowed}
            ]
        elif len(values) > 1:
            errors[name] = [_("Give this parameter once.")]
        elif not values[0].strip():
            errors[name] = [_("This parameter needs a value: leave it out to mean any.")]
    return errors


def merge_errors(errors: dict[str, list[str]], more: dict[str, list[str]]) -> None:
    """Add ``more`` to ``errors``; a field already there keeps its own messages (a parameter
    given twice is not also told its value is wrong)."""
    for name, messages in more.items():
        errors.setdefault(name, messages)


def check_query_params(query: QueryDict, known: Iterable[str], *checks: QueryCheck) -> None:
    """Refuse (400 ``invalid``) a parameter not in ``known``, one given without a value, one
    given more than once, and whatever ``checks`` (a serializer's or a filter's validation, the
    page size) find: every parameter at once, each under its own name in ``errors``."""
    errors = query_param_errors(query, known)
    for check in checks:
        try:
            check()
        except ValidationError as bad:
            merge_errors(errors, flatten_errors(bad.detail))
    if errors:
        raise ValidationError(errors)


def page_size_errors(
    query: QueryDict, name: str | None, largest: int | None
) -> dict[str, list[str]]:
    """``page_size`` (``name``) refused: not a whole number from 1 up, or over ``largest``."""
    if not name or name not in query:
        return {}
    size = whole_number(query[name])
    if not size:
        return {name: [_("A whole number from 1 up is required.")]}
    if largest and size > largest:
        return {name: [_("At most %(largest)s rows a page.") % {"largest": largest}]}
    return {}


class StrictPageSize:
    """A pagination mixin: ``page_size`` that is not a whole number from 1 up is a 400, not the
    default size (DRF ignores it), and neither is one over ``max_page_size``. In the schema, the
    page's links are OpenAPI 3.1 nullable strings (``type: [string, "null"]``)."""

    page_size_query_param: str | None
    max_page_size: int | None
    page_size: int | None

    def get_page_size(self, request: Request) -> int | None:
        name = self.page_size_query_param
        if not name or name not in request.query_params:
            return self.page_size
        errors = page_size_errors(request.query_params, name, self.max_page_size)
        if errors:
            raise ValidationError(errors)
        return whole_number(request.query_params[name])

    def get_schema_operation_parameters(self, view: object) -> list[dict[str, Any]]:
        """DRF's paging parameters, ``page_size`` with its bounds (1 up to ``max_page_size``)."""
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        bounds = {"minimum": 1, "maximum": self.max_page_size} if self.max_page_size else {}
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {**parameter["schema"], **bounds}
        return parameters

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """DRF's page, its ``next`` and ``previous`` typed as OpenAPI 3.1 says a nullable is.

        DRF writes them the OpenAPI 3.0 way (``nullable: true``), which 3.1 ignores: a strict
        validator would then refuse the last page's ``next: null``. Their examples are URIs.
        """
        page: dict[str, Any] = super().get_paginated_response_schema(schema)  # type: ignore[misc]
        numbered = "count" in page["properties"]  # a cursor's page has no count
        for name, query in (("next", "page=3"), ("previous", "page=1")):
            link = page["properties"][name]
            link.pop("nullable", None)
            link["type"] = ["string", "null"]
            link["example"] = "https://chickenfoot.example/api/a-list?" + (
                query if numbered else "cursor=cD0yMDI2LTExLTMw"
            )
        return page


class StrictCursor(StrictPageSize, CursorPagination):
    """Keyset paging (DRF's cursor pagination) whose made-up ``cursor`` is a 400 ``invalid``
    naming it, not DRF's 404."""

    page_size_query_param = "page_size"

    def decode_cursor(self, request: Request):  # type: ignore[no-untyped-def]
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise ValidationError({self.cursor_query_param: [_("Invalid cursor.")]}) from None


class DefaultPages(StrictPageSize, PageNumberPagination):
    """The lists that name no paging of their own: DRF's ``PAGE_SIZE`` rows a page, and
    ``page_size`` up to 100, as the match lists take it (docs/api.md, "Lists and paging")."""

    page_size_query_param = "page_size"
    max_page_size = 100


def page_size_check(paginator: StrictPageSize, request: Request) -> QueryCheck:
    """A check of ``request``'s page size as ``paginator`` reads it, for ``check_query_params``."""
    return lambda: paginator.get_page_size(request)


def serializer_check(serializer: Any) -> QueryCheck:
    """A check of a query serializer's values, for ``check_query_params``."""
    return lambda: serializer.is_valid(raise_exception=True)
