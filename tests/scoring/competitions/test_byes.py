"""Every field of two or more players seats: byes where a player would sit alone, warnings on
creation, a bye scored as a win's placement points and shown in the standings."""

from __future__ import annotations

import random
from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.services.leaving import match_abandon
from scoring.competitions import totals
from scoring.competitions.seating import (
    bye_players,
    byes_needed,
    seat_at_random,
    seat_swiss,
    table_sizes,
)
from scoring.competitions.services import competition_close, stage_start
from scoring.competitions.standings import points_by_stage, standings
from scoring.models import Bye, CompetitionMatch, CompetitionTotal, Registration
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.conftest import make_competition, ref

FIELDS = [(n, size) for size in (2, 3, 4, 5) for n in range(2, 14)]


@pytest.mark.parametrize(("count", "table_size"), FIELDS)
@pytest.mark.parametrize("fill_with_bots", [False, True])
def test_every_field_seats_everybody_or_gives_a_bye(
    count: int, table_size: int, fill_with_bots: bool
) -> None:
    field = list(range(1, count + 1))
    byes = byes_needed(players=count, table_size=table_size, fill_with_bots=fill_with_bots)
    out = bye_players(ranked=field, count=byes)
    seated = [p for p in field if p not in out]

    first = seat_at_random(
        players=seated, table_size=table_size, fill_with_bots=fill_with_bots, rng=random.Random(1)
    )
    later = seat_swiss(
        ranked=seated,
        table_size=table_size,
        fill_with_bots=fill_with_bots,
        met={},
        rng=random.Random(1),
    )

    assert byes <= 1
    assert byes == (1 if table_size == 2 and count % 2 and not fill_with_bots else 0)
    for tables in (first, later):
        humans = sorted(p for table in tables for p in table if p is not None)
        assert sorted(humans + out) == field  # everybody once: at a table or out with a bye
        assert all(len(table) >= 2 for table in tables)  # nobody plays alone
        assert all(len(table) <= table_size for table in tables)
        if fill_with_bots:
            assert all(len(table) == table_size for table in tables)


def test_the_bye_goes_to_the_lowest_ranked_of_those_with_the_fewest_byes() -> None:
    ranked = [10, 20, 30, 40, 50]
    assert bye_players(ranked=ranked, count=1) == [50]
    assert bye_players(ranked=ranked, count=1, byes_had={50: 1}) == [40]
    assert bye_players(ranked=ranked, count=1, byes_had=dict.fromkeys(ranked, 1)) == [50]
    assert bye_players(ranked=ranked, count=1, byes_had={40: 1, 50: 1, 10: 1}) == [30]


def test_table_sizes_alone_would_seat_an_odd_player_by_himself() -> None:
    # what the byes are for: 5 players at tables of 2 would otherwise leave a table of one
    assert table_sizes(players=5, table_size=2) == [2, 2, 1]
    assert byes_needed(players=5, table_size=2, fill_with_bots=False) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("count", "table_size"), FIELDS)
def test_stage_one_starts_for_every_field(organiser: Player, count: int, table_size: int) -> None:
    # given: a tournament without bots and `count` registered players, closed
    tournament = make_competition(organiser, table_size=table_size, stage_count=2)
    field = [PlayerFactory() for _ in range(count)]
    for player in field:
        Registration.objects.create(
            competition=tournament, player=player, registered_at=tournament.created_at
        )
    competition_close(competition_id=tournament.pk, player=ref(organiser))

    # when
    stage = stage_start(competition_id=tournament.pk, player=ref(organiser), number=1)

    # then: every table plays with two or more players; the rest have a bye
    links = CompetitionMatch.objects.filter(stage=stage)
    seated = [
        seat.player_id
        for match in Match.objects.filter(pk__in=links.values("match_id"))
        for seat in match.seats.all()
    ]
    assert all(m.seat_count >= 2 for m in Match.objects.filter(pk__in=links.values("match_id")))
    assert all(
        m.status == Match.Status.PLAYING
        for m in Match.objects.filter(pk__in=links.values("match_id"))
    )
    out = list(Bye.objects.filter(stage=stage).values_list("player_id", flat=True))
    assert sorted(seated + out) == sorted(p.pk for p in field)
    assert len(out) == (1 if table_size == 2 and count % 2 else 0)


@pytest.mark.django_db
def test_five_players_at_tables_of_two_over_three_stages(
    organiser: Player, organiser_client: APIClient
) -> None:
    # given: a tournament at tables of 2 without bots; creating it warns of byes
    created = organiser_client.post(
        "/api/competitions",
        {
            "kind": "tournament",
            "name": "Pairs",
            "variant": "chickenfoot",
            "options": {"max_pip": 6, "rounds": 1},
            "table_size": 2,
            "stage_count": 3,
        },
        format="json",
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    assert "with an odd number of players, one player has a bye" in created.json()["warnings"][0]
    base = f"/api/competitions/{created.json()['id']}"
    field = [PlayerFactory(display_name=f"P{i}") for i in range(5)]
    for player in field:
        Registration.objects.create(
            competition_id=created.json()["id"], player=player, registered_at=player.created_at
        )
    closed = organiser_client.post(f"{base}/close").json()
    assert closed["warnings"] == [
        "5 players at tables of 2: one player sits out each stage with a bye "
        "(the placement points of a win, docs/scoring.md)."
    ]

    # when: each stage starts, and its tables are abandoned (they count for nobody)
    byes = []
    for number in (1, 2, 3):
        stage = organiser_client.post(f"{base}/stages", {"number": number}, format="json")
        assert stage.status_code == HTTPStatus.CREATED, stage.content
        body = stage.json()
        assert [len(t["seats"]) for t in body["tables"]] == [2, 2]
        assert len(body["byes"]) == 1
        byes.append(body["byes"][0]["player_id"])
        for table in body["tables"]:
            match_abandon(match_id=table["match_id"], player=organiser)

    # then: three different players had a bye, each worth a win at a table of 2 (3 points)
    assert len(set(byes)) == 3
    table = organiser_client.get(f"{base}/standings").json()
    assert table["final"] is True
    rows = {r["player_id"]: r for r in table["standings"]}
    for player_id in byes:
        assert rows[player_id]["byes"] == 1
        assert rows[player_id]["placement_points"] == 3.0
        assert rows[player_id]["matches"] == 0
        assert rows[player_id]["wins"] == 0
        assert [s["bye"] for s in rows[player_id]["by_stage"]] == [True]
    assert sorted(r["byes"] for r in table["standings"]) == [0, 0, 1, 1, 1]
    csv_rows = organiser_client.get(f"{base}/standings.csv").content.decode().splitlines()
    assert csv_rows[0].endswith(",rating,byes,stage_1,stage_2,stage_3")
    cells = [line.rsplit(",", 4)[1:] for line in csv_rows[1:]]  # byes, then a cell per stage
    assert sorted(byes_cell for byes_cell, *_ in cells) == ["0", "0", "1", "1", "1"]
    # a bye's stage shows its points; the abandoned tables count for nobody: empty
    assert sorted(stage for _, *per_stage in cells for stage in per_stage if stage) == ["3.0"] * 3
    stages = organiser_client.get(f"{base}/stages").json()["stages"]
    assert [s["byes"][0]["player_id"] for s in stages] == byes


@pytest.mark.django_db
def test_a_bye_adds_to_the_standings_with_the_matches_played(
    organiser: Player, players: list[Player]
) -> None:
    # given: three players at tables of 2, stage 1 started (one has a bye, two play)
    tournament = make_competition(organiser, table_size=2, stage_count=1)
    for player in players[:3]:
        Registration.objects.create(
            competition=tournament, player=player, registered_at=tournament.created_at
        )
    competition_close(competition_id=tournament.pk, player=ref(organiser))
    stage = stage_start(competition_id=tournament.pk, player=ref(organiser), number=1)
    bye = Bye.objects.get(stage=stage)

    # when: nothing has been played yet
    rows = {r["player_id"]: r for r in standings(competition=tournament)}

    # then: the bye's points count already, ranking its player first
    assert rows[bye.player_id]["placement_points"] == 3.0
    assert rows[bye.player_id]["rank"] == 1
    assert points_by_stage(competition=tournament)[bye.player_id] == [
        {"stage": 1, "matches": 0, "placement_points": 3.0, "bye": True}
    ]


@pytest.mark.django_db
def test_rebuild_keeps_the_byes(organiser: Player, players: list[Player]) -> None:
    # given: a bye and nothing else in the totals of three players at tables of 2
    tournament = make_competition(organiser, table_size=2, stage_count=1)
    for player in players[:3]:
        Registration.objects.create(
            competition=tournament, player=player, registered_at=tournament.created_at
        )
    competition_close(competition_id=tournament.pk, player=ref(organiser))
    stage_start(competition_id=tournament.pk, player=ref(organiser), number=1)
    fields = ("registration_id", "byes", "placement_points", "matches")
    before = list(CompetitionTotal.objects.order_by("registration_id").values(*fields))

    # when
    made = totals.rebuild(competition_ids=[tournament.pk])

    # then
    assert made == 1
    assert before[0]["byes"] == 1
    assert list(CompetitionTotal.objects.order_by("registration_id").values(*fields)) == before
