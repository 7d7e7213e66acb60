"""Dates and numbers follow the active language (chickenfoot.i18n.formats, Babel's CLDR data),
and the pages' copy of those conventions (locale-formats.js) is Babel's, up to date."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.utils import translation

from chickenfoot.i18n import js_formats
from chickenfoot.i18n.formats import (
    active_locale,
    format_date,
    format_datetime,
    format_decimal,
    locale_for,
)

WHEN = dt.datetime(2026, 3, 4, 15, 7, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("language", "date", "when", "number"),
    [
        ("en", "March 4, 2026", "3/4/26, 3:07\u202fPM", "-1,234,567.25"),
        ("lo", "4 ມີນາ 2026", "4/3/2026, 15:07", "-1.234.567,25"),
        ("th", "4 มีนาคม ค.ศ. 2026", "4/3/26 15:07", "-1,234,567.25"),
        ("hy", "04 մարտի, 2026 թ.", "04.03.26, 15:07", "-1\xa0234\xa0567,25"),
        ("ceb", "Marso 4, 2026", "3/4/26, 3:07\u202fPM", "-1,234,567.25"),
    ],
)
def test_each_language_writes_its_own_dates_and_numbers(
    language: str, date: str, when: str, number: str
) -> None:
    with translation.override(language):
        assert format_date(WHEN.date(), "long") == date
        assert format_datetime(WHEN, "short") == when
        assert format_decimal(-1234567.25) == number


def test_cebuano_is_babels_own_locale_and_an_unknown_language_falls_back() -> None:
    assert str(locale_for("ceb")) == "ceb"
    assert str(locale_for("en-us")) == "en_US"
    assert str(locale_for("xx-yy")) == "en"
    with translation.override(None):
        assert active_locale() == locale_for(settings.LANGUAGE_CODE)


def test_a_time_is_written_in_the_zone_asked_for() -> None:
    bangkok = dt.timezone(dt.timedelta(hours=7))
    with translation.override("th"):
        assert format_datetime(WHEN, "short", tzinfo=bangkok) == "4/3/26 22:07"


def test_the_pages_conventions_are_babels_and_up_to_date() -> None:
    assert js_formats.TARGET.read_text(encoding="utf-8") == js_formats.source(), (
        "run: python -m chickenfoot.i18n.js_formats"
    )
    if settings.is_overridden("LANGUAGES"):
        assert set(js_formats.LANGUAGES) == {code for code, _ in settings.LANGUAGES}
