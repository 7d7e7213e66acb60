"""One of everything the pages show, for the tests that open every page: three players named in
Lao, Thai and Armenian (no Latin letter in any name or reason, so a Latin word on a page in one
of those languages is one the page wrote), an online match in play and one played to the end,
a table event (public, its stage's table in play with a round entered, corrected and disputed,
and a scorer link for it), and a table match that ended level on points and was decided on
rounds at zero (C-WIN)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from django.utils import timezone

from games.models import Match, Player
from games.services import SeatSpec, match_create, match_start, seat_join
from scoring.models import Competition, CompetitionMatch, Registration, Stage
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_turn

#: The players' names, one in each script the service's players write in besides Latin.
NAMES = ("ສົມພອນ", "สมชาย", "Արամ")
#: A guest at the event's table.
GUEST = "ຄຳແສງ"
EVENT = "ຖ້ວຍວຽງຈັນ"
CORRECTION = "นับใหม่: 4"
DISPUTE = "Ես ունեի 3"


@dataclass
class World:
    players: list[Player]
    playing: Match  # online, in play
    turn: Player  # whose turn it is in ``playing``
    finished: Match  # online, played to the end
    event: Competition  # a public table tournament, its stage 1 under way
    table: int  # the event's table match, in play
    scorer_code: str  # a scorer link of ``table``
    tied: int  # a table match decided on rounds at zero


def _ok(response: Any, status: int = HTTPStatus.CREATED) -> Any:
    assert response.status_code == status, response.content
    return response.json() if response.content else None


def _online(players: list[Player], *, bots: int = 0, seed: str) -> Match:
    seats = [SeatSpec(kind="creator"), *[SeatSpec(kind="open")] * (len(players) - 1)]
    seats += [SeatSpec(kind="bot", level=2)] * bots
    match = match_create(creator=players[0], variant="chickenfoot", seats=seats,
                         options={"rounds": 1})  # fmt: skip
    for position, player in enumerate(players[1:], start=1):
        seat_join(match_id=match.pk, player=player, position=position)
    Match.objects.filter(pk=match.pk).update(seed=seed)  # the same deal on every run
    match_start(match_id=match.pk, player=players[0])
    match.refresh_from_db()
    return match


def _enter(client: Any, match: int, number: int, version: int, points: list[int], out: int | None,
           ) -> None:  # fmt: skip
    scores = [{"seat": seat, "points": value, "went_out": seat == out}
              for seat, value in enumerate(points)]  # fmt: skip
    _ok(client.post(f"/api/matches/{match}/rounds/{number}/scores",
                    {"version": version, "scores": scores}, format="json"))  # fmt: skip


def _table(client: Any, seats: list[dict[str, Any]], rounds: int) -> int:
    body = {"variant": "chickenfoot", "play": "table",
            "options": {"max_pip": 6, "rounds": rounds}, "seats": seats}  # fmt: skip
    return int(_ok(client.post("/api/matches", body, format="json"))["id"])


def build() -> World:
    """The world, written to the test database (the live server's)."""
    usernames = ("som", "chai", "aram")
    players = [PlayerFactory(user__username=u, display_name=n) for u, n in zip(usernames, NAMES,
               strict=True)]  # fmt: skip
    Player.objects.filter(pk=players[0].pk).update(is_organiser=True)
    players[0].refresh_from_db()
    clients = [client_for(p) for p in players]

    finished = _online(players, seed="5eed" * 16)
    rng = random.Random(7)
    while play_turn(clients, finished.pk, rng) is not None:
        pass
    finished.refresh_from_db()
    playing = _online(players[:2], bots=1, seed="c0de" * 16)
    turn = players[playing.state["turn"]]

    # the event: Som organises it; its stage 1 table is Som, Chai and a guest
    now = timezone.now()
    event = Competition.objects.create(
        kind=Competition.Kind.TOURNAMENT, play="table", name=EVENT, variant="chickenfoot",
        options={"rounds": 2}, table_size=3, points_scheme={"3": [4, 2, 1]}, stage_count=2,
        seed="ab" * 32, organiser=players[0], status=Competition.Status.RUNNING,
        current_stage=1, public=True,
    )  # fmt: skip
    for player in players[:2]:
        Registration.objects.create(competition=event, player=player, registered_at=now)
    stage = Stage.objects.create(competition=event, number=1, started_at=now)
    seats = [{"kind": "creator"}, {"kind": "player", "username": "chai"},
             {"kind": "guest", "name": GUEST}]  # fmt: skip
    table = _table(clients[0], seats, rounds=2)
    CompetitionMatch.objects.create(competition=event, match_id=table, stage=stage, table_number=1)
    settings = {"confirmation": "any_other_seat"}
    _ok(clients[0].patch(f"/api/matches/{table}/table-settings", settings, format="json"),
        HTTPStatus.OK)  # fmt: skip
    _enter(clients[0], table, 1, 1, [0, 5, 20], out=0)
    scores = [{"seat": 0, "points": 0, "went_out": True}, {"seat": 1, "points": 4},
              {"seat": 2, "points": 20}]  # fmt: skip
    _ok(clients[1].put(f"/api/matches/{table}/rounds/1/scores",
                       {"version": 2, "reason": CORRECTION, "scores": scores}, format="json"),
        HTTPStatus.OK)  # fmt: skip
    _ok(clients[1].post(f"/api/matches/{table}/rounds/1/dispute", {"reason": DISPUTE},
                        format="json"))  # fmt: skip
    code = _ok(clients[0].post(f"/api/matches/{table}/scorer-links"))["code"]

    # a table match level on points between Som and Chai: Som has a round at zero
    tied = _table(clients[0], [{"kind": "creator"}, {"kind": "player", "username": "chai"},
                               {"kind": "player", "username": "aram"}], rounds=2)  # fmt: skip
    _enter(clients[0], tied, 1, 0, [0, 4, 20], out=0)
    _enter(clients[0], tied, 2, 1, [10, 6, 0], out=2)
    return World(players=players, playing=playing, turn=turn, finished=finished, event=event,
                 table=table, scorer_code=code, tied=tied)  # fmt: skip
