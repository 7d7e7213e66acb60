"""A player's profile (``GET /api/players/{id}``) and finding a player by name
(``GET /api/players?search=``)."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from chickenfoot.env import env_rate
from games.models import Player
from scoring.services import match_finalise
from tests.games.conftest import client_for
from tests.games.factories import BotFactory, PlayerFactory
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script> & "Ada\'s"'


def finish(
    seated: list[Player], scores: list[list[int]], minutes: int, variant: str = "chickenfoot"
):
    at = timezone.now() - timedelta(days=1) + timedelta(minutes=minutes)
    match = make_finished_match(seated=seated, scores=scores, finished_at=at, variant=variant)
    match_finalise(match_id=match.pk)
    return match


@pytest.fixture
def played(players: list[Player]) -> list:
    """Seven finished matches: ada in six of them."""
    ada, grace, alan, edsger = players
    return [
        finish([ada, grace], [[0, 5]], 1),
        finish([grace, ada], [[0, 5]], 2),
        finish([ada, edsger], [[10, 0]], 3, "mexican_train"),
        finish([ada, alan, grace], [[4, 4, 9]], 4),
        finish([ada, grace, edsger, alan], [[1, 2, 3, 4]], 5),
        finish([alan, ada], [[3, 7]], 6),
        finish([grace, alan], [[1, 2]], 7),
    ]


def profile(client: APIClient, player: Player) -> Any:
    return client.get(f"/api/players/{player.pk}")


def test_a_profile_shows_the_player_their_ranks_figures_and_latest_results(
    players: list[Player], clients: list[APIClient], played: list
) -> None:
    ada = players[0]

    response = profile(clients[1], ada)

    assert response.status_code == HTTPStatus.OK, response.content
    body = response.json()
    assert body["id"] == ada.pk
    assert body["name"] == "Ada"
    assert body["kind"] == "human"
    # no upload: the initials, served from the address of their SVG's bytes
    assert body["avatar_url"].startswith(f"http://testserver/api/players/{ada.pk}/avatar/")
    assert body["avatar_url"].endswith(".svg")
    assert body["avatar_small_url"] == body["avatar_url"]
    assert body["hidden"] is False
    assert body["joined"] is not None
    # the figures are the statistics endpoint's
    stats = clients[1].get(f"/api/players/{ada.pk}/stats").json()
    assert body["statistics"] == {
        name: stats[name] for name in ("matches", "wins", "rounds_at_zero", "best_round")
    }
    assert body["statistics"]["matches"] == 6
    # each rating carries the rank the leaderboard gives it
    for rating in body["ratings"]:
        board = clients[1].get(f"/api/leaderboards/{rating['variant']}").json()["results"]
        (row,) = [row for row in board if row["player_id"] == ada.pk]
        assert rating["rank"] == row["rank"]
        assert rating["display"] == row["display"]
    assert {r["variant"] for r in body["ratings"]} == {"chickenfoot", "mexican_train"}
    # the latest five, newest first, as the history shows them
    assert [r["match_id"] for r in body["recent_results"]] == [m.pk for m in played[5:0:-1]]
    history = clients[1].get(f"/api/players/{ada.pk}/history").json()["results"]
    assert body["recent_results"] == history[:5]


def test_a_player_without_results_has_an_empty_profile_not_an_error(
    players: list[Player], clients: list[APIClient]
) -> None:
    body = profile(clients[0], players[3]).json()

    assert body["ratings"] == []
    assert body["statistics"] == {"matches": 0, "wins": 0, "rounds_at_zero": 0, "best_round": None}
    assert body["recent_results"] == []


def test_a_bot_is_ranked_among_the_bots(players: list[Player], clients: list[APIClient]) -> None:
    bot = BotFactory(bot_level=3)
    finish([bot, players[0]], [[0, 9]], 1)

    body = profile(clients[0], bot).json()

    assert body["kind"] == "bot"
    assert body["ratings"][0]["rank"] == 1  # the only bot on the bots' leaderboard


def test_a_hostile_display_name_is_data(clients: list[APIClient]) -> None:
    hostile = PlayerFactory(user__username="mallory", display_name=HOSTILE)

    response = profile(clients[0], hostile)

    assert response["Content-Type"].startswith("application/json")
    assert response.json()["name"] == HOSTILE


def test_a_deleted_account_shows_its_anonymous_name_only(
    players: list[Player], clients: list[APIClient], played: list
) -> None:
    edsger = players[3]
    assert clients[3].post("/api/players/me/delete", {"password": "a-long-enough-passphrase"},
                           format="json").status_code == HTTPStatus.NO_CONTENT  # fmt: skip
    edsger.refresh_from_db()

    body = profile(clients[0], edsger).json()

    assert body["hidden"] is True
    assert body["name"] == edsger.display_name
    assert body["joined"] is body["ratings"] is body["statistics"] is body["recent_results"] is None


def test_an_unknown_player_is_a_404_problem(clients: list[APIClient]) -> None:
    response = clients[0].get("/api/players/999999")

    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == "player_not_found"


def test_a_profile_needs_a_signed_in_caller(players: list[Player]) -> None:
    response = APIClient().get(f"/api/players/{players[0].pk}")

    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert response.json()["code"] == "not_authenticated"


# --- search ---


def search(client: APIClient, **params: object) -> Any:
    return client.get("/api/players", params)


def names(response: Any) -> list[str]:
    assert response.status_code == HTTPStatus.OK, response.content
    return [row["name"] for row in response.json()["results"]]


def test_search_finds_display_names_and_usernames_by_their_start_without_regard_to_case(
    players: list[Player], clients: list[APIClient]
) -> None:
    PlayerFactory(user__username="lovelace", display_name="Countess")
    PlayerFactory(user__username="zed", display_name="ADAMANT")

    assert names(search(clients[1], search="ada")) == ["Ada", "ADAMANT"]
    assert names(search(clients[1], search="LOVE")) == ["Countess"]
    assert names(search(clients[1], search="  gra  ")) == []  # grace is the caller
    assert names(search(clients[0], search="gra")) == ["Grace"]
    assert names(search(clients[0], search="ace")) == []  # a start, not a part


def test_search_lists_no_guest_bot_deleted_account_or_caller(
    players: list[Player], clients: list[APIClient]
) -> None:
    Player.objects.create(kind=Player.Kind.GUEST, display_name="Adalbert")
    BotFactory(display_name="Adabot")
    gone = PlayerFactory(user__username="adagone", display_name="Ada Gone")
    assert client_for(gone).post("/api/players/me/delete", {"password": "a-long-enough-passphrase"},
                                 format="json").status_code == HTTPStatus.NO_CONTENT  # fmt: skip

    assert names(search(clients[1], search="ada")) == ["Ada"]
    assert names(search(clients[0], search="ada")) == []


def test_search_rows_carry_id_name_kind_and_avatar_never_a_username(
    players: list[Player], clients: list[APIClient]
) -> None:
    PlayerFactory(user__username="mallory", display_name=HOSTILE)

    body = search(clients[0], search="mal").json()

    assert body["count"] == 1
    (row,) = body["results"]
    assert set(row) == {"id", "name", "kind", "avatar_url", "avatar_small_url"}
    assert (row["name"], row["kind"]) == (HOSTILE, "human")
    assert clients[0].get(row["avatar_url"]).status_code == HTTPStatus.OK


def test_search_is_paged(players: list[Player], clients: list[APIClient]) -> None:
    for n in range(5):
        PlayerFactory(user__username=f"twin{n}", display_name=f"Twin {n}")

    first = search(clients[0], search="twin", page_size=2).json()
    last = search(clients[0], search="twin", page_size=2, page=3).json()

    assert first["count"] == 5
    assert [r["name"] for r in first["results"]] == ["Twin 0", "Twin 1"]
    assert first["next"] is not None
    assert [r["name"] for r in last["results"]] == ["Twin 4"]
    assert last["next"] is None
    past = search(clients[0], search="twin", page_size=2, page=4)
    assert past.status_code == HTTPStatus.NOT_FOUND
    assert past["Content-Type"].startswith("application/problem+json")


@pytest.mark.parametrize(
    "params",
    [{}, {"search": ""}, {"search": "ad"}, {"search": "  ad  "}, {"search": "a" * 65}],
)
def test_search_refuses_a_missing_or_short_text_naming_search(
    clients: list[APIClient], params: dict[str, str]
) -> None:
    response = search(clients[0], **params)

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert response["Content-Type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["code"] == "invalid"
    assert list(problem["errors"]) == ["search"]


def test_search_refuses_an_unknown_parameter(clients: list[APIClient]) -> None:
    response = search(clients[0], search="ada", kind="bot")

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert list(response.json()["errors"]) == ["kind"]


def test_search_needs_a_signed_in_caller_and_registering_still_needs_none(
    players: list[Player],
) -> None:
    anonymous = APIClient()

    assert search(anonymous, search="ada").status_code == HTTPStatus.UNAUTHORIZED
    registered = anonymous.post(
        "/api/players", {"username": "newcomer", "password": "correct horse battery"},
        format="json",
    )  # fmt: skip
    assert registered.status_code == HTTPStatus.CREATED, registered.content


def test_search_is_limited_per_player(
    settings: Any, players: list[Player], clients: list[APIClient]
) -> None:
    cache.clear()
    settings.THROTTLE_RATES = {"player_search": env_rate("UNUSED", "2/min")}

    answers = [search(clients[0], search="gra").status_code for _ in range(3)]

    assert answers == [HTTPStatus.OK, HTTPStatus.OK, HTTPStatus.TOO_MANY_REQUESTS]
    assert search(clients[1], search="ada").status_code == HTTPStatus.OK  # another player's own
    refused = search(clients[0], search="gra")
    assert refused.json()["code"] == "throttled"
    assert "Retry-After" in refused
