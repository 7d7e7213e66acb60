"""Tie-breaks in the organiser's order (docs/scoring.md, "Standings"): each key's value worked
out by hand on one small Swiss, and the same ties broken differently by different orders."""

from __future__ import annotations

import csv
import io
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Player
from scoring.competitions import totals
from scoring.competitions.ranking import buchholz_terms, median_buchholz
from scoring.competitions.standings import ranked_player_ids, standings
from scoring.models import Competition, CompetitionMatch, CompetitionResult, Registration, Stage
from scoring.services import match_finalise
from tests.games.conftest import client_for
from tests.games.factories import BotFactory, PlayerFactory
from tests.scoring.competitions.conftest import make_competition
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def swiss(organiser: Player, order: list[str] | None = None) -> Competition:
    """Six players, tables of two (3 points a win, 1 a loss), three stages of one round each,
    the winner on 0 pips (a round at zero), the loser on the pips shown:

    - stage 1: Ann beats Ben (10), Cat beats Dan (4), Eve beats Fay (8);
    - stage 2: Cat beats Ann (6), Ben beats Eve (12), Fay beats Dan (2);
    - stage 3: Fay beats Ann (9), Ben beats Cat (3), Dan beats Eve (5).

    By hand: Ben, Cat and Fay have 7 points and 2 wins; Ann, Dan and Eve 5 points and 1 win.
    Pips (a round each stage): Ann 15, Ben 10, Cat 3, Dan 6, Eve 17, Fay 8. Buchholz (one
    opponent a table, so each term is that opponent's points): Ben 5+5+7 = 17, Cat 5+5+7 = 17,
    Fay 5+5+5 = 15, Ann 7+7+7 = 21, Dan 7+7+5 = 19, Eve 7+7+5 = 19; the median of three terms
    is the middle one: Ben 5, Cat 5, Fay 5, Ann 7, Dan 7, Eve 7. Head-to-head: Ben beat Cat
    (Fay met neither), Dan beat Eve (Ann met neither).
    """
    fields: dict[str, Any] = {"table_size": 2, "stage_count": 3}
    if order is not None:
        fields["tie_breaks"] = order
    tournament = make_competition(organiser, **fields)
    people = {name: PlayerFactory(display_name=name) for name in NAMES}
    for player in people.values():
        Registration.objects.create(
            competition=tournament, player=player, registered_at=tournament.created_at
        )
    Competition.objects.filter(pk=tournament.pk).update(status="running", current_stage=3)
    stages = [
        [("Ann", "Ben", 10), ("Cat", "Dan", 4), ("Eve", "Fay", 8)],
        [("Cat", "Ann", 6), ("Ben", "Eve", 12), ("Fay", "Dan", 2)],
        [("Fay", "Ann", 9), ("Ben", "Cat", 3), ("Dan", "Eve", 5)],
    ]
    for number, tables in enumerate(stages, start=1):
        stage = Stage.objects.create(
            competition=tournament, number=number, started_at=tournament.created_at
        )
        stage_play(
            tournament,
            stage,
            [([people[winner], people[loser]], [[0, pips]]) for winner, loser, pips in tables],
        )
    tournament.refresh_from_db()
    return tournament


def stage_play(
    competition: Competition, stage: Stage, tables: list[tuple[list[Player], list[list[int]]]]
) -> None:
    """Every table of ``stage`` seated first (so that it finishes with its last table), then
    each match's results written by the end-of-match service."""
    matches = [make_finished_match(seated=seated, scores=scores) for seated, scores in tables]
    for number, match in enumerate(matches, start=1):
        CompetitionMatch.objects.create(
            competition=competition, match=match, stage=stage, table_number=number
        )
    for match in matches:
        assert match_finalise(match_id=match.pk).written


def ranks(competition: Competition) -> list[tuple[int | None, str]]:
    return [(row["rank"], row["name"]) for row in standings(competition=competition)]


def test_the_default_order_is_points_wins_mean_pips_then_head_to_head(organiser: Player) -> None:
    tournament = swiss(organiser)

    rows = standings(competition=tournament)

    assert tournament.tie_breaks == [
        "placement_points",
        "wins",
        "mean_points_per_round",
        "head_to_head",
    ]
    # 7 points, 2 wins each: pips a round Cat 1, Fay 2.667, Ben 3.333; 5 points: Dan 2, Ann 5,
    # Eve 5.667; nobody is still tied when head-to-head is reached
    assert [(r["rank"], r["name"], r["mean_points_per_round"]) for r in rows] == [
        (1, "Cat", 1.0),
        (2, "Fay", 2.667),
        (3, "Ben", 3.333),
        (4, "Dan", 2.0),
        (5, "Ann", 5.0),
        (6, "Eve", 5.667),
    ]
    assert {r["head_to_head"] for r in rows} == {0}
    assert {r["buchholz"] for r in rows} == {r["median_buchholz"] for r in rows} == {None}


def test_each_tie_break_s_value_is_the_hand_computed_one(organiser: Player) -> None:
    order = ["placement_points", "buchholz", "median_buchholz", "wins", "rounds_at_zero",
             "best_round", "head_to_head", "total_points", "mean_points_per_round"]  # fmt: skip
    tournament = swiss(organiser, order)

    rows = {row["name"]: row for row in standings(competition=tournament)}

    figures = {
        name: (
            row["placement_points"],
            row["buchholz"],
            row["median_buchholz"],
            row["wins"],
            row["rounds_at_zero"],
            row["best_round"],
            row["total_points"],
            row["mean_points_per_round"],
        )
        for name, row in rows.items()
    }
    assert figures == {
        "Ann": (5.0, 21.0, 7.0, 1, 1, 6, 15, 5.0),
        "Ben": (7.0, 17.0, 5.0, 2, 2, 10, 10, 3.333),
        "Cat": (7.0, 17.0, 5.0, 2, 2, 3, 3, 1.0),
        "Dan": (5.0, 19.0, 7.0, 1, 1, 2, 6, 2.0),
        "Eve": (5.0, 19.0, 7.0, 1, 1, 5, 17, 5.667),
        "Fay": (7.0, 15.0, 5.0, 2, 2, 8, 8, 2.667),
    }
    # Ben and Cat are level on points, both Buchholz, wins and rounds at zero; the lowest
    # round (Cat's 3 against Ben's 10) parts them before head-to-head is reached
    assert ranks(tournament) == [
        (1, "Cat"), (2, "Ben"), (3, "Fay"), (4, "Ann"), (5, "Dan"), (6, "Eve"),
    ]  # fmt: skip
    assert {row["head_to_head"] for row in rows.values()} == {0}


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # Buchholz alone: Ben and Cat share 17, Dan and Eve 19
        (["placement_points", "buchholz"],
         [(1, "Ben"), (1, "Cat"), (3, "Fay"), (4, "Ann"), (5, "Dan"), (5, "Eve")]),
        # then head-to-head among those still tied: Ben beat Cat, Dan beat Eve
        (["placement_points", "buchholz", "head_to_head"],
         [(1, "Ben"), (2, "Cat"), (3, "Fay"), (4, "Ann"), (5, "Dan"), (6, "Eve")]),
        # head-to-head first among all three on 7 points: Ben +1, Fay 0 (met neither), Cat -1
        (["placement_points", "head_to_head", "buchholz"],
         [(1, "Ben"), (2, "Fay"), (3, "Cat"), (4, "Dan"), (5, "Ann"), (6, "Eve")]),
        # the lowest round: Cat 3, Fay 8, Ben 10; Dan 2, Eve 5, Ann 6
        (["placement_points", "best_round"],
         [(1, "Cat"), (2, "Fay"), (3, "Ben"), (4, "Dan"), (5, "Eve"), (6, "Ann")]),
        # fewest pips: Cat 3, Fay 8, Ben 10; Dan 6, Ann 15, Eve 17
        (["placement_points", "total_points"],
         [(1, "Cat"), (2, "Fay"), (3, "Ben"), (4, "Dan"), (5, "Ann"), (6, "Eve")]),
        # rounds at zero are the wins here: nothing parts either trio
        (["placement_points", "rounds_at_zero"],
         [(1, "Ben"), (1, "Cat"), (1, "Fay"), (4, "Ann"), (4, "Dan"), (4, "Eve")]),
        # the median: 5 for each of the 7-point players, 7 for each of the others
        (["placement_points", "median_buchholz"],
         [(1, "Ben"), (1, "Cat"), (1, "Fay"), (4, "Ann"), (4, "Dan"), (4, "Eve")]),
        # Buchholz before points: Ann's opponents scored the most
        (["buchholz", "placement_points"],
         [(1, "Ann"), (2, "Dan"), (2, "Eve"), (4, "Ben"), (4, "Cat"), (6, "Fay")]),
    ],
)  # fmt: skip
def test_the_same_ties_are_broken_as_the_order_says(
    organiser: Player, order: list[str], expected: list[tuple[int, str]]
) -> None:
    tournament = swiss(organiser, order)

    assert ranks(tournament) == expected


def test_the_next_stage_is_seated_by_the_competition_s_order(organiser: Player) -> None:
    by_default = swiss(organiser)
    by_buchholz = swiss(organiser, ["placement_points", "head_to_head", "buchholz"])

    def names(competition: Competition) -> list[str]:
        ids = ranked_player_ids(competition=competition)
        shown = {r["player_id"]: r["name"] for r in standings(competition=competition)}
        return [shown[player] for player in ids]

    assert names(by_default) == ["Cat", "Fay", "Ben", "Dan", "Ann", "Eve"]
    assert names(by_buchholz) == ["Ben", "Fay", "Cat", "Dan", "Ann", "Eve"]


# --- Buchholz at bigger tables, with bots and byes ----------------------------------------------


def test_a_buchholz_term_is_the_mean_of_the_registered_rivals_points_rounded_half_up() -> None:
    # given: match 1 seats players 1, 2 and 3; match 2 seats 1 and 4; match 3 seats 2 alone
    # among registered players (a bot took the other seat: it has no result row)
    points = {1: 4000, 2: 2000, 3: 1333, 4: 1000}
    seats = [(1, 1), (1, 2), (1, 3), (2, 1), (2, 4), (3, 2)]

    terms = buchholz_terms(seats, points)

    assert terms == {
        1: [1667, 1000],  # (2000 + 1333) / 2 = 1666.5, half up; then player 4's 1000
        2: [2667],  # (4000 + 1333) / 2 = 2666.5; match 3 had no registered rival: no term
        3: [3000],  # (4000 + 2000) / 2
        4: [4000],
    }


@pytest.mark.parametrize(
    ("terms", "median"),
    [([], 0), ([7000], 0), ([7000, 5000], 0), ([5000, 7000, 6000], 6000),
     ([5000, 9000, 5000, 2000], 10000), ([3000, 3000, 3000, 3000], 6000)],
)  # fmt: skip
def test_median_buchholz_leaves_out_one_highest_and_one_lowest_term(
    terms: list[int], median: int
) -> None:
    assert median_buchholz(terms) == median


def test_a_bye_is_no_buchholz_term_and_a_bot_no_rival(organiser: Player) -> None:
    # given: tables of three; Ann, Ben and a bot at stage 1 (Ann 1st: 4, Ben 3rd: 1); Cat has a
    # bye (4 points, no match); stage 2: Ann, Ben and Cat (Cat 1st 4, Ann 2nd 2, Ben 3rd 1)
    tournament = make_competition(
        organiser, table_size=3, stage_count=2, tie_breaks=["placement_points", "buchholz"]
    )
    ann, ben, cat = (PlayerFactory(display_name=name) for name in NAMES[:3])
    bot = BotFactory(bot_level=1)
    registrations = {
        p.pk: Registration.objects.create(
            competition=tournament, player=p, registered_at=tournament.created_at
        )
        for p in (ann, ben, cat)
    }
    one = Stage.objects.create(competition=tournament, number=1, started_at=tournament.created_at)
    two = Stage.objects.create(competition=tournament, number=2, started_at=tournament.created_at)
    bye = tournament.byes.create(
        stage=one, registration=registrations[cat.pk], player=cat, placement_points=4000
    )
    totals.add_bye(bye)  # as a stage's start records a bye
    stage_play(tournament, one, [([ann, bot, ben], [[0, 5, 9]])])
    stage_play(tournament, two, [([cat, ann, ben], [[0, 5, 9]])])

    rows = {row["name"]: row for row in standings(competition=tournament)}

    # points: Ann 4 + 2 = 6, Cat 4 + 4 = 8, Ben 1 + 1 = 2
    assert [rows[n]["placement_points"] for n in ("Ann", "Ben", "Cat")] == [6.0, 2.0, 8.0]
    # Ann: stage 1's only registered rival is Ben (2); stage 2 (8 + 2) / 2 = 5: 7
    # Ben: stage 1 Ann (6); stage 2 (8 + 6) / 2 = 7: 13
    # Cat: the bye is no term; stage 2 (6 + 2) / 2 = 4
    assert [rows[n]["buchholz"] for n in ("Ann", "Ben", "Cat")] == [7.0, 13.0, 4.0]
    assert CompetitionResult.objects.filter(competition=tournament).count() == 5


# --- the API -----------------------------------------------------------------------------------


def create(client: APIClient, **fields: Any) -> Any:
    body = {
        "kind": "tournament",
        "name": "Autumn Swiss",
        "variant": "chickenfoot",
        "table_size": 4,
        "stage_count": 5,
        **fields,
    }
    return client.post("/api/competitions", body, format="json")


def test_an_organiser_chooses_the_order_and_the_competition_shows_it(
    organiser_client: APIClient,
) -> None:
    order = ["placement_points", "buchholz", "median_buchholz", "wins"]

    created = create(organiser_client, tie_breaks=order)

    assert created.status_code == HTTPStatus.CREATED, created.content
    assert created.json()["tie_breaks"] == order
    detail = organiser_client.get(f"/api/competitions/{created.json()['id']}").json()
    assert detail["tie_breaks"] == order
    default = create(organiser_client).json()
    assert default["tie_breaks"] == [
        "placement_points", "wins", "mean_points_per_round", "head_to_head"
    ]  # fmt: skip


def test_a_competition_from_before_the_order_existed_ranks_by_the_default(
    organiser: Player,
) -> None:
    tournament = swiss(organiser)
    Competition.objects.filter(pk=tournament.pk).update(tie_breaks=None)
    tournament.refresh_from_db()

    assert tournament.order == ["placement_points", "wins", "mean_points_per_round", "head_to_head"]
    assert [name for _, name in ranks(tournament)] == ["Cat", "Fay", "Ben", "Dan", "Ann", "Eve"]


@pytest.mark.parametrize(
    ("tie_breaks", "code", "fields", "words"),
    [
        (["placement_points", "wins", "wins"], "invalid_competition", ["tie_breaks"],
         "wins more than once"),
        (["buchholz", "wins"], "invalid_competition", ["tie_breaks"], "placement_points"),
        (["placement_points", "sonneborn"], "invalid", ["tie_breaks.1"], "sonneborn"),
        ([], "invalid", ["tie_breaks"], "at least 1"),
        ("buchholz", "invalid", ["tie_breaks"], "list"),
        ([["placement_points"]], "invalid", ["tie_breaks.0"], "valid choice"),
    ],
)  # fmt: skip
def test_a_bad_order_is_refused_naming_the_field_and_nothing_is_written(
    organiser_client: APIClient, tie_breaks: Any, code: str, fields: list[str], words: str
) -> None:
    response = create(organiser_client, tie_breaks=tie_breaks)

    assert response.status_code == HTTPStatus.BAD_REQUEST, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code
    assert sorted(body["errors"]) == fields
    assert words in " ".join(m for messages in body["errors"].values() for m in messages)
    assert not Competition.objects.exists()


def test_every_bad_field_is_answered_with_the_order(organiser_client: APIClient) -> None:
    response = create(organiser_client, tie_breaks=["wins"], stage_count=None)

    body = response.json()
    assert body["code"] == "invalid_competition"
    assert sorted(body["errors"]) == ["stage_count", "tie_breaks"]


def test_the_standings_json_and_csv_show_every_tie_break_used(organiser: Player) -> None:
    tournament = swiss(organiser, ["placement_points", "median_buchholz", "buchholz"])
    client = client_for(PlayerFactory())

    body = client.get(f"/api/competitions/{tournament.pk}/standings").json()
    text = client.get(f"/api/competitions/{tournament.pk}/standings.csv").content.decode()

    assert body["tie_breaks"] == ["placement_points", "median_buchholz", "buchholz"]
    first = body["standings"][0]
    assert (first["name"], first["median_buchholz"], first["buchholz"]) == ("Ben", 5.0, 17.0)
    assert first["head_to_head"] is None  # not in the order
    header, *rows = list(csv.reader(io.StringIO(text, newline="")))
    assert header[16:] == ["median_buchholz", "buchholz", "stage_1", "stage_2", "stage_3"]
    assert rows[0][4] == "Ben"
    assert rows[0][16:18] == ["5.0", "17.0"]


def test_the_default_order_s_csv_has_no_buchholz_columns(organiser: Player) -> None:
    tournament = swiss(organiser)
    client = client_for(PlayerFactory())

    text = client.get(f"/api/competitions/{tournament.pk}/standings.csv").content.decode()

    header = text.split("\r\n")[0].split(",")
    assert "buchholz" not in header
    assert header[-4:] == ["byes", "stage_1", "stage_2", "stage_3"]
