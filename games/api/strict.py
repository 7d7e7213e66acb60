"""Input that is taken exactly as documented: no coercion, no unknown fields.

DRF's fields coerce (``"2"`` becomes 2, ``5`` becomes ``"5"``) and its serializers ignore fields
they do not know. Request bodies of the games API use these instead, so a client's mistake is
refused (400, naming the field) rather than guessed at.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from chickenfoot.query import check_query_params


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: not a string of digits, not ``true``, not ``2.0``."""

    def to_internal_value(self, data: Any) -> int:
        if data.__class__ is not int:
            self.fail("invalid")
        return super().to_internal_value(data)  # type: ignore[no-any-return]


class StrictCharField(serializers.CharField):
    """A JSON string: not a number turned into one."""

    default_error_messages = {"invalid": "Not a valid string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)  # type: ignore[no-any-return]


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``: not ``"yes"``, not 1."""

    def to_internal_value(self, data: Any) -> bool:
        if data.__class__ is not bool:
            self.fail("invalid", input=data)
        return bool(data)


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
    """Refuses fields it does not declare, each under its own name in ``errors``."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(name) for name in data if name not in self.fields)
            if unknown:
                known = ", ".join(self.fields)
                raise serializers.ValidationError(
                    {name: [f"Unknown field: expected only {known}."] for name in unknown}
                )
        return super().to_internal_value(data)


class QuerySerializer(serializers.Serializer):
    """Query parameters: an unknown one, one given empty or twice is refused (400), never
    ignored (``chickenfoot.query``). ``also_known`` names those read elsewhere (paging)."""

    also_known: tuple[str, ...] = ()

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, QueryDict):
            check_query_params(data, [*self.fields, *self.also_known])
            # one value each, now: read as plain values (a QueryDict's "" means "not given")
            data = {name: data[name] for name in data if name in self.fields}
        return super().to_internal_value(data)


PAGE_PARAMS = ("page", "page_size")


__all__ = [
    "PAGE_PARAMS",
    "QuerySerializer",
    "StrictBooleanField",
    "StrictCharField",
    "StrictIntegerField",
    "StrictSerializer",
    "TileField",
]
