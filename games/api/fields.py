"""Schema-precise output fields: a tile, a constant (a union's discriminator), a union.

The games API answers plain dicts built by selectors and the engine; its output serializers
describe them for the OpenAPI schema. These fields say exactly what a value is, so generated
clients need no casts.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

TILE_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": 18},
    "minItems": 2,
    "maxItems": 2,
    "description": "A tile: its two numbers, `[a, b]`.",
    "example": [3, 5],
}


@extend_schema_field(TILE_SCHEMA)
class TileOutputField(serializers.JSONField):
    """A tile, ``[a, b]``."""


def tiles(**kwargs: Any) -> serializers.ListField:
    """A list of tiles."""
    return serializers.ListField(child=TileOutputField(), **kwargs)


def ints(**kwargs: Any) -> serializers.ListField:
    """A list of integers."""
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


def const(value: str, **kwargs: Any) -> serializers.Field:
    """A string that is always ``value``: the discriminator of a union's member."""

    @extend_schema_field({"type": "string", "enum": [value]})
    class Const(serializers.CharField):
        pass

    return Const(**kwargs)


def int_choice(values: list[int], **kwargs: Any) -> serializers.Field:
    """An integer that is one of ``values`` (inline, so that no enum component is shared)."""

    @extend_schema_field({"type": "integer", "enum": values})
    class IntChoice(serializers.IntegerField):
        pass

    return IntChoice(**kwargs)


def union_field(proxy: PolymorphicProxySerializer, **kwargs: Any) -> serializers.Field:
    """A field whose value is one member of ``proxy``'s union."""

    @extend_schema_field(proxy)
    class Union(serializers.JSONField):
        pass

    return Union(**kwargs)
