"""The fields of a refused request that are valid on their own.

A serializer that finds one field wrong gives no values at all; a service that checks what the
fields say together (house options, dates in order) can still check those that are valid, so
that a request is answered every bad field at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.fields import SkipField


def valid_fields(serializer: serializers.Serializer) -> dict[str, Any]:
    """The validated value of each of ``serializer``'s fields that its (refused) data gives
    validly, or leaves out for a default; a field that is wrong, or left out without a default,
    is not there. Call it after ``is_valid()`` returned false."""
    data = serializer.initial_data
    if not isinstance(data, Mapping):
        return {}
    wrong = {str(name) for name in serializer.errors}
    values: dict[str, Any] = {}
    for name, field in serializer.fields.items():
        if name in wrong or field.read_only:
            continue
        try:
            values[name] = field.run_validation(field.get_value(data))
        except (serializers.ValidationError, SkipField):
            continue
    return values
