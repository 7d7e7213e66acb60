"""Every page, in every language, as Chromium draws it: each element with text (form controls
too) is drawn only in the faces the repository carries (``CSS.getPlatformFontsForNode``: the
fonts Chromium drew the node's glyphs with, none of the machine's own), no text in Lao, Thai or
Armenian is left in English (no Latin word but the product's name, a file format, a rule id or
a key), and no page in any language shows an English message its catalog translates. Each page
in each language is saved at 1280 x 900 and 390 x 844 (``tests/artifacts/pages/``).

One browser, two contexts (signed in, and a visitor), one page each, reused for every page and
language: the language is the ``django_language`` cookie, as the picker sets it. The test reports
how long it took (``-s``).
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from babel.messages.pofile import read_po

from chickenfoot.fonts import FACES, MONO
from chickenfoot.i18n.catalogs import DOMAINS, po_path
from chickenfoot.i18n.languages import LANGUAGE_CODES
from tests.games.factories import token_for
from tests.web.conftest import ARTIFACTS, PAGE_TIMEOUT_MS, _polled
from tests.web.pages_world import World, build

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = ARTIFACTS / "pages"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
#: The families the pages may be drawn in: the repository's faces (chickenfoot/fonts.py).
BUNDLED = {face.family for face in (*FACES, MONO)}
#: Each language's letters: a page in it may hold no Latin word but those below.
SCRIPTS = {"lo": "\u0e80-\u0eff", "th": "\u0e00-\u0e7f", "hy": "\u0530-\u058f"}
#: Latin a page keeps in every language: the product's name and the API docs' (they name
#: programs), file formats, rule ids (C-WIN, CF-SCORE: docs/rules.md), a key in parentheses.
KEPT = re.compile(
    r"\bChickenfoot\b|\bReDoc\b|\bAPI\b|\bPDF\b|\bCSV\b|\bQR\b"
    r"|\b[A-Z]{1,3}(?:-[A-Z0-9]+)+\b|\([a-z]\)"
)

#: Marks every element that draws text of its own (a text node child, or a form control's
#: value) with ``data-font-probe``, and returns, in document order, what each says and whether
#: it is code or a language's own name (the picker lists each language in itself).
PROBE = """async () => {
  await document.fonts.ready;
  for (const old of document.querySelectorAll('[data-font-probe]')) {
    old.removeAttribute('data-font-probe');
  }
  const found = [];
  const drawn = (node) => node.getClientRects().length > 0
    && getComputedStyle(node).visibility !== 'hidden';
  for (const node of document.body.querySelectorAll('*')) {
    if (['SCRIPT', 'STYLE', 'TITLE', 'OPTION'].includes(node.tagName.toUpperCase())) continue;
    if (node.closest('svg title, desc')) continue;
    const own = [...node.childNodes].filter((c) => c.nodeType === 3).map((c) => c.data).join('');
    const control = node.matches('select, input:not([type=radio]):not([type=checkbox])'
      + ':not([type=hidden]):not([type=password])');
    const text = control ? (node.value || node.placeholder || '') : own;
    if (!text.trim() || !drawn(node)) continue;
    node.setAttribute('data-font-probe', String(found.length));
    found.push({
      text: control && node.tagName === 'SELECT'
        ? node.options[node.selectedIndex]?.text || '' : text,
      where: node.tagName.toLowerCase() + (node.id ? '#' + node.id : '')
        + (node.className && typeof node.className === 'string' ? '.' + node.className : ''),
      code: Boolean(node.closest('code, pre')),
      rules: Boolean(node.closest('.rules')),
      otherLanguage: Boolean(node.closest('[lang]')
        && node.closest('[lang]').getAttribute('lang') !== document.documentElement.lang),
    });
  }
  return found;
}"""


#: Every chart drawn again for its box's width (after the window changed size).
CHARTS_REDRAWN = """[...document.querySelectorAll('.chart[data-width]')].every((box) =>
  Number(box.dataset.width) === Math.max(280, Math.min(640, Math.floor(box.clientWidth))))"""


@dataclass(frozen=True)
class Shown:
    """A page of the tour: where it is, who opens it, what says it is drawn, what to do first."""

    name: str
    path: Callable[[World], str]
    ready: str
    who: str = "som"  # a player's username, or "" for a visitor
    size: tuple[int, int] = (DESKTOP["width"], DESKTOP["height"])
    act: Callable[[Any], None] | None = None


def _choose_a_tile(page: Any) -> None:
    page.locator("#hand .tile.playable").first.click()
    page.locator("#targets .target").first.wait_for()


def _open_the_tile_picker(page: Any) -> None:
    page.click("#mode-tiles")
    page.locator(".seat summary").first.click()


PAGES = [
    Shown("login", lambda w: "/", "!document.getElementById('auth').hidden", who=""),
    Shown("lobby", lambda w: "/", "document.querySelectorAll('#my-matches li').length >= 2"),
    Shown(
        "match",
        lambda w: f"/matches/{w.playing.pk}/",
        "document.querySelector('#board svg') && document.querySelector('#hand .tile')",
        who="turn",
        act=_choose_a_tile,
    ),
    Shown(
        "finished-match",
        lambda w: f"/matches/{w.finished.pk}/",
        "document.querySelector('#last-round svg') && document.querySelector('#chart svg')",
    ),
    Shown(
        "replay",
        lambda w: f"/matches/{w.finished.pk}/replay/",
        "document.getElementById('replay').dataset.analysed === 'true'",
    ),
    Shown(
        "table-match",
        lambda w: f"/matches/{w.table}/",
        "document.querySelector('#score-log li[data-kind=correction]')"
        " && document.querySelector('#table-chart svg')",
    ),
    Shown(
        "table-match-finished",
        lambda w: f"/matches/{w.tied}/",
        "!document.getElementById('winner').hidden && document.querySelector('#table-chart svg')",
    ),
    Shown(
        "scorer",
        lambda w: f"/score/#{w.scorer_code}",
        "document.getElementById('scorer').dataset.state === 'playing'"
        " && document.querySelector('#score-log li')",
        who="",
        act=_open_the_tile_picker,
    ),
    Shown(
        "wall",
        lambda w: f"/events/{w.event.pk}/",
        "document.querySelector('.wall-table')",
        who="",
        size=(PHONE["width"], PHONE["height"]),
    ),
    Shown(
        "wall-projector",
        lambda w: f"/events/{w.event.pk}/?layout=projector",
        "document.querySelector('.wall-table')",
        who="",
        size=(1920, 1080),
    ),
    Shown(
        "competitions",
        lambda w: "/competitions/",
        "document.getElementById('competitions').dataset.loaded === 'true'",
    ),
    Shown(
        "competition",
        lambda w: f"/competitions/{w.event.pk}/",
        "document.getElementById('competition').dataset.loaded === 'true'",
    ),
    Shown(
        "stage-dashboard",
        lambda w: f"/competitions/{w.event.pk}/stages/1/",
        "document.getElementById('stage').dataset.state === 'ready'",
    ),
    Shown(
        "leaderboard",
        lambda w: "/leaderboards/chickenfoot/",
        "document.getElementById('leaderboard').dataset.loaded === 'true'",
    ),
    Shown(
        "player",
        lambda w: f"/players/{w.players[0].pk}/",
        "document.getElementById('player').dataset.loaded === 'true'",
    ),
    Shown("how-to-play", lambda w: "/how-to-play/", "document.querySelector('.rules h2')"),
]


def english_left_as_is(language: str) -> set[str]:
    """The English of every whole message (no placeholder) that ``language`` translates
    otherwise: shown as it is on a page in ``language``, it was not translated."""
    found = set()
    for domain in DOMAINS:
        with po_path(language, domain).open("rb") as file:
            for message in read_po(file, locale=language, domain=domain):
                whole = isinstance(message.id, str) and message.id and "%" not in message.id
                if whole and message.string and message.string != message.id:
                    found.add(message.id)
    return found


def fonts_of(cdp: Any, count: int) -> list[list[tuple[str, bool]]]:
    """The faces Chromium drew each probed node in: (family, from a web font?)."""
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-font-probe]"})
    ids = nodes["nodeIds"]
    assert len(ids) == count, (len(ids), count)
    return [
        [(f["familyName"], f["isCustomFont"])
         for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
        for node in ids
    ]  # fmt: skip


def untranslated(language: str, item: dict[str, Any], english: set[str]) -> bool:
    text = item["text"].strip()
    if item["code"] or item["otherLanguage"] or language == "en":
        return False
    if item["rules"]:  # the rules in the language (docs/rules.<lang>.md) gloss some terms in
        return text in english  # English, "(seed)": only a whole English message is wrong there
    if text in english:
        return True
    if language in SCRIPTS:
        return bool(re.search("[A-Za-z]", KEPT.sub("", text)))
    return False


@pytest.fixture
def tour(chromium: Any, live_server: Any) -> Iterator[dict[str, Any]]:
    """A page signed in (its token swapped per page) and a visitor's page, each in a context of
    its own."""
    contexts = {}
    pages = {}
    for who in ("player", "visitor"):
        context = chromium.new_context(viewport=DESKTOP)
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        page = context.new_page()
        page.wait_for_function = _polled(page)
        contexts[who], pages[who] = context, page
    yield pages
    for context in contexts.values():
        context.close()


def test_every_page_in_every_language_is_drawn_in_the_bundled_faces_and_translated(
    live_server: Any, tour: dict[str, Any]
) -> None:
    started = time.monotonic()
    world = build()
    built = time.monotonic()
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    by_name = {p.user.username: p for p in world.players}
    cdps = {who: page.context.new_cdp_session(page) for who, page in tour.items()}
    for cdp in cdps.values():
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
    wrong_faces: list[str] = []
    english: list[str] = []
    checked = 0
    for language in LANGUAGE_CODES:
        left_as_is = english_left_as_is(language) if language != "en" else set()
        for page in tour.values():
            page.context.add_cookies([{"name": "django_language", "value": language,
                                       "domain": host, "path": "/"}])  # fmt: skip
        for shown in PAGES:
            context = "visitor" if not shown.who else "player"
            page = tour[context]
            if shown.who:
                player = world.turn if shown.who == "turn" else by_name[shown.who]
                page.goto(f"{live_server.url}/favicon.ico")
                page.evaluate(
                    "([token, name, id]) => { localStorage.setItem('chickenfoot.token', token);"
                    " localStorage.setItem('chickenfoot.name', name);"
                    " localStorage.setItem('chickenfoot.player', id); }",
                    [token_for(player), player.display_name, str(player.pk)],
                )
            page.set_viewport_size({"width": shown.size[0], "height": shown.size[1]})
            page.goto(f"{live_server.url}{shown.path(world)}")
            page.wait_for_function(shown.ready)
            if shown.act:
                shown.act(page)
            assert page.evaluate("document.documentElement.lang") == language, shown.name
            items = page.evaluate(PROBE)
            for item, faces in zip(items, fonts_of(cdps[context], len(items)), strict=True):
                checked += 1
                if any(not custom or family not in BUNDLED for family, custom in faces):
                    wrong_faces.append(f"{language} {shown.name} {item['where']}: "
                                       f"{item['text'][:40]!r} in {faces}")  # fmt: skip
                if untranslated(language, item, left_as_is):
                    english.append(
                        f"{language} {shown.name} {item['where']}: {item['text'][:60]!r}"
                    )
            if shown.size != (DESKTOP["width"], DESKTOP["height"]):  # a layout of one size
                page.screenshot(path=str(SHOTS / f"{shown.name}-{language}.png"), full_page=True)
                continue
            page.screenshot(path=str(SHOTS / f"{shown.name}-{language}-desktop.png"),
                            full_page=True)  # fmt: skip
            page.set_viewport_size(PHONE)
            page.wait_for_function(CHARTS_REDRAWN)
            page.screenshot(path=str(SHOTS / f"{shown.name}-{language}-phone.png"),
                            full_page=True)  # fmt: skip
    took = time.monotonic() - started
    summary = (
        f"every page: {len(PAGES)} pages x {len(LANGUAGE_CODES)} languages, {checked} nodes;"
        f" world {built - started:.1f} s, tour {took - (built - started):.1f} s"
    )
    (SHOTS / "report.txt").write_text("\n".join([summary, *wrong_faces, *english, ""]))
    sys.stdout.write(f"\n{summary}\n")
    assert wrong_faces == [], "\n".join(wrong_faces[:40])
    assert english == [], "\n".join(english[:40])
    assert (SHOTS / "wall-lo.png").exists()
