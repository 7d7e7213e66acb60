"""What users write cannot run in the pages, in a real browser: the reported exploit (a display
name that closed an attribute of scores.svg and added an element with an event handler) ends as
text, the chart still draws, and the Content-Security-Policy refuses any inline script; the API
docs draw every operation under it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Match
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.foundation.hostile import EXPLOIT
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory, token_for
from tests.games.helpers import play_turn

pytestmark = pytest.mark.django_db(transaction=True)

#: Before any page script: every policy violation the page reports, kept for the test to read.
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`);
});
"""


def watched(new_page: Any) -> Any:
    page = new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    return page


def violations(page: Any) -> list[str]:
    return page.evaluate("window.__violations")


def finished_match(names: list[str]) -> tuple[Match, list[Any]]:
    """A one-round Chicken Foot match of players called ``names``, dealt from a fixed seed and
    played to the end."""
    players = [PlayerFactory(user__username=f"p{i}", display_name=n) for i, n in enumerate(names)]
    seats = [SeatSpec(kind="creator")] + [SeatSpec(kind="open")] * (len(names) - 1)
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=seats, options={"rounds": 1}
    )
    for position, player in enumerate(players[1:], start=1):
        seat_join(match_id=match.pk, player=player, position=position)
    # one deal every run (the pages' layout tests measure its board)
    Match.objects.filter(pk=match.pk).update(seed="5eed" * 16)
    match_start(match_id=match.pk, player=players[0])
    clients = [client_for(p) for p in players]
    rng = random.Random(7)
    while play_turn(clients, match.pk, rng) is not None:
        pass
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match, players


def test_the_reported_exploit_runs_nothing_and_the_chart_still_draws(
    live_server: Any, new_page: Any, sign_in: Any, screenshot: Any
) -> None:
    # given a finished match with a player whose display name is the exploit
    match, players = finished_match(["Ada", EXPLOIT, "Grace"])

    # when someone else at the table opens its page
    page = watched(new_page)
    sign_in(page, live_server.url, token=token_for(players[0]), name="Ada", player_id=players[0].pk)
    response = page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#chart svg .point").first.wait_for()
    page.locator("#last-round svg").wait_for()
    page.wait_for_function("document.getElementById('table').dataset.live === 'over'")

    # then no script ran, no element came from the name, and the chart shows all three players
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert page.evaluate("window.xss") is None
    assert page.locator("#chart svg image, #last-round svg image, #board svg image").count() == 0
    series = page.locator("#chart svg .series")
    assert series.count() == 3
    names = [series.nth(i).get_attribute("data-series") for i in range(3)]
    assert names == ["Ada", EXPLOIT, "Grace"]
    assert page.locator("#chart svg .point").count() == 3 * 2  # start and round 1, each
    assert EXPLOIT in page.locator("#scores thead").inner_text()
    # each name in running text is a bidi isolate, holding the name as text
    standings = page.locator("#standings-list bdi")
    assert sorted(standings.all_inner_texts()) == sorted(["Ada", EXPLOIT, "Grace"])
    assert violations(page) == []
    screenshot(page, "hostile-name-table")


def test_the_policy_refuses_inline_script_and_the_pages_still_work(
    live_server: Any, new_page: Any, sign_in: Any
) -> None:
    player = PlayerFactory(user__username="ada", display_name="Ada")
    page = watched(new_page)
    sign_in(page, live_server.url, token=token_for(player), name="Ada", player_id=player.pk)
    response = page.goto(f"{live_server.url}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator("#lobby").wait_for(state="visible")  # the page's own module ran
    assert "Signed in as Ada" in page.locator("#account").inner_text()

    # an inline script and an inline event handler, as markup that slipped in would bring them
    page.evaluate("""() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = 1';
      document.body.append(script);
      const holder = document.createElement('div');
      holder.innerHTML = '<img src="data:," onload="window.injected = 2">'
        + '<img src="x" onerror="window.injected = 3">';
      document.body.append(holder);
    }""")
    page.wait_for_function("window.__violations.length >= 3")
    assert page.evaluate("window.injected") is None
    assert sorted(violations(page)) == [
        "script-src-attr inline",
        "script-src-attr inline",
        "script-src-elem inline",
    ]


#: The operations of the schema the pages draw: method, path, operation id, first tag.
SCHEMA_OPERATIONS = """async (url) => {
  const schema = await (await fetch(url)).json();
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  return Object.entries(schema.paths).flatMap(([path, item]) => Object.entries(item)
    .filter(([method]) => methods.includes(method))
    .map(([method, operation]) => [
      method.toUpperCase(), path, operation.operationId, operation.tags[0],
    ]));
}"""

#: The operations Swagger UI has in the page now, by method and path.
SWAGGER_DRAWN = """() => [...document.querySelectorAll('.swagger-ui .opblock')].map((block) => [
  block.querySelector('.opblock-summary-method').textContent,
  block.querySelector('.opblock-summary-path').dataset.path,
])"""

#: Scrolls the window down by half of it and waits for the page to draw what came into view.
SCROLL_ON = """() => new Promise((done) => {
  const before = window.scrollY;
  window.scrollBy(0, Math.round(window.innerHeight / 2));
  requestAnimationFrame(() => requestAnimationFrame(() => done(window.scrollY > before)));
})"""


def schema_operations(page: Any, base: str) -> list[tuple[str, str, str, str]]:
    """``(method, path, operation id, tag)`` of every operation of the schema the docs draw."""
    return [tuple(op) for op in page.evaluate(SCHEMA_OPERATIONS, f"{base}/api/schema/?format=json")]


def swagger_operations_scrolled(page: Any) -> set[tuple[str, str]]:
    """Every operation Swagger UI draws while a reader scrolls its page from top to bottom.

    Past 150 tags and operations Swagger UI draws its list virtualised: only the operations in
    and near the window are in the page at one time, the rest as they are scrolled to. So the
    operations in the page at any one moment are a window's worth, never the whole list.
    """
    drawn: set[tuple[str, str]] = set()
    for _ in range(1000):
        drawn |= {(method, path) for method, path in page.evaluate(SWAGGER_DRAWN)}
        if not page.evaluate(SCROLL_ON):
            return drawn
    raise AssertionError("Swagger UI's page never reached its bottom")


def test_swagger_ui_draws_every_operation_under_the_policy(live_server: Any, new_page: Any) -> None:
    # given the API docs in a browser that keeps to the page's policy
    swagger = watched(new_page)
    response = swagger.goto(f"{live_server.url}/api/docs/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    swagger.locator(".swagger-ui .opblock").first.wait_for()
    operations = schema_operations(swagger, live_server.url)
    assert len(operations) > 100

    # when a reader scrolls through it, then every operation of the schema is drawn
    assert swagger_operations_scrolled(swagger) == {(m, p) for m, p, _, _ in operations}
    assert violations(swagger) == []

    # and a link to the last operation opens it, though it is far from the top
    _, path, operation_id, tag = operations[-1]
    tag = tag.replace(" ", "_")  # as Swagger UI writes it in a link
    linked = watched(new_page)
    linked.goto(f"{live_server.url}/api/docs/#/{tag}/{operation_id}")
    opened = linked.locator(f"#operations-{tag}-{operation_id}.is-open")
    opened.wait_for()
    assert opened.locator(".opblock-summary-path").get_attribute("data-path") == path
    assert opened.is_visible()
    assert violations(linked) == []


def test_redoc_draws_every_operation_under_the_policy(live_server: Any, new_page: Any) -> None:
    redoc = watched(new_page)
    response = redoc.goto(f"{live_server.url}/api/redoc/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    redoc.get_by_role("heading", name="Chickenfoot API").first.wait_for()
    operations = schema_operations(redoc, live_server.url)
    last = operations[-1][2]
    redoc.locator(f'[data-section-id="operation/{last}"]').wait_for(state="attached")

    # every operation has its section in the page, and its entry in the menu
    sections = redoc.evaluate("""() => [...document.querySelectorAll('[data-section-id]')]
      .map((section) => section.dataset.sectionId)
      .filter((id) => id.startsWith('operation/'))""")
    assert sorted(sections) == sorted(f"operation/{op}" for _, _, op, _ in operations)
    menu = redoc.evaluate("""() => [...document.querySelectorAll('[role=menuitem][data-item-id]')]
      .map((item) => item.dataset.itemId.split('/operation/')[1])
      .filter(Boolean)""")
    assert sorted(menu) == sorted(op for _, _, op, _ in operations)
    # ReDoc's "by Redocly" logo is the one thing it fetches from outside: refused, as it should be
    assert [v for v in violations(redoc) if not v.startswith("img-src https://cdn.redoc.ly/")] == []


#: A picture as a compromised server (or a bug in a renderer) might send it.
RIGGED_SVG = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  width="100" height="50" onload="window.xss=4">
<script>window.xss=5</script>
<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
<a xlink:href="javascript:window.xss=6" href="javascript:window.xss=7">
  <text x="1" y="20">go</text></a>
<circle class="point" cx="5" cy="5" r="3" onclick="window.xss=8" data-series="Ada"/>
</svg>"""


def test_a_picture_brings_nothing_that_runs_into_the_page(
    live_server: Any, new_page: Any, sign_in: Any
) -> None:
    match, players = finished_match(["Ada", "Grace"])
    page = watched(new_page)
    page.route(
        "**/scores.svg?*",  # the page asks for a width
        lambda route: route.fulfill(status=200, content_type="image/svg+xml", body=RIGGED_SVG),
    )
    sign_in(page, live_server.url, token=token_for(players[0]), name="Ada", player_id=players[0].pk)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#chart svg .point").wait_for()
    chart = page.locator("#chart svg")
    assert chart.locator("script, foreignObject").count() == 0
    assert (
        page.evaluate("""() => [...document.querySelectorAll('#chart svg, #chart svg *')]
      .flatMap((n) => [...n.attributes].map((a) => `${a.name}=${a.value}`))
      .filter((a) => /^on|javascript:/i.test(a))""")
        == []
    )
    # (parsing the picture already reported its two handlers to the policy: nothing ran them)
    parsed = violations(page)
    page.locator("#chart svg a").click()
    page.locator("#chart svg .point").click()
    page.wait_for_timeout(200)
    assert page.evaluate("window.xss") is None
    assert violations(page) == parsed  # neither click had anything left to run
