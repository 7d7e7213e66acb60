"""A finished tournament's standings page in a real browser: the table the database ranked,
shared ranks marked, each name a link to the player's page, and the points-by-stage chart."""

from __future__ import annotations

import random
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

from games.models import Player
from scoring.models import Competition
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory, token_for
from tests.games.paper_reading import page_texts
from tests.scoring.competitions.drive import play_matches

pytestmark = pytest.mark.django_db(transaction=True)

TOURNAMENT = {
    "kind": "tournament",
    "name": "Wall chart open",
    "variant": "chickenfoot",
    "options": {"max_pip": 6, "rounds": 1},
    "table_size": 3,
    "allow_bots": True,
    "stage_count": 2,
}


def finished_tournament(players: list[Player]) -> tuple[int, dict[str, Any]]:
    """A two-stage tournament of ``players`` played to the end through the API."""
    organiser = client_for(PlayerFactory(is_organiser=True))
    created = organiser.post("/api/competitions", TOURNAMENT, format="json")
    assert created.status_code == HTTPStatus.CREATED, created.content
    base = f"/api/competitions/{created.json()['id']}"
    clients = {p.pk: client_for(p) for p in players}
    for client in clients.values():
        assert client.post(f"{base}/register").status_code == HTTPStatus.OK
    organiser.post(f"{base}/close")
    rng = random.Random(3)
    for number in (1, 2):
        stage = organiser.post(f"{base}/stages", {"number": number}, format="json")
        assert stage.status_code == HTTPStatus.CREATED, stage.content
        play_matches([t["match_id"] for t in stage.json()["tables"]], clients, rng)
    standings = organiser.get(f"{base}/standings").json()
    assert standings["final"] is True
    return created.json()["id"], standings


def test_the_standings_page_of_a_finished_tournament(
    live_server: Any, new_page: Any, screenshot: Any, sign_in: Any
) -> None:
    players = [PlayerFactory(user__username=f"w{i}", display_name=f"Walker {i}") for i in range(5)]
    competition_id, body = finished_tournament(players)

    page = new_page()
    sign_in(
        page,
        live_server.url,
        token=token_for(players[0]),
        name="Walker 0",
        player_id=players[0].pk,
    )
    page.goto(f"{live_server.url}/competitions/{competition_id}/")
    page.wait_for_function("document.getElementById('competition').dataset.loaded === 'true'")

    assert page.locator("#competition-name").inner_text() == "Wall chart open"
    assert "final standings" in page.locator("#competition-status").inner_text()
    rows = page.locator("#standings-table tbody tr")
    assert rows.count() == len(body["standings"])
    for index, row in enumerate(body["standings"]):
        cells = rows.nth(index).locator("td").all_inner_texts()
        rank = f"{'=' if row['shared'] else ''}{row['rank']}"
        assert cells[:2] == [rank, row["name"]]
        assert float(cells[4]) == row["placement_points"]
    assert page.locator("#standings-order").inner_text() == (
        "Ranked by: Placement points · Wins · Pips a round · Head-to-head"
    )
    headings = page.locator("#standings-table thead th").all_inner_texts()
    assert headings[-2:] == ["Head-to-head", "Rating"]  # a column for each tie-break used
    assert "Buchholz" not in headings
    link = rows.first.locator("a")
    assert link.get_attribute("href") == f"/players/{body['standings'][0]['player_id']}/"
    series = page.locator("#by-stage svg .series")
    assert series.count() == min(12, len(body["standings"]))
    leader = body["standings"][0]
    final_point = page.locator(
        f"#by-stage svg .point[data-series='{leader['name']}'][data-step='S2']"
    )
    assert float(final_point.get_attribute("data-value")) == leader["placement_points"]
    screenshot(page, "tournament-standings")

    # the printed sheets: not offered to a player while the competition is private; once it
    # is public, a button saves each PDF, fetched with the page's token
    assert page.locator("#sheets").is_hidden()
    Competition.objects.filter(pk=competition_id).update(public=True)
    page.reload()
    page.wait_for_function("document.getElementById('competition').dataset.loaded === 'true'")
    for sheet, words in (("standings", "Final standings"), ("crosstable", "Final crosstable")):
        with page.expect_download() as download:
            page.click(f"#sheets button[data-sheet='{sheet}']")
        assert download.value.suggested_filename == f"competition-{competition_id}-{sheet}.pdf"
        document = Path(download.value.path()).read_bytes()
        assert document.startswith(b"%PDF-")
        assert words in " ".join(page_texts(document))
