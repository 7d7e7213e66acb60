"""Request bodies the scoring API takes exactly as documented: a field it does not have is
refused (400, named in ``errors``) with whatever else is wrong, never ignored."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from chickenfoot.problems import flatten_errors
from chickenfoot.query import merge_errors


class BodySerializer(serializers.Serializer):
    """Refuses the fields it does not declare, each under its own name, together with what is
    wrong with those it does."""

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
