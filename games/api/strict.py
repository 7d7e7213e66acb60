"""Input that is taken exactly as documented: no coercion, no unknown fields.

DRF's fields coerce (``"2"`` becomes 2, ``5`` becomes ``"5"``) and its serializers ignore fields
they do not know. Request bodies of the games API use these instead, so a client's mistake is
refused (400, naming the field) rather than guessed at.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from chickenfoot.json_fields import StrictBooleanField
from chickenfoot.problems import flatten_errors
from chickenfoot.query import (
    StrictPageSize,
    merge_errors,
    page_size_errors,
    query_param_errors,
)

#: The largest id a database row can have (a signed 64-bit integer): a larger one names no row,
#: and the database refuses to compare with it.
ID_MAX = 2**63 - 1


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: not a string of digits, not ``true``, not ``2.0``."""

    def to_internal_value(self, data: Any) -> int:
        if data.__class__ is not int:
            self.fail("invalid")
        return super().to_internal_value(data)  # type: ignore[no-any-return]


class StrictCharField(serializers.CharField):
    """A JSON string: not a number turned into one."""

    default_error_messages = {"invalid": gettext_lazy("Not a valid string.")}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)  # type: ignore[no-any-return]


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 0},
        "minItems": 2,
        "maxItems": 2,
        "description": "A tile: its two numbers, `[a, b]` (either order).",
        "example": [3, 5],
    }
)
class TileField(serializers.ListField):
    """A tile, ``[a, b]``: exactly two non-negative integers."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_length", 2)
        kwargs.setdefault("max_length", 2)
        super().__init__(child=StrictIntegerField(min_value=0), **kwargs)


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not declare, each under its own name in ``errors``, together with
    what is wrong with the fields it does declare."""

    #: The schema closes its request bodies (``games.api.contract_schema``).
    refuses_unknown_fields = True

    def to_internal_value(self, data: Any) -> Any:
        unknown: dict[str, list[str]] = {}
        if isinstance(data, Mapping):
            known = ", ".join(self.fields)
            unknown = {
                name: [_("Unknown field: expected only %(known)s.") % {"known": known}]
                for name in sorted(str(name) for name in data if name not in self.fields)
            }
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as bad:
            if not unknown:
                raise
            merge_errors(unknown, flatten_errors(bad.detail))
        if unknown:
            raise serializers.ValidationError(unknown)
        return value


class QuerySerializer(serializers.Serializer):
    """Query parameters: an unknown one, one given empty or twice is refused (400), never
    ignored (``chickenfoot.query``), together with the values that are wrong. ``also_known``
    names those read elsewhere (paging); ``pagination``, when set, has its ``page_size``
    checked with the rest."""

    also_known: tuple[str, ...] = ()
    pagination: type[StrictPageSize] | None = None

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, QueryDict):
            return super().to_internal_value(data)
        errors = query_param_errors(data, [*self.fields, *self.also_known])
        if self.pagination is not None:
            name = self.pagination.page_size_query_param
            merge_errors(errors, page_size_errors(data, name, self.pagination.max_page_size))
        # one value each, now: read as plain values (a QueryDict's "" means "not given")
        values = {name: data[name] for name in data if name in self.fields and name not in errors}
        try:
            value = super().to_internal_value(values)
        except serializers.ValidationError as bad:
            merge_errors(errors, flatten_errors(bad.detail))
        if errors:
            raise serializers.ValidationError(errors)
        return value


PAGE_PARAMS = ("page", "page_size")


__all__ = [
    "ID_MAX",
    "PAGE_PARAMS",
    "QuerySerializer",
    "StrictBooleanField",
    "StrictCharField",
    "StrictIntegerField",
    "StrictSerializer",
    "TileField",
]
