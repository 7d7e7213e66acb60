"""The schema generator's reading of the views (drf-spectacular's ``AutoSchema``), with what the
serializers enforce and it does not see: a request body whose serializer refuses the fields it
does not declare (``refuses_unknown_fields``) is a closed object (``additionalProperties:
false``), so a client, a generated one or a fuzzer, knows an extra key is refused (400)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers

from games.api.schema_hooks import NO_NUL


class ContractSchema(AutoSchema):
    def _map_serializer_field(
        self, field: Any, direction: str, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        if (
            direction == "request"
            and isinstance(field, serializers.CharField)
            and not field.allow_blank  # drf-spectacular would make a pattern and "" a oneOf
            and schema.get("type") == "string"
            and not {"enum", "pattern", "format"} & set(schema)
        ):
            schema["pattern"] = NO_NUL  # DRF's fields refuse a NUL character in a string
        return schema

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and getattr(serializer, "refuses_unknown_fields", False):
            schema["additionalProperties"] = False
        return schema


__all__ = ["ContractSchema"]
