"""Query parameters taken as documented: a typo, an empty value or a repeat is a 400.

A filter given empty (``?status=``) or twice (``?status=open&status=playing``) would otherwise be
ignored or half-read, and a misspelt one ignored: the answer would be every row instead of the
few asked for. Shared by the games and scoring APIs.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import QueryDict
from rest_framework.exceptions import ValidationError


def check_query_params(query: QueryDict, known: Iterable[str]) -> None:
    """Refuse (400 ``invalid``, each parameter under its own name in ``errors``) a parameter not
    in ``known``, one given without a value, and one given more than once."""
    known = sorted(set(known))
    errors: dict[str, list[str]] = {}
    for name in query:
        values = query.getlist(name)
        if name not in known:
            allowed = ", ".join(known) or "none"
            errors[name] = [f"Unknown query parameter. Known ones: {allowed}."]
        elif len(values) > 1:
            errors[name] = ["Give this parameter once."]
        elif not values[0].strip():
            errors[name] = ["This parameter needs a value: leave it out to mean any."]
    if errors:
        raise ValidationError(errors)
