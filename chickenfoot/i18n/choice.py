"""The player's saved language, put before what the request asked for.

The ``LocaleMiddleware`` (Django's: chickenfoot/i18n/middleware.py) chooses from the
``django_language`` cookie, then ``Accept-Language``, then English, before the view runs, and
names the language of the answer (``Content-Language``) once it is done. Who the player is
becomes known only when the API authenticates the request; the authentication then calls
``use_player_language``, so that the answer, its problems and their ``Content-Language`` are in
the player's language.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from chickenfoot.i18n.languages import LANGUAGE_CODES


def use_player_language(request: Any, language: str) -> None:
    """Answer ``request`` (Django's or DRF's, or None) in ``language``, a player's saved choice;
    blank or unknown: the language chosen from the request stays."""
    if language not in LANGUAGE_CODES:
        return
    translation.activate(language)
    if request is not None:
        getattr(request, "_request", request).LANGUAGE_CODE = language
