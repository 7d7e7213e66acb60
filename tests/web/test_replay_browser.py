"""The replay page in a browser at 390 x 844: it steps through a finished match with the
buttons, the arrow keys and the slider; the board, every hand face up, each move's mark and
the better move beside it; nothing wider than the phone, nothing the page's policy refused, a
hostile name shown as text. Screenshot: ``tests/artifacts/replay-phone.png``."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from games.analysis.models import MatchAnalysis
from games.analysis.services import analysis_queue
from tests.foundation.hostile import EXPLOIT
from tests.games.factories import token_for
from tests.web.test_page_security import WATCH_VIOLATIONS, finished_match, violations

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_replay_steps_through_a_finished_match_on_a_phone(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any, settings: Any
) -> None:
    settings.ANALYSIS_DEALS = 2
    match, players = finished_match(["Ada", EXPLOIT])
    with transaction.atomic():
        analysis_queue(match_id=match.pk)  # runs after commit (eagerly, here)
    analysis = MatchAnalysis.objects.get(match_id=match.pk)
    assert analysis.status == "done"
    marked = next(m for m in analysis.moves if m["mark"] != "best")

    page = new_page(width=390, height=844)
    page.add_init_script(WATCH_VIOLATIONS)
    sign_in(page, live_server.url, token=token_for(players[0]), name="Ada", player_id=players[0].pk)
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    page.wait_for_function("document.getElementById('replay').dataset.loaded === 'true'")
    page.wait_for_function("document.getElementById('replay').dataset.analysed === 'true'")
    seq = "document.getElementById('replay').dataset.seq"
    assert page.evaluate(seq) == "1"
    assert page.locator("#board svg").count() == 1
    assert page.locator("#hands .hand").count() == 2
    assert page.locator("#hands .tile, #boneyard .tile").count() > 0

    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"{seq} === '2'")
    page.click("#prev")
    page.wait_for_function(f"{seq} === '1'")
    page.click("#last")
    page.wait_for_function(f"{seq} === '{match.moves_played}'")
    page.evaluate(
        "(n) => { const s = document.getElementById('slider'); s.value = String(n);"
        " s.dispatchEvent(new Event('input')); }",
        marked["seq"],
    )
    page.wait_for_function(f"{seq} === '{marked['seq']}'")
    page.wait_for_function(f"document.getElementById('replay').dataset.mark === '{marked['mark']}'")
    assert page.locator("#better").is_visible()
    assert page.locator("#better .tile").count() >= (1 if marked["best"]["tile"] else 0)
    assert page.locator("#mark").inner_text().strip()

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("window.xss") is None
    assert page.locator("#hands img, #accuracy img").count() == 0
    assert not violations(page)
    screenshot(page, "replay-phone")
