"""Dates and numbers as the active language writes them (Babel's CLDR data): ``format_date``,
``format_datetime`` and ``format_decimal`` for what the server prints (the PDFs); the pages
format theirs in the browser (``games/static/games/web/formats.js``, ``Intl``).

Babel knows every language the service speaks (``en``, ``lo``, ``th``, ``hy`` and ``ceb``,
Cebuano's own CLDR locale). A language it does not know falls back to its base language, then
to English. Dates are in UTC unless a time zone is given, as the rest of the service shows them.
"""

from __future__ import annotations

import datetime as dt
import functools
from decimal import Decimal

from babel import Locale, UnknownLocaleError, dates, numbers
from django.conf import settings
from django.utils.translation import get_language, to_locale

FALLBACK = "en"


@functools.cache
def locale_for(language: str) -> Locale:
    """Babel's locale for a Django language code (``en-us``, ``lo``, ``pt-br``)."""
    for code in (to_locale(language), language.split("-")[0], FALLBACK):
        try:
            return Locale.parse(code)
        except (UnknownLocaleError, ValueError):
            continue
    return Locale.parse(FALLBACK)


def active_locale() -> Locale:
    """The locale of the language active on this thread (the request's), else the default."""
    return locale_for(get_language() or settings.LANGUAGE_CODE)


def format_date(value: dt.date, length: str = "medium") -> str:
    """``value`` (a date) as the active language writes it: ``length`` is short, medium,
    long or full."""
    return dates.format_date(value, length, locale=active_locale())


def format_datetime(
    value: dt.datetime, length: str = "medium", *, tzinfo: dt.tzinfo = dt.UTC
) -> str:
    """``value`` (an aware date and time) in ``tzinfo``, as the active language writes it."""
    return dates.format_datetime(value, length, tzinfo=tzinfo, locale=active_locale())


def format_decimal(value: int | float | Decimal) -> str:
    """``value`` with the active language's digits grouping and decimal sign."""
    return numbers.format_decimal(value, locale=active_locale())
