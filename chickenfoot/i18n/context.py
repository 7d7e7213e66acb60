"""What every page's template knows of the languages: the picker's choices."""

from __future__ import annotations

from django.http import HttpRequest

from chickenfoot.i18n.languages import LANGUAGE_CODES, NATIVE_NAMES


def languages(request: HttpRequest) -> dict[str, object]:
    """``service_languages``: each language's code and its own name, for the picker."""
    return {"service_languages": [(code, NATIVE_NAMES[code]) for code in LANGUAGE_CODES]}
