"""The rating change on the leaderboards' scale: in history rows, a match's standings and the
rating list (``/api/players/{id}/ratings``), each equal to its ``RatingChange`` row."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.utils import timezone

from games.models import Player
from games.services import bot_player
from scoring.models import RatingChange
from scoring.services import match_finalise
from tests.games.conftest import client_for
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db


def shown(change: RatingChange) -> dict[str, int]:
    before = round(1000 + 40 * change.ordinal_before)
    after = round(1000 + 40 * change.ordinal_after)
    return {"before": before, "after": after, "delta": after - before}


def play(seated: list[Player], scores: list[list[int]], minute: int, variant: str = "chickenfoot"):
    at = timezone.now() - timedelta(days=1) + timedelta(minutes=minute)
    match = make_finished_match(seated=seated, scores=scores, finished_at=at, variant=variant)
    match_finalise(match_id=match.pk)
    return match


def test_every_history_row_carries_its_rating_change(players: list[Player]) -> None:
    ada, grace, alan, _ = players
    matches = [
        play([ada, grace], [[0, 5]], 1),
        play([grace, ada, alan], [[0, 5, 9]], 2),
        play([ada, alan], [[3, 0]], 3, "mexican_train"),
    ]

    rows = client_for(grace).get(f"/api/players/{ada.pk}/history").json()["results"]

    assert [r["match_id"] for r in rows] == [m.pk for m in reversed(matches)]
    for row in rows:
        change = RatingChange.objects.get(match_id=row["match_id"], player=ada)
        assert row["rating"] == shown(change)
    assert rows[2]["rating"]["before"] == 1000  # a new player shows 1000
    assert rows[1]["rating"]["before"] == rows[2]["rating"]["after"]  # the same game, in turn


def test_the_standings_of_a_match_and_of_my_matches_carry_the_rating_change(
    players: list[Player],
) -> None:
    ada, grace, alan, _ = players
    match = play([ada, grace, alan], [[0, 5, 9]], 1)
    client = client_for(ada)

    view = client.get(f"/api/matches/{match.pk}").json()["standings"]
    mine = client.get("/api/matches/mine").json()["results"][0]["standings"]

    assert view == mine
    for place in view:
        change = RatingChange.objects.get(match=match, player_id=place["player_id"])
        assert place["rating"] == shown(change)
    deltas = [p["rating"]["delta"] for p in view]
    assert deltas == sorted(deltas, reverse=True)
    assert deltas[0] > 0


def test_a_bot_at_two_seats_shows_its_one_change_on_both(players: list[Player]) -> None:
    bot = bot_player(level=2)
    match = play([players[0], bot, bot], [[4, 0, 9]], 1)
    change = RatingChange.objects.get(match=match, player=bot)

    standings = client_for(players[0]).get(f"/api/matches/{match.pk}").json()["standings"]
    history = client_for(players[0]).get(f"/api/players/{bot.pk}/history").json()["results"]

    assert [p["rating"] for p in standings if p["player_id"] == bot.pk] == [shown(change)] * 2
    assert sorted(row["seat"] for row in history) == [1, 2]
    assert [row["rating"] for row in history] == [shown(change)] * 2
    assert RatingChange.objects.filter(match=match).count() == 2


def test_the_rating_list_pages_newest_first_with_the_figures_of_each_change(
    players: list[Player],
) -> None:
    ada, grace = players[:2]
    for minute in range(5):
        play([ada, grace], [[0, 5]] if minute % 2 else [[5, 0]], minute)
    play([ada, grace], [[0, 5]], 9, "mexican_train")
    client = client_for(grace)

    first = client.get(f"/api/players/{ada.pk}/ratings?variant=chickenfoot&page_size=2").json()
    rest = []
    link = first["next"]
    while link:
        page = client.get(link).json()
        rest += page["results"]
        link = page["next"]

    rows = first["results"] + rest
    changes = list(RatingChange.objects.filter(player=ada, variant="chickenfoot").order_by("-id"))
    assert [r["match_id"] for r in rows] == [c.match_id for c in changes]
    for row, change in zip(rows, changes, strict=True):
        assert {k: row[k] for k in ("before", "after", "delta")} == shown(change)
        assert row["mu"] == pytest.approx(change.mu_after, abs=1e-4)
        assert row["ordinal"] == pytest.approx(change.ordinal_after, abs=1e-4)
    assert [r["before"] for r in rows[:-1]] == [r["after"] for r in rows[1:]]
    assert first["previous"] is None
    assert "count" not in first


def test_the_rating_list_refuses_what_it_does_not_know(players: list[Player]) -> None:
    client = client_for(players[0])
    base = f"/api/players/{players[0].pk}/ratings"

    no_variant = client.get(base)
    bad = client.get(f"{base}?variant=chess&page_size=0")
    unknown = client.get(f"{base}?variant=chickenfoot&sort=asc")
    nobody = client.get("/api/players/999999/ratings?variant=chickenfoot")
    empty = client.get(f"{base}?variant=mexican_train")

    assert no_variant.status_code == HTTPStatus.BAD_REQUEST
    assert set(bad.json()["errors"]) == {"variant", "page_size"}
    assert unknown.status_code == HTTPStatus.BAD_REQUEST
    assert nobody.status_code == HTTPStatus.NOT_FOUND
    assert nobody.json()["code"] == "player_not_found"
    assert empty.json()["results"] == []
