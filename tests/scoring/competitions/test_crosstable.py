"""A tournament's crosstable (docs/scoring.md, "Crosstable"): each entrant per stage, its table,
opponents, place, placement points and round total, or what kept them from a table; as JSON
and CSV, for signed-in players, refusing what it cannot answer."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match, Player, Seat
from scoring.competitions import totals
from scoring.competitions.crosstable import crosstable
from scoring.models import Competition, CompetitionMatch, Registration, Stage
from scoring.services import match_finalise
from tests.foundation.hostile import STORABLE
from tests.games.conftest import client_for
from tests.games.factories import BotFactory, MatchFactory, PlayerFactory
from tests.games.schema_check import check_response
from tests.scoring.competitions.conftest import make_competition
from tests.scoring.competitions.test_tie_breaks import swiss
from tests.scoring.conftest import make_finished_match

pytestmark = pytest.mark.django_db

API = "/api/competitions"
PATH = "/api/competitions/{competition_id}/crosstable"
EVENTFUL = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def unfinished(seated: list[Player], status: str) -> Match:
    """A match of ``seated`` still in play (``playing``) or ``abandoned``."""
    match = MatchFactory(seat_count=len(seated), created_by=seated[0])
    Match.objects.filter(pk=match.pk).update(status=status)
    for position, player in enumerate(seated):
        Seat.objects.filter(match=match, position=position).update(player=player)
    return match


def eventful(organiser: Player) -> Competition:
    """Tables of three, three stages; two have started.

    - Stage 1: Ann, Ben and Cat (Ann 1st on 0, Ben 2nd on 5, Cat 3rd on 9); Dan beside a bot
      (Dan 1st on 0, the bot on 4); Eve and Gus are no-shows.
    - Then Eve drops out, and Fay registers: a late entrant.
    - Stage 2: Ann, Dan and Fay at table 1, still playing; Ben and Cat at table 2, abandoned;
      Gus sits it out with a bye (4 points).
    """
    tournament = make_competition(organiser, table_size=3, stage_count=3)
    people = {name: PlayerFactory(display_name=name) for name in EVENTFUL}
    start = timezone.now() - timedelta(hours=3)
    registrations = {
        name: Registration.objects.create(
            competition=tournament,
            player=player,
            registered_at=start + (timedelta(hours=2) if name == "Fay" else timedelta()),
        )
        for name, player in people.items()
    }
    one = Stage.objects.create(
        competition=tournament, number=1, started_at=start + timedelta(minutes=10)
    )
    two = Stage.objects.create(
        competition=tournament, number=2, started_at=start + timedelta(hours=2, minutes=30)
    )
    Registration.objects.filter(pk=registrations["Eve"].pk).update(
        dropped_at=start + timedelta(hours=1)
    )
    Competition.objects.filter(pk=tournament.pk).update(status="running", current_stage=2)
    bot = BotFactory(bot_level=2)
    first = [
        make_finished_match(
            seated=[people["Ann"], people["Ben"], people["Cat"]], scores=[[0, 5, 9]]
        ),
        make_finished_match(seated=[people["Dan"], bot], scores=[[0, 4]]),
    ]
    second = [
        unfinished([people["Ann"], people["Dan"], people["Fay"]], "playing"),
        unfinished([people["Ben"], people["Cat"]], "abandoned"),
    ]
    for stage, matches in ((one, first), (two, second)):
        for number, match in enumerate(matches, start=1):
            CompetitionMatch.objects.create(
                competition=tournament,
                match=match,
                stage=stage,
                table_number=number,
                finished=match.status == "abandoned",
            )
    for match in first:
        assert match_finalise(match_id=match.pk).written
    bye = tournament.byes.create(
        stage=two, registration=registrations["Gus"], player=people["Gus"], placement_points=4000
    )
    totals.add_bye(bye)
    tournament.refresh_from_db()
    return tournament


def test_each_entrant_s_stages_say_what_happened_there(organiser: Player) -> None:
    tournament = eventful(organiser)

    body = crosstable(competition=tournament)

    # standings: Ann 4 (a win), Dan 3 (a win at a table of two), Gus 4 (a bye), Ben 2, Cat 1
    numbers = {entrant["name"]: entrant["number"] for entrant in body["entrants"]}
    assert [e["name"] for e in body["entrants"]] == [
        "Ann",
        "Gus",
        "Dan",
        "Ben",
        "Cat",
        "Eve",
        "Fay",
    ]
    assert body["stages"] == [
        {"number": 1, "status": "finished", "final_table": False},
        {"number": 2, "status": "playing", "final_table": False},
    ]
    by_name = {entrant["name"]: entrant["stages"] for entrant in body["entrants"]}

    def who(entry: dict[str, Any]) -> list[tuple[Any, ...]]:
        return [(o["name"], o["number"], o["bot"]) for o in entry["opponents"]]

    ann_1, ann_2 = by_name["Ann"]
    assert {k: ann_1[k] for k in ("status", "table", "place", "table_players",
                                  "placement_points", "total_points")} == {
        "status": "played", "table": 1, "place": 1, "table_players": 3,
        "placement_points": 4.0, "total_points": 0,
    }  # fmt: skip
    assert who(ann_1) == [("Ben", numbers["Ben"], False), ("Cat", numbers["Cat"], False)]
    assert ann_2["status"] == "playing"
    assert (ann_2["table"], ann_2["place"], ann_2["placement_points"]) == (1, None, None)
    assert ann_2["total_points"] is None  # nothing of a match in play
    assert who(ann_2) == [("Dan", numbers["Dan"], False), ("Fay", numbers["Fay"], False)]
    dan_1 = by_name["Dan"][0]
    assert (dan_1["status"], dan_1["place"], dan_1["placement_points"]) == ("played", 1, 3.0)
    assert [(o["number"], o["bot"]) for o in dan_1["opponents"]] == [(None, True)]
    ben_2 = by_name["Ben"][1]
    assert (ben_2["status"], ben_2["table"], who(ben_2)) == (
        "abandoned", 2, [("Cat", numbers["Cat"], False)],
    )  # fmt: skip
    assert by_name["Cat"][0]["total_points"] == 9
    assert [e["status"] for e in by_name["Eve"]] == ["no_show", "dropped"]
    assert [e["status"] for e in by_name["Fay"]] == ["not_entered", "playing"]
    gus = by_name["Gus"]
    assert [e["status"] for e in gus] == ["no_show", "bye"]
    assert (gus[1]["placement_points"], gus[1]["table"], gus[1]["opponents"]) == (4.0, None, [])
    assert body["entrants"][5]["dropped"] is True
    assert body["entrants"][0]["tie_breaks"] == {
        "placement_points": 4.0, "wins": 1, "mean_points_per_round": 0.0, "head_to_head": 0,
    }  # fmt: skip


def test_the_entrants_come_in_standings_order_with_the_order_s_values(organiser: Player) -> None:
    tournament = swiss(organiser, ["placement_points", "buchholz", "head_to_head"])

    body = crosstable(competition=tournament)

    assert body["tie_breaks"] == ["placement_points", "buchholz", "head_to_head"]
    assert [(e["number"], e["rank"], e["name"]) for e in body["entrants"]] == [
        (1, 1, "Ben"), (2, 2, "Cat"), (3, 3, "Fay"), (4, 4, "Ann"), (5, 5, "Dan"), (6, 6, "Eve"),
    ]  # fmt: skip
    ben = body["entrants"][0]
    assert ben["tie_breaks"] == {"placement_points": 7.0, "buchholz": 17.0, "head_to_head": 1}
    # Ben lost to Ann (number 4) on 10 pips, beat Eve (6), then Cat (2)
    assert [
        (e["stage"], [o["number"] for o in e["opponents"]], e["place"], e["placement_points"],
         e["total_points"]) for e in ben["stages"]
    ] == [(1, [4], 2, 1.0, 10), (2, [6], 1, 3.0, 0), (3, [2], 1, 3.0, 0)]  # fmt: skip


# --- the API -----------------------------------------------------------------------------------


def test_any_signed_in_player_reads_it_as_json_and_csv(organiser: Player) -> None:
    tournament = eventful(organiser)
    reader = client_for(PlayerFactory())

    answer = reader.get(f"{API}/{tournament.pk}/crosstable")
    as_csv = reader.get(f"{API}/{tournament.pk}/crosstable.csv")

    check_response(answer, PATH, "GET")
    check_response(as_csv, PATH + ".csv", "GET")
    assert answer.status_code == HTTPStatus.OK
    assert as_csv.status_code == HTTPStatus.OK
    assert as_csv["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="competition-{tournament.pk}-crosstable.csv"' in as_csv["Content-Disposition"]
    header, *rows = list(csv.reader(io.StringIO(as_csv.content.decode(), newline="")))
    assert header[:10] == [
        "number", "rank", "shared", "player_id", "name", "dropped",
        "placement_points", "wins", "mean_points_per_round", "head_to_head",
    ]  # fmt: skip
    assert header[10:] == [
        f"stage_{n}_{field}"
        for n in (1, 2)
        for field in ("status", "table", "opponents", "place", "placement_points", "total_points")
    ]
    numbers = {row[4]: row[0] for row in rows}
    ann = rows[0]
    assert ann[4] == "Ann"
    assert ann[10:16] == ["played", "1", f"{numbers['Ben']} {numbers['Cat']}", "1", "4.0", "0"]
    assert ann[16:22] == ["playing", "1", f"{numbers['Dan']} {numbers['Fay']}", "", "", ""]
    dan = next(row for row in rows if row[4] == "Dan")
    assert dan[12] == "bot"
    gus = next(row for row in rows if row[4] == "Gus")
    assert gus[10:] == ["no_show", "", "", "", "", "", "bye", "", "", "", "4.0", ""]


def test_hostile_names_stay_in_their_cells_and_never_run_as_formulas(organiser: Player) -> None:
    tournament = swiss(organiser)
    names = [
        STORABLE[0],
        "two\nlines",
        '=HYPERLINK("x")',
        'it\'s "quoted", too',
        "bell\x07",
        "-1+2",
    ]
    for player, name in zip(
        Player.objects.filter(registrations__competition=tournament).order_by("pk"),
        names,
        strict=True,
    ):
        Player.objects.filter(pk=player.pk).update(display_name=name)

    text = client_for(PlayerFactory()).get(f"{API}/{tournament.pk}/crosstable.csv").content
    rows = list(csv.reader(io.StringIO(text.decode(), newline="")))

    shown = {row[4] for row in rows[1:]}
    assert shown == {f"'{n}" if n[:1] in "=+-@" else n for n in names}
    assert all(len(row) == len(rows[0]) for row in rows)


@pytest.mark.parametrize(
    ("who", "path", "status", "code"),
    [
        ("anonymous", "/crosstable", 401, "not_authenticated"),
        ("anonymous", "/crosstable.csv", 401, "not_authenticated"),
        ("player", "/crosstable?stage=1", 400, "invalid"),
        ("player", "/crosstable.csv?page=2", 400, "invalid"),
        ("missing", "/crosstable", 404, "competition_not_found"),
        ("missing", "/crosstable.csv", 404, "competition_not_found"),
        ("league", "/crosstable", 409, "competition_status"),
        ("league", "/crosstable.csv", 409, "competition_status"),
    ],
)
def test_refusals_are_problems_the_schema_declares(
    organiser: Player, who: str, path: str, status: int, code: str
) -> None:
    tournament = make_competition(organiser)
    league = make_competition(organiser, kind="league")
    client = APIClient() if who == "anonymous" else client_for(PlayerFactory())
    competition_id = {"league": league.pk, "missing": 999999}.get(who, tournament.pk)

    response = client.get(f"{API}/{competition_id}{path}")

    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == code
    check_response(response, PATH + path.split("?")[0].removeprefix("/crosstable"), "GET")
    if code == "invalid":
        assert list(response.json()["errors"]) == [path.split("?")[1].split("=")[0]]
