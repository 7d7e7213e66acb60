"""History, statistics, head-to-head and the leaderboard through the API."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.services.leaving import match_abandon
from scoring.models import CompetitionMatch, MatchResult, Rating
from scoring.services import match_finalise
from tests.games.conftest import client_for
from tests.games.factories import BotFactory, PlayerFactory
from tests.games.schema_check import openapi
from tests.scoring.competitions.conftest import make_competition
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db

Clock = Callable[[int], datetime]


def finish(
    seated: list[Player], scores: list[list[int]], at: datetime, variant: str = "chickenfoot"
):
    match = make_finished_match(seated=seated, scores=scores, finished_at=at, variant=variant)
    match_finalise(match_id=match.pk)
    return match


@pytest.fixture
def league(players: list[Player], clock: Clock) -> list:
    """Six finished matches of the four players (ada = players[0] in all but the last)."""
    ada, grace, alan, edsger = players
    return [
        finish([ada, grace, alan], [[0, 5, 9], [3, 0, 9]], clock(1)),  # ada 1st
        finish([grace, ada, alan], [[0, 5, 9], [3, 0, 9]], clock(2)),  # grace 1st, ada 2nd
        finish([ada, edsger], [[10, 0], [10, 2]], clock(3), "mexican_train"),  # ada 2nd
        finish([alan, ada, grace], [[4, 4, 9], [4, 4, 9]], clock(4)),  # alan, ada share 1st
        finish([ada, grace, edsger, alan], [[1, 2, 3, 4]], clock(5)),  # ada 1st
        finish([grace, alan], [[1, 2]], clock(6)),  # ada absent
    ]


def history(client: APIClient, player: Player, **params: object):
    return client.get(f"/api/players/{player.pk}/history", params)


def match_ids(response) -> list[int]:
    assert response.status_code == HTTPStatus.OK, response.content
    return [row["match_id"] for row in response.json()["results"]]


def test_history_lists_the_players_matches_newest_first_with_everyone_at_the_table(
    players: list[Player], clients: list[APIClient], league: list
) -> None:
    body = history(clients[1], players[0]).json()

    assert [row["match_id"] for row in body["results"]] == [m.pk for m in league[4::-1]]
    newest = body["results"][0]
    assert newest["place"] == 1
    assert newest["seat"] == 0
    assert newest["decided_by"] == "total"
    assert [s["name"] for s in newest["seats"]] == ["Ada", "Grace", "Edsger", "Alan"]
    assert [s["player_id"] for s in newest["seats"]] == [
        p.pk for p in (players[0], players[1], players[3], players[2])
    ]
    shared = body["results"][1]
    assert shared["place"] == 1
    assert shared["decided_by"] == "shared"


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"variant": "mexican_train"}, [2]),
        ({"variant": "chickenfoot"}, [4, 3, 1, 0]),
        ({"place": 1}, [4, 3, 0]),
        ({"place": 2}, [2, 1]),
        ({"opponent": "edsger"}, [4, 2]),
        ({"opponent": "alan", "place": 1}, [4, 3, 0]),
        ({"opponent": "alan", "place": 1, "variant": "chickenfoot", "after": 2}, [4, 3]),
        ({"after": 2, "before": 4}, [2, 1]),
        ({"status": "finished", "opponent": "grace", "place": 2}, [1]),
    ],
)
def test_history_filters_combine(
    players: list[Player],
    clients: list[APIClient],
    league: list,
    clock: Clock,
    params: dict,
    expected: list[int],
) -> None:
    by_name = {p.user.username: p for p in players}
    query = dict(params)
    if "opponent" in query:
        query["opponent"] = by_name[query["opponent"]].pk
    if "after" in query:
        query["finished_after"] = clock(query.pop("after")).isoformat()
    if "before" in query:
        query["finished_before"] = clock(query.pop("before")).isoformat()

    assert match_ids(history(clients[1], players[0], **query)) == [league[i].pk for i in expected]


def test_finished_after_includes_its_instant_and_finished_before_excludes_it(
    players: list[Player], clients: list[APIClient], league: list, clock: Clock
) -> None:
    at = clock(3).isoformat()  # league[2] finished at this very instant

    assert league[2].pk in match_ids(history(clients[1], players[0], finished_after=at))
    assert league[2].pk not in match_ids(history(clients[1], players[0], finished_before=at))
    window = {"finished_after": clock(3).isoformat(), "finished_before": clock(4).isoformat()}
    assert match_ids(history(clients[1], players[0], **window)) == [league[2].pk]


@pytest.fixture
def competitions(league: list) -> dict[str, int]:
    """A tournament counting league[0], league[3] and league[5]; a league counting league[4]."""
    organiser = PlayerFactory(display_name="Olga", is_organiser=True)
    tournament = make_competition(organiser)
    season = make_competition(organiser, kind="league", name="Thursday league")
    for i in (0, 3, 5):
        CompetitionMatch.objects.create(competition=tournament, match=league[i])
    CompetitionMatch.objects.create(competition=season, match=league[4])
    return {"tournament": tournament.pk, "league": season.pk}


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"competition": "tournament"}, [3, 0]),
        ({"competition": "league"}, [4]),
        ({"competition": "tournament", "place": 1}, [3, 0]),
        ({"competition": "tournament", "opponent": "grace", "after": 2}, [3]),
        ({"competition": "tournament", "variant": "mexican_train"}, []),
        ({"competition": "league", "status": "finished", "opponent": "edsger"}, [4]),
        ({"competition": "league", "place": 2}, []),
    ],
)
def test_history_filter_by_tournament_or_league_combines_with_the_others(
    players: list[Player],
    clients: list[APIClient],
    league: list,
    competitions: dict[str, int],
    clock: Clock,
    params: dict,
    expected: list[int],
) -> None:
    by_name = {p.user.username: p for p in players}
    query = dict(params, competition=competitions[params["competition"]])
    if "opponent" in query:
        query["opponent"] = by_name[query["opponent"]].pk
    if "after" in query:
        query["finished_after"] = clock(query.pop("after")).isoformat()

    assert match_ids(history(clients[1], players[0], **query)) == [league[i].pk for i in expected]


@pytest.mark.parametrize("value", ["999999", "spring", "1.5", "-1", ""])
def test_a_competition_filter_naming_no_competition_is_a_400(
    players: list[Player], clients: list[APIClient], league: list, value: str
) -> None:
    response = history(clients[1], players[0], competition=value)

    # an empty value is refused too, as for every filter: it must not answer every match
    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert "competition" in response.json()["errors"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"variant": "chess"}, "variant"),
        ({"place": "first"}, "place"),
        ({"place": "1.5"}, "place"),
        ({"place": "0"}, "place"),
        ({"opponent": "-3"}, "opponent"),
        ({"opponent": "999999"}, "opponent"),
        ({"finished_after": "yesterday"}, "finished_after"),
        ({"status": "won"}, "status"),
        ({"status": "abandoned"}, "status"),  # a history holds finished matches only
        ({"varaint": "chickenfoot"}, "varaint"),
        ({"cursor": "not-a-cursor"}, "cursor"),
        ({"page_size": "many"}, "page_size"),
        ({"variant": ""}, "variant"),
    ],
)
def test_a_bad_filter_value_is_a_400_problem_not_an_empty_page(
    players: list[Player], clients: list[APIClient], league: list, params: dict, field: str
) -> None:
    response = history(clients[1], players[0], **params)

    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "invalid"
    assert field in body["errors"]


def test_history_of_an_unknown_player_is_a_404_problem(clients: list[APIClient]) -> None:
    response = clients[0].get("/api/players/999999/history")

    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response["Content-Type"] == "application/problem+json"
    assert (response.json()["code"], response.json()["title"]) == (
        "player_not_found",
        "No such player",
    )


def test_history_needs_a_token(players: list[Player]) -> None:
    response = APIClient().get(f"/api/players/{players[0].pk}/history")

    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert response["Content-Type"] == "application/problem+json"


def test_cursor_pages_stay_stable_while_new_matches_finish(
    players: list[Player], clients: list[APIClient], clock: Clock
) -> None:
    # given: 7 matches of ada's, read two at a time
    ada, grace = players[:2]
    made = [finish([ada, grace], [[i % 3, 2]], clock(10 + i)) for i in range(7)]
    first = history(clients[0], ada, page_size=2).json()
    assert [r["match_id"] for r in first["results"]] == [made[6].pk, made[5].pk]

    # when: more matches finish (two at the same instant as the newest already seen) between pages
    finish([ada, grace], [[1, 1]], clock(30))
    finish([ada, grace], [[0, 1]], clock(16))
    pages = []
    url = first["next"]
    while url:
        body = clients[0].get(url).json()
        pages.append([r["match_id"] for r in body["results"]])
        url = body["next"]

    # then: the older pages are exactly what was there, in order, no repeats, no gaps
    assert pages == [[made[4].pk, made[3].pk], [made[2].pk, made[1].pk], [made[0].pk]]


def test_statistics_aggregate_the_players_results(
    players: list[Player], clients: list[APIClient], league: list
) -> None:
    body = clients[2].get(f"/api/players/{players[0].pk}/stats").json()

    assert body["matches"] == 5
    assert body["wins"] == 3  # a shared first place is a win
    assert body["win_share"] == 0.6
    # ada's rounds: [0,3] [5,0] [10,10] [4,4] [1] = 37 points over 9 rounds, 2 at zero
    assert body["rounds"] == 9
    assert body["mean_round_score"] == round(37 / 9, 3)
    assert body["rounds_at_zero"] == 2
    assert body["best_round"] == 1  # the lowest non-zero round: the zeros are rounds_at_zero
    assert {r["variant"] for r in body["ratings"]} == {"chickenfoot", "mexican_train"}
    chickenfoot = next(r for r in body["ratings"] if r["variant"] == "chickenfoot")
    assert chickenfoot["matches"] == 4
    assert chickenfoot["trend_matches"] == 4
    assert len(chickenfoot["recent"]) == 4
    assert chickenfoot["trend"] == pytest.approx(chickenfoot["ordinal"] - 0.0, abs=1e-3)
    assert chickenfoot["display"] == round(1000 + 40 * chickenfoot["ordinal"])
    # the trend on the display scale: from 1000 (ordinal 0 before the first match) to now
    assert chickenfoot["display_trend"] == chickenfoot["display"] - 1000


def test_statistics_of_one_variant_and_of_a_player_without_matches(
    players: list[Player], clients: list[APIClient], league: list
) -> None:
    mexican = clients[0].get(f"/api/players/{players[0].pk}/stats?variant=mexican_train").json()
    newcomer = PlayerFactory()
    empty = clients[0].get(f"/api/players/{newcomer.pk}/stats").json()

    assert (mexican["matches"], mexican["wins"], mexican["best_round"]) == (1, 0, 10)
    assert [r["variant"] for r in mexican["ratings"]] == ["mexican_train"]
    assert empty["matches"] == 0
    assert empty["win_share"] is None
    assert empty["mean_round_score"] is None
    assert empty["best_round"] is None
    assert empty["ratings"] == []
    bad = clients[0].get(f"/api/players/{players[0].pk}/stats?variant=go")
    assert bad.status_code == HTTPStatus.BAD_REQUEST


def test_head_to_head_with_oneself_is_a_400_problem(
    players: list[Player], clients: list[APIClient], league: list
) -> None:
    ada = players[0]

    response = clients[1].get(f"/api/players/{ada.pk}/head-to-head/{ada.pk}")

    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "invalid"
    assert body["errors"] == {"opponent_id": ["A player has no head-to-head with themselves."]}


def test_head_to_head_with_an_unknown_player_is_a_404_problem(
    players: list[Player], clients: list[APIClient]
) -> None:
    response = clients[1].get(f"/api/players/{players[0].pk}/head-to-head/999999")

    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response.json()["code"] == "player_not_found"


def test_head_to_head_counts_who_placed_higher(
    players: list[Player], clients: list[APIClient], league: list
) -> None:
    ada, grace, alan, _ = players

    body = clients[3].get(f"/api/players/{ada.pk}/head-to-head/{grace.pk}").json()
    with_alan = clients[3].get(f"/api/players/{ada.pk}/head-to-head/{alan.pk}").json()

    # ada and grace: matches 0 (ada 1st, grace 2nd), 1 (grace 1st), 3 (ada 1=, grace 3rd), 4
    assert body["matches"] == 4
    assert (body["player_placed_higher"], body["opponent_placed_higher"], body["level"]) == (
        3,
        1,
        0,
    )
    assert (body["player_wins"], body["opponent_wins"]) == (3, 1)
    assert body["player_points"] == 3 + 5 + 8 + 1
    assert body["opponent_points"] == 5 + 3 + 18 + 2
    assert with_alan["level"] == 1  # match 3: they shared first place
    reverse = clients[3].get(f"/api/players/{grace.pk}/head-to-head/{ada.pk}").json()
    assert reverse["player_placed_higher"] == body["opponent_placed_higher"]
    one_variant = (
        clients[3]
        .get(f"/api/players/{ada.pk}/head-to-head/{grace.pk}?variant=mexican_train")
        .json()
    )
    assert one_variant["matches"] == 0


def test_head_to_head_with_an_unknown_player_is_a_404(
    players: list[Player], clients: list[APIClient]
) -> None:
    response = clients[0].get(f"/api/players/{players[0].pk}/head-to-head/999999")

    assert response.status_code == HTTPStatus.NOT_FOUND


def test_leaderboard_ranks_by_ordinal_with_bots_when_asked_for(
    players: list[Player], clients: list[APIClient], clock: Clock
) -> None:
    ada, grace = players[:2]
    bot = BotFactory()
    for minute in range(4):
        finish([ada, grace, bot], [[0, 5, 9]], clock(minute))
    finish([players[2], players[3]], [[1, 2]], clock(9))

    body = clients[0].get("/api/leaderboards/chickenfoot?bots=true").json()
    regulars = clients[0].get("/api/leaderboards/chickenfoot?min_matches=2&bots=true").json()
    people = clients[0].get("/api/leaderboards/chickenfoot").json()

    rows = body["results"]
    assert body["count"] == 5
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    assert rows[0]["player_id"] == ada.pk
    ordinals = [r["ordinal"] for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    assert any(r["kind"] == "bot" and r["player_id"] == bot.pk for r in rows)
    assert all(r["display"] == round(1000 + 40 * r["ordinal"]) for r in rows)
    assert [r["player_id"] for r in regulars["results"]] == [ada.pk, grace.pk, bot.pk]
    assert people["count"] == 4
    assert all(r["kind"] == "human" for r in people["results"])
    assert clients[0].get("/api/leaderboards/mexican_train").json()["count"] == 0


def test_leaderboard_pages_and_refuses_bad_input(
    players: list[Player], clients: list[APIClient], league: list
) -> None:
    page = clients[0].get("/api/leaderboards/chickenfoot?page_size=2&page=2").json()

    assert [r["rank"] for r in page["results"]] == [3, 4]
    assert clients[0].get("/api/leaderboards/chess").status_code == HTTPStatus.NOT_FOUND
    bad = clients[0].get("/api/leaderboards/chickenfoot?min_matches=0")
    assert bad.status_code == HTTPStatus.BAD_REQUEST
    assert bad.json()["errors"] == {
        "min_matches": ["Ensure this value is greater than or equal to 1."]
    }
    assert (
        clients[0].get("/api/leaderboards/chickenfoot?page=9").status_code == HTTPStatus.NOT_FOUND
    )


def test_reads_change_nothing(players: list[Player], league: list) -> None:
    client = client_for(players[0])
    before = (MatchResult.objects.count(), list(Rating.objects.values_list("mu", flat=True)))
    client.get(f"/api/players/{players[0].pk}/history?place=x")
    client.get(f"/api/players/{players[0].pk}/stats")
    assert before == (
        MatchResult.objects.count(),
        list(Rating.objects.values_list("mu", flat=True)),
    )


def test_an_abandoned_match_is_in_no_history_but_in_its_players_own_list(
    players: list[Player],
    clients: list[APIClient],
    league: list,
    started_match: Callable[..., Match],
) -> None:
    # given: a match of ada's abandoned by its creator
    match = started_match()
    match_abandon(match_id=match.pk, player=match.created_by)

    # then: her history lists her finished matches only; her own list has the abandoned one
    assert match_ids(history(clients[1], players[0])) == [league[i].pk for i in (4, 3, 2, 1, 0)]
    mine = client_for(match.created_by).get("/api/matches/mine", {"status": "abandoned"})
    assert [row["id"] for row in mine.json()["results"]] == [match.pk]
    # and the schema offers no filter value that could only ever find nothing
    parameters = openapi()["paths"]["/api/players/{player_id}/history"]["get"]["parameters"]
    status = next(p for p in parameters if p["name"] == "status")
    assert status["schema"]["enum"] == ["finished"]
