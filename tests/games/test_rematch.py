"""A rematch: one new match per finished one, the same game, options and seat order; the
caller seated, bots again at their levels, every other player invited to their old seat."""

from __future__ import annotations

from http import HTTPStatus

import pytest

from games.invitations.models import Invitation
from games.models import Match, Player, Seat
from games.services import SeatSpec, match_create, seat_join
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db


def finished_match(players: list[Player]) -> Match:
    """Ada, a level-3 bot, Grace and Alan, Mexican Train on a short double-9: finished."""
    match = match_create(
        creator=players[0],
        variant="mexican_train",
        seats=[SeatSpec("creator"), SeatSpec("bot", 3), SeatSpec("open"), SeatSpec("open")],
        options={"max_pip": 9, "rounds": 2},
    )
    seat_join(match_id=match.pk, player=players[1], position=2)
    seat_join(match_id=match.pk, player=players[2], position=3)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    match.refresh_from_db()
    return match


def test_the_first_call_creates_the_rematch_and_invites_the_others(
    players: list[Player],
) -> None:
    # given
    old = finished_match(players)
    grace = client_for(players[1])

    # when: grace asks first
    answer = grace.post(f"/api/matches/{old.pk}/rematch")

    # then
    assert answer.status_code == HTTPStatus.CREATED, answer.content
    new = Match.objects.get(pk=answer.json()["id"])
    assert answer["Location"] == f"/api/matches/{new.pk}"
    assert (new.variant, new.options, new.status, new.rematch_of_id) == (
        old.variant,
        old.options,
        Match.Status.OPEN,
        old.pk,
    )
    assert new.created_by_id == players[1].pk
    seats = list(Seat.objects.select_related("player").filter(match=new).order_by("position"))
    assert [seat.player_id for seat in seats][2:] == [players[1].pk, None]
    assert seats[0].player_id is None
    assert seats[1].player.is_bot
    assert seats[1].player.bot_level == 3
    held = Invitation.objects.filter(match=new, state="pending").order_by("position")
    assert [(i.position, i.invitee_id, i.inviter_id) for i in held] == [
        (0, players[0].pk, players[1].pk),
        (3, players[2].pk, players[1].pk),
    ]


def test_a_later_call_by_another_player_seats_them_in_the_same_rematch(
    players: list[Player],
) -> None:
    old = finished_match(players)
    first = client_for(players[0]).post(f"/api/matches/{old.pk}/rematch").json()["id"]

    second = client_for(players[2]).post(f"/api/matches/{old.pk}/rematch")
    again = client_for(players[2]).post(f"/api/matches/{old.pk}/rematch")

    assert (second.status_code, second.json()["id"]) == (HTTPStatus.OK, first)
    assert (again.status_code, again.json()["id"]) == (HTTPStatus.OK, first)
    assert Seat.objects.get(match_id=first, position=3).player_id == players[2].pk
    invitation = Invitation.objects.get(match_id=first, invitee=players[2])
    assert invitation.state == "accepted"
    assert Match.objects.filter(rematch_of=old).count() == 1
    # grace accepts from her list, as any invitation
    mine = client_for(players[1]).get("/api/invitations").json()["results"]
    assert [(row["match_id"], row["seat"]) for row in mine] == [(first, 2)]


def test_a_player_whose_invitation_was_withdrawn_joins_their_old_seat_if_free(
    players: list[Player],
) -> None:
    old = finished_match(players)
    ada = client_for(players[0])
    new = ada.post(f"/api/matches/{old.pk}/rematch").json()["id"]
    invitation = Invitation.objects.get(match_id=new, invitee=players[1])
    ada.delete(f"/api/invitations/{invitation.pk}")

    answer = client_for(players[1]).post(f"/api/matches/{old.pk}/rematch")

    assert answer.status_code == HTTPStatus.OK
    assert Seat.objects.get(match_id=new, position=2).player_id == players[1].pk


def test_refusals(players: list[Player]) -> None:
    old = finished_match(players)
    playing = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )

    stranger = client_for(players[3]).post(f"/api/matches/{old.pk}/rematch")
    not_over = client_for(players[0]).post(f"/api/matches/{playing.pk}/rematch")
    unknown = client_for(players[0]).post("/api/matches/999999/rematch")

    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_your_match")
    assert (not_over.status_code, not_over.json()["code"]) == (409, "match_not_finished")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "match_not_found")
    assert not Match.objects.filter(rematch_of__isnull=False).exists()
