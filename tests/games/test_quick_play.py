"""Quick play: join, read and leave the queue; refusals; pairing by rating in a band that widens
with the wait; bots only with every player's consent; the sweep pairs what joins left."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any

import pytest
import time_machine
from rest_framework.test import APIClient

from games.models import Match, Player, Seat
from games.quick_play.models import QueueEntry
from games.quick_play.pairing import PAIR_TABLES, Waiting, queue_drain, queue_pair, tables_of
from games.quick_play.presets import band
from games.sweeps import quick_play
from scoring.models import Rating
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)  # a join pairs once it commits

START = datetime.now(UTC).replace(microsecond=0)
FOUR = {"variant": "chickenfoot", "seats": 4, "preset": "standard"}
TWO = {"variant": "mexican_train", "seats": 2, "preset": "quick"}


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    """Time stopped at the test's own start: CI's beat sweeps this database on the real clock,
    so the queue's entries are as new to its sweeps as they are to the test (a clock stopped at
    the module's import would make them minutes old there, and a sweep would seat them first)."""
    with time_machine.travel(datetime.now(UTC).replace(microsecond=0), tick=False) as traveller:
        yield traveller


def join(client: APIClient, body: dict[str, Any]) -> Any:
    return client.post("/api/queue", body, format="json")


def rated(player: Player, variant: str, display: float) -> Player:
    """Give ``player`` the display rating ``display`` in ``variant`` (sigma 0: ordinal = mu)."""
    ordinal = (display - 1000) / 40
    Rating.objects.create(player=player, variant=variant, mu=ordinal, sigma=0.0, ordinal=ordinal)
    return player


def test_join_read_and_leave(clients: list[APIClient], clock: Any) -> None:
    # when
    now = datetime.now(UTC)  # the stopped clock's
    joined = join(clients[0], {**FOUR, "bots_after_seconds": 60})

    # then
    assert joined.status_code == HTTPStatus.CREATED, joined.content
    assert joined.json() == {
        **FOUR,
        "bots_after_seconds": 60,
        "rating": 1000,
        "status": "waiting",
        "joined_at": now.isoformat().replace("+00:00", "Z"),
        "match_id": None,
        "matched_at": None,
    }
    assert clients[0].get("/api/queue").json() == joined.json()
    again = join(clients[0], FOUR)  # the same queue: the entry as it is
    assert (again.status_code, again.json()) == (HTTPStatus.OK, joined.json())
    assert QueueEntry.objects.count() == 1

    left = clients[0].delete("/api/queue")
    assert left.status_code == HTTPStatus.NO_CONTENT
    assert clients[0].get("/api/queue").json()["code"] == "not_in_queue"
    assert clients[0].delete("/api/queue").status_code == HTTPStatus.NOT_FOUND


def test_another_queue_is_refused_while_waiting(clients: list[APIClient]) -> None:
    join(clients[0], FOUR)

    refused = join(clients[0], TWO)

    assert refused.status_code == HTTPStatus.CONFLICT
    assert refused.json()["code"] == "already_queued"
    assert "standard queue of chickenfoot for 4" in refused.json()["detail"]


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"variant": "dominoes", "seats": 4, "preset": "standard"}, {"variant"}),
        ({"variant": "chickenfoot", "seats": 1, "preset": "blitz"}, {"seats", "preset"}),
        ({"variant": "chickenfoot", "seats": "4", "preset": "quick"}, {"seats"}),
        ({**FOUR, "bots_after_seconds": 5}, {"bots_after_seconds"}),
        ({**FOUR, "bots_after_seconds": 601}, {"bots_after_seconds"}),
        ({**FOUR, "level": 3}, {"level"}),
        ({}, {"variant", "seats", "preset"}),
    ],
)
def test_bad_joins_are_refused_with_every_field(
    clients: list[APIClient], body: dict[str, Any], fields: set[str]
) -> None:
    refused = join(clients[0], body)

    assert refused.status_code == HTTPStatus.BAD_REQUEST
    assert (refused.json()["code"], set(refused.json()["errors"])) == ("invalid", fields)
    assert not QueueEntry.objects.exists()


def test_a_full_table_starts_a_match_for_everyone(clients: list[APIClient]) -> None:
    answers = [join(client, FOUR) for client in clients]

    assert [a.json()["status"] for a in answers] == ["waiting"] * 3 + ["matched"]
    match_id = answers[-1].json()["match_id"]
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.seat_count, match.options["rounds"]) == ("playing", 4, 10)
    seated = set(Seat.objects.filter(match=match).values_list("player_id", flat=True))
    assert seated == {entry.player_id for entry in QueueEntry.objects.all()}
    for client in clients:
        assert client.get("/api/queue").json()["match_id"] == match_id
    # leaving now is refused: the match is theirs
    refused = clients[0].delete("/api/queue")
    assert (refused.status_code, refused.json()["match_id"]) == (HTTPStatus.CONFLICT, match_id)
    # joining the same queue answers the match; another queue waits for it to end
    assert join(clients[0], FOUR).json()["match_id"] == match_id
    assert join(clients[0], TWO).json()["code"] == "already_queued"


def test_a_player_joins_again_once_the_match_is_over(clients: list[APIClient]) -> None:
    first = [join(client, TWO) for client in clients[:2]][-1].json()["match_id"]
    Match.objects.filter(pk=first).update(status=Match.Status.ABANDONED)

    again = join(clients[0], FOUR)

    assert again.status_code == HTTPStatus.CREATED
    assert (again.json()["status"], again.json()["match_id"]) == ("waiting", None)


def test_the_quick_preset_plays_three_rounds(clients: list[APIClient]) -> None:
    match_id = [join(client, TWO) for client in clients[:2]][-1].json()["match_id"]

    match = Match.objects.get(pk=match_id)
    assert (match.variant, match.options["rounds"]) == ("mexican_train", 3)


def test_the_band_widens_with_the_wait_until_ratings_meet(
    players: list[Player], clock: time_machine.Traveller
) -> None:
    ada, grace = rated(players[0], "mexican_train", 1300), players[1]  # grace: unrated, 1000
    join(client_for(ada), TWO)
    clock.shift(10)
    join(client_for(grace), TWO)  # 300 apart: ada's band is 100 + 5 x 10 = 150
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {"waiting"}
    assert QueueEntry.objects.get(player=ada).rating == pytest.approx(1300)

    clock.shift(29)  # 39 s: 295
    assert quick_play(now=datetime.now(UTC)) == 0
    clock.shift(2)  # 41 s: 305, past the 300 between them (the ratings are floats: no tie)
    assert quick_play(now=datetime.now(UTC)) == 1

    entries = QueueEntry.objects.all()
    assert {e.status for e in entries} == {"matched"}
    assert len({e.match_id for e in entries}) == 1


def test_the_band_formula_is_capped() -> None:
    assert [band(waited_seconds=s) for s in (0, 10, 100, 1000)] == [100, 150, 600, 600]


def test_closest_ratings_sit_together() -> None:
    now = START
    ratings = [1000, 1500, 1010, 1490, 1005, 1495]
    waiting = [Waiting(pk, r, START, None) for pk, r in enumerate(ratings)]

    tables = tables_of(waiting, seat_count=3, now=now)

    assert sorted(sorted(e.pk for e in t.entries) for t in tables) == [[0, 2, 4], [1, 3, 5]]
    assert {t.bots for t in tables} == {0}


def test_bots_fill_only_when_every_player_at_the_table_agreed(
    players: list[Player], clock: time_machine.Traveller
) -> None:
    ada, grace, alan = players[:3]
    join(client_for(ada), {**FOUR, "bots_after_seconds": 30})
    join(client_for(grace), {**FOUR, "bots_after_seconds": 30})
    join(client_for(alan), FOUR)  # no bots for alan
    clock.shift(29)
    assert quick_play(now=datetime.now(UTC)) == 0  # ada has not waited her 30 s

    clock.shift(1)
    assert quick_play(now=datetime.now(UTC)) == 1

    ada_entry, grace_entry, alan_entry = (QueueEntry.objects.get(player=p) for p in players[:3])
    assert ada_entry.match_id == grace_entry.match_id is not None
    assert alan_entry.status == "waiting"
    seats = Seat.objects.filter(match_id=ada_entry.match_id).select_related("player")
    assert sorted(seat.player.is_bot for seat in seats) == [False, False, True, True]
    assert {seat.player.bot_level for seat in seats if seat.player.is_bot} == {2}
    assert Match.objects.get(pk=ada_entry.match_id).status in ("playing", "finished")


def test_nobody_alone_gets_bots_without_consent(
    players: list[Player], clock: time_machine.Traveller
) -> None:
    join(client_for(players[0]), FOUR)
    clock.shift(3600)

    assert quick_play(now=datetime.now(UTC)) == 0
    assert QueueEntry.objects.get().status == "waiting"


def test_a_left_player_is_not_matched(players: list[Player]) -> None:
    clients = [client_for(p) for p in players]
    join(clients[0], FOUR)
    clients[0].delete("/api/queue")

    answers = [join(client, FOUR) for client in clients[1:]]

    assert [a.json()["status"] for a in answers] == ["waiting"] * 3
    assert not Match.objects.exists()
    assert join(clients[0], FOUR).json()["status"] == "matched"  # back: the table fills


def test_a_pairing_starts_a_few_tables_and_a_drain_starts_them_all() -> None:
    # given: twenty players waiting for tables of two (written as a lost pairing left them)
    for player in [PlayerFactory() for _ in range(20)]:
        QueueEntry.objects.create(
            player=player, variant="mexican_train", seat_count=2, preset="quick", rating=1000,
            joined_at=datetime.now(UTC),
        )  # fmt: skip
    queue = {"variant": "mexican_train", "seat_count": 2, "preset": "quick"}

    # when / then: one transaction starts PAIR_TABLES; draining starts the rest (a sweep of
    # CI's beat on this database may start some of them first: together they start every one)
    assert len(queue_pair(**queue)) == PAIR_TABLES
    drained, more = queue_drain(**queue)
    assert (drained <= 10 - PAIR_TABLES, more) == (True, False)
    assert not QueueEntry.objects.filter(status="waiting").exists()
    assert Match.objects.filter(status="playing").count() == 10
