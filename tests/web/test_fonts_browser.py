"""The pages' fonts in Chromium: under the service's Content-Security-Policy the lobby loads the
repository's Noto faces and draws a name in Lao, Thai and Armenian each in its own face (what
Chromium reports it drew each with), and ``formats.js`` writes dates and numbers in the page's
language as the PDFs do (Babel). Screenshot: ``tests/artifacts/fonts-lobby.png``."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import translation

from chickenfoot.i18n.formats import format_date, format_datetime, format_decimal
from chickenfoot.i18n.js_formats import LANGUAGES

pytestmark = pytest.mark.django_db(transaction=True)

DRAWN_IN = {
    "ສົມພອນ": "Noto Sans Lao",
    "สมชาย": "Noto Sans Thai",
    "Արամ": "Noto Sans Armenian",
    "Maria Santos": "Noto Sans",
}
_SHOW = """async (names) => {
  const line = document.createElement('p');
  line.id = 'scripts';
  for (const name of names) {
    const span = document.createElement('span');
    span.textContent = name;
    line.append(span, ' ');
  }
  document.querySelector('main').prepend(line);
  void line.offsetHeight;
  await document.fonts.ready;
}"""
_FORMATS = """async ([langs, when, number]) => {
  const formats = await import('/static/games/web/formats.js');
  const written = {};
  for (const lang of langs) {
    document.documentElement.lang = lang;
    written[lang] = [
      ...['short', 'medium', 'long'].map((length) => formats.formatDate(when, length)),
      ...['short', 'medium'].map((length) => formats.formatDateTime(when, length)),
      formats.formatNumber(number), formats.formatNumber(3), formats.formatNumber(2.5),
    ];
  }
  return written;
}"""


def test_each_script_is_drawn_in_its_noto_face(
    live_server: Any, new_page: Any, screenshot: Any
) -> None:
    page = new_page()
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("console", lambda message: message.type == "error" and failed.append(message.text))
    page.goto(f"{live_server.url}/")
    page.evaluate(_SHOW, list(DRAWN_IN))
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    for number, (name, family) in enumerate(DRAWN_IN.items(), start=1):
        selector = f"#scripts span:nth-of-type({number})"
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        drawn = [(font["familyName"], font["isCustomFont"]) for font in fonts]
        assert drawn[0] == (family, True), (name, drawn)  # most of its glyphs, from our file
        assert {f for f, custom in drawn if not custom} == set(), (name, drawn)
    assert failed == []
    screenshot(page, "fonts-lobby")


def test_formats_js_writes_dates_and_numbers_as_the_pdfs_do(
    live_server: Any, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{live_server.url}/")
    # a time of day in the reader's time zone, as the page shows it
    written = page.evaluate(_FORMATS, [list(LANGUAGES), "2026-03-04T15:07:09", -1234567.25])
    when = dt.datetime(2026, 3, 4, 15, 7, 9, tzinfo=dt.UTC)
    for lang in LANGUAGES:
        with translation.override(lang):
            expected = [
                *(format_date(when.date(), length) for length in ("short", "medium", "long")),
                *(format_datetime(when, length) for length in ("short", "medium")),
                format_decimal(-1234567.25),
                format_decimal(3),
                format_decimal(2.5),
            ]
        assert written[lang] == expected, lang
    assert written["lo"][2] == "4 ມີນາ 2026"
