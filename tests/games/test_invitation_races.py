"""Invitations that race, on PostgreSQL: an accept and a join for one seat, an accept and a
withdrawal, a link's code used by two players at once, two rematch calls at once; exactly one
of each wins."""

from __future__ import annotations

import threading
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.invitations.models import Invitation
from games.invitations.services import invitation_create
from games.models import Match, Player, Seat
from games.services import SeatSpec, match_create, seat_join
from tests.games.conftest import client_for
from tests.races import race

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]


def two_seats(creator: Player) -> Match:
    return match_create(
        creator=creator, variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )


def accept_and_join(players: list[Player]) -> tuple[Match, list[Any]]:
    """Seat 1 of a new match held for Grace: she accepts as Alan joins "any seat"."""
    match = two_seats(players[0])
    issued = invitation_create(match_id=match.pk, inviter=players[0], invitee=players[1])
    grace, alan = client_for(players[1]), client_for(players[2])
    answers = race(
        [
            lambda: grace.post(f"/api/invitations/{issued.invitation.pk}/accept"),
            lambda: alan.post(f"/api/matches/{match.pk}/join", {}, format="json"),
        ]
    )
    return match, answers


@pytest.mark.parametrize("attempt", range(5))
def test_an_accept_and_a_join_racing_for_one_seat_one_gets_it(
    players: list[Player], attempt: int
) -> None:
    # when
    match, answers = accept_and_join(players)

    # then: the invitee is seated, the joiner refused (the seat held, or taken by then)
    codes = [answer.status_code for answer in answers]
    assert codes == [HTTPStatus.OK, HTTPStatus.CONFLICT], [a.content for a in answers]
    assert answers[1].json()["code"] in ("seat_held", "match_full")
    seated = Seat.objects.filter(match=match).values_list("player_id", flat=True)
    assert list(seated) == [players[0].pk, players[1].pk]


def test_an_accept_and_a_join_racing_as_the_invitation_expires_one_gets_it(
    players: list[Player],
) -> None:
    match = two_seats(players[0])
    issued = invitation_create(match_id=match.pk, inviter=players[0], invitee=players[1])
    Invitation.objects.filter(pk=issued.invitation.pk).update(
        expires_at=timezone.now() + timedelta(milliseconds=300)
    )
    grace, alan = client_for(players[1]), client_for(players[2])

    def join_when_free() -> Any:
        while True:
            answer = alan.post(f"/api/matches/{match.pk}/join", {}, format="json")
            if answer.status_code != HTTPStatus.CONFLICT or answer.json()["code"] != "seat_held":
                return answer

    def accept_late() -> Any:
        threading.Event().wait(0.3)
        return grace.post(f"/api/invitations/{issued.invitation.pk}/accept")

    answers = race([accept_late, join_when_free])

    winners = [a for a in answers if a.status_code == HTTPStatus.OK]
    assert len(winners) == 1, [a.content for a in answers]
    seated = Seat.objects.get(match=match, position=1).player_id
    assert seated == (players[1].pk if answers[0].status_code == HTTPStatus.OK else players[2].pk)


def test_an_accept_and_a_withdrawal_at_once_one_wins(players: list[Player]) -> None:
    match = two_seats(players[0])
    issued = invitation_create(match_id=match.pk, inviter=players[0], invitee=players[1])
    ada, grace = client_for(players[0]), client_for(players[1])
    path = f"/api/invitations/{issued.invitation.pk}"

    answers = race([lambda: grace.post(f"{path}/accept"), lambda: ada.delete(path)])

    state = Invitation.objects.get(pk=issued.invitation.pk).state
    seated = Seat.objects.get(match=match, position=1).player_id
    if answers[0].status_code == HTTPStatus.OK:
        assert (answers[1].status_code, state, seated) == (409, "accepted", players[1].pk)
    else:
        assert (answers[1].status_code, state, seated) == (204, "withdrawn", None)


def test_a_links_code_used_by_two_players_at_once_seats_one(players: list[Player]) -> None:
    match = two_seats(players[0])
    code = invitation_create(match_id=match.pk, inviter=players[0], link=True).code
    clients = [client_for(players[2]), client_for(players[3])]

    answers = race(
        [
            lambda c=client: c.post("/api/invitations/accept", {"code": code}, format="json")
            for client in clients
        ]
    )

    assert sorted(a.status_code for a in answers) == [HTTPStatus.OK, HTTPStatus.NOT_FOUND]
    assert Seat.objects.filter(match=match, player__isnull=False).count() == 2


def test_two_rematch_calls_at_once_make_one_rematch(players: list[Player]) -> None:
    old = two_seats(players[0])
    seat_join(match_id=old.pk, player=players[1])
    Match.objects.filter(pk=old.pk).update(status=Match.Status.FINISHED)
    clients = [client_for(players[0]), client_for(players[1])]

    answers = race(
        [lambda c=client: c.post(f"/api/matches/{old.pk}/rematch") for client in clients]
    )

    assert sorted(a.status_code for a in answers) == [HTTPStatus.OK, HTTPStatus.CREATED]
    assert len({a.json()["id"] for a in answers}) == 1
    new = Match.objects.get(rematch_of=old)
    seated = set(Seat.objects.filter(match=new).values_list("player_id", flat=True))
    assert seated == {players[0].pk, players[1].pk}
