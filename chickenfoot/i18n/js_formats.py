"""How each language writes dates and numbers, from Babel's CLDR data, for the pages:
``games/static/games/web/locale-formats.js``, which this module writes
(``python -m chickenfoot.i18n.js_formats``; a test checks that it is up to date), and which
``formats.js`` reads. So a page writes a date as the PDFs do (``chickenfoot.i18n.formats``),
in languages a browser's ``Intl`` may lack (Chromium's has no Lao, Armenian or Cebuano).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chickenfoot.i18n.formats import locale_for
from chickenfoot.i18n.languages import LANGUAGE_CODES

#: The languages the service speaks (settings.LANGUAGES).
LANGUAGES = LANGUAGE_CODES
WEB = Path(__file__).resolve().parents[2] / "games" / "static" / "games" / "web"
TARGET = WEB / "locale-formats.js"
LENGTHS = ("short", "medium", "long")


def conventions(language: str) -> dict[str, Any]:
    """The patterns (CLDR's), names and signs ``formats.js`` writes ``language`` with."""
    locale = locale_for(language)
    months = locale.months["format"]
    periods = locale.day_periods["format"]["abbreviated"]
    symbols = locale.number_symbols["latn"]
    return {
        "date": {length: locale.date_formats[length].pattern for length in LENGTHS},
        "time": {length: locale.time_formats[length].pattern for length in LENGTHS[:2]},
        "dateTime": {length: locale.datetime_formats[length] for length in LENGTHS[:2]},
        "months": [months["abbreviated"][n] for n in range(1, 13)],
        "monthsWide": [months["wide"][n] for n in range(1, 13)],
        "era": locale.eras["abbreviated"][1],
        "am": periods["am"],
        "pm": periods["pm"],
        "decimal": symbols["decimal"],
        "group": symbols["group"],
        "minus": symbols["minusSign"],
    }


def source() -> str:
    """The module's text."""
    data = {language: conventions(language) for language in LANGUAGES}
    table = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)
    return (
        "// How each language writes dates and numbers (Babel's CLDR data), for formats.js.\n"
        "// Written by `python -m chickenfoot.i18n.js_formats`: do not edit.\n"
        f"export const LOCALES = {table};\n"
    )


def main() -> None:
    TARGET.write_text(source(), encoding="utf-8")


if __name__ == "__main__":
    main()
