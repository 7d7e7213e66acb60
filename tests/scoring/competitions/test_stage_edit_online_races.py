"""An online stage's seating changed at the moment a move is played at one of its tables, on
PostgreSQL: the move and the change take the match's lock, so either the move comes first
(and the change is refused: the stage has started) or the change does (the match is deleted
and dealt again, and the move finds no match), never both."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection

from games.models import Match
from scoring.models import CompetitionMatch, SeatingChange
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.races import race
from tests.scoring.competitions.event_api import API, add, create_event, seated, start

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("attempt", range(3))
def test_a_move_and_a_swap_at_once_never_both_happen(organiser: Any, attempt: int) -> None:
    # given: four players at two tables of 2, online; table 1's player to move has chosen
    client = client_for(organiser)
    cid = create_event(client, play="online", allow_bots=False, options={})
    players = {p.pk: p for p in (PlayerFactory() for _ in range(4))}
    for player_id in players:
        add(client, cid, player_id=player_id)
    client.post(f"{API}/{cid}/close")
    start(client, cid, 1)
    tables = seated(client, cid, 1)
    match = Match.objects.get(
        pk=CompetitionMatch.objects.get(competition_id=cid, table_number=1).match_id
    )
    mover = client_for(players[tables[0][match.state["turn"]]])
    legal = mover.get(f"/api/matches/{match.pk}/legal-moves").json()
    move = {**legal["moves"][0], "version": legal["version"]}

    # when: the move and a swap of table 1's other player with one of table 2, at once
    other = tables[0][1 - match.state["turn"]]
    swap, played = race(
        [
            lambda: client_for(organiser).post(
                f"{API}/{cid}/stages/1/swap", {"players": [other, tables[1][0]]},
                format="json", HTTP_IF_MATCH='"0"',
            ),
            lambda: mover.post(f"/api/matches/{match.pk}/moves", move, format="json"),
        ]
    )  # fmt: skip

    # then: one of them, never both
    assert (swap.status_code, played.status_code) in {
        (HTTPStatus.OK, HTTPStatus.NOT_FOUND),
        (HTTPStatus.CONFLICT, HTTPStatus.CREATED),
    }, (swap.content, played.content)
    if swap.status_code == HTTPStatus.OK:
        assert not Match.objects.filter(pk=match.pk).exists()
        assert SeatingChange.objects.filter(competition_id=cid).count() == 1
        for link in CompetitionMatch.objects.filter(competition_id=cid):
            assert Match.objects.get(pk=link.match_id).moves_played == 0
    else:
        assert swap.json()["code"] == "stage_scoring_started"
        assert swap.json()["tables"] == [1]
        assert Match.objects.get(pk=match.pk).moves_played == 1
        assert seated(client, cid, 1) == tables
        assert not SeatingChange.objects.filter(competition_id=cid).exists()
