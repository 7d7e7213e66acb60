"""Serializer fields that take a JSON value as the schema types it, shared by the games and the
scoring APIs: DRF's own coerce (``1`` and ``"yes"`` become ``true``), so that a value the schema
refuses would be accepted."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``: not ``"yes"``, not 1."""

    def to_internal_value(self, data: Any) -> bool:
        if data.__class__ is not bool:
            self.fail("invalid", input=data)
        return bool(data)


__all__ = ["StrictBooleanField"]
