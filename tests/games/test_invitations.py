"""Invitations to a seat: by player or by link, accepted, declined, withdrawn, expired; the
seats they hold kept from joins and from the lobby; every refusal."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone

from games.invitations.models import Invitation
from games.models import Match, Player, Seat
from games.services import SeatSpec, match_create, seat_join
from games.sweeps import invitations as invitations_sweep
from games.tables.seats import TableSeatSpec
from games.tables.services import table_match_create
from tests.foundation.hostile import STORABLE
from tests.games.conftest import client_for
from tests.games.helpers import avatars_of

pytestmark = pytest.mark.django_db


def open_match(creator: Player, open_seats: int = 2) -> Match:
    return match_create(
        creator=creator,
        variant="chickenfoot",
        seats=[SeatSpec("creator"), *[SeatSpec("open")] * open_seats],
    )


def invite(client: Any, match: Match, **body: Any) -> Any:
    return client.post(f"/api/matches/{match.pk}/invitations", body, format="json")


def problem_code(response: Any) -> str:
    return str(response.json()["code"])


@pytest.fixture
def ada(players: list[Player]) -> Any:
    return client_for(players[0])


def test_an_invited_player_accepts_and_sits_in_the_seat_held_for_them(
    players: list[Player], ada: Any
) -> None:
    # given
    ada_, grace = players[:2]
    match = open_match(ada_)
    # when
    created = invite(ada, match, username="GRACE")
    # then
    assert created.status_code == HTTPStatus.CREATED, created.content
    body = created.json()
    assert (body["seat"], body["state"], body["link"], body["code"], body["url"]) == (
        1,
        "pending",
        False,
        None,
        None,
    )
    assert body["invitee"] == {"id": grace.pk, "name": "Grace", **avatars_of(ada, grace.pk)}
    assert body["inviter"] == {"id": ada_.pk, "name": "Ada", **avatars_of(ada, ada_.pk)}
    received = client_for(grace).get("/api/invitations").json()
    assert [row["id"] for row in received["results"]] == [body["id"]]
    assert received["results"][0]["inviter"] == body["inviter"]
    sent = ada.get("/api/invitations?sent=true").json()
    assert [row["id"] for row in sent["results"]] == [body["id"]]
    assert ada.get("/api/invitations").json()["count"] == 0

    accepted = client_for(grace).post(f"/api/invitations/{body['id']}/accept")

    assert accepted.status_code == HTTPStatus.OK, accepted.content
    assert accepted.json()["state"] == "accepted"
    assert Seat.objects.get(match=match, position=1).player_id == grace.pk
    again = client_for(grace).post(f"/api/invitations/{body['id']}/accept")
    assert again.status_code == HTTPStatus.CONFLICT
    assert (problem_code(again), again.json()["state"]) == ("invitation_closed", "accepted")


def test_a_held_seat_is_kept_from_joins_and_the_lobby(players: list[Player], ada: Any) -> None:
    ada_, grace, alan = players[:3]
    match = open_match(ada_, open_seats=1)
    invite(ada, match, player_id=grace.pk)
    alan_client = client_for(alan)

    named = alan_client.post(f"/api/matches/{match.pk}/join", {"position": 1}, format="json")
    anywhere = alan_client.post(f"/api/matches/{match.pk}/join", {}, format="json")
    lobby = alan_client.get("/api/matches/open").json()

    assert named.status_code == HTTPStatus.CONFLICT
    assert (problem_code(named), named.json()["held_seats"]) == ("seat_held", [1])
    assert "Seat 1" in named.json()["detail"]
    assert (anywhere.status_code, problem_code(anywhere)) == (HTTPStatus.CONFLICT, "seat_held")
    assert match.pk not in [row["id"] for row in lobby["results"]]
    assert Seat.objects.get(match=match, position=1).player_id is None


def test_a_match_with_an_open_seat_not_held_is_listed_and_joined_there(
    players: list[Player], ada: Any
) -> None:
    match = open_match(players[0], open_seats=2)
    invite(ada, match, player_id=players[1].pk)  # seat 1
    alan = client_for(players[2])

    listed = [row["id"] for row in alan.get("/api/matches/open").json()["results"]]
    joined = alan.post(f"/api/matches/{match.pk}/join", {}, format="json")

    assert match.pk in listed
    assert joined.status_code == HTTPStatus.OK, joined.content
    assert Seat.objects.get(match=match, position=2).player_id == players[2].pk


def test_starting_with_a_held_seat_is_refused_naming_it(players: list[Player], ada: Any) -> None:
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    invite(ada, match, player_id=players[1].pk)

    started = ada.post(f"/api/matches/{match.pk}/start")

    assert started.status_code == HTTPStatus.CONFLICT
    body = started.json()
    assert (body["code"], body["open_seats"], body["held_seats"]) == ("seats_open", [1], [1])
    assert "held for invited players" in body["detail"]


def test_declined_the_seat_is_open_again_and_declining_twice_is_refused(
    players: list[Player], ada: Any
) -> None:
    match = open_match(players[0], open_seats=1)
    invitation = invite(ada, match, player_id=players[1].pk).json()["id"]
    grace = client_for(players[1])

    declined = grace.post(f"/api/invitations/{invitation}/decline")
    twice = grace.post(f"/api/invitations/{invitation}/decline")
    joined = client_for(players[2]).post(f"/api/matches/{match.pk}/join", {}, format="json")

    assert (declined.status_code, declined.json()["state"]) == (HTTPStatus.OK, "declined")
    assert (twice.status_code, problem_code(twice), twice.json()["state"]) == (
        HTTPStatus.CONFLICT,
        "invitation_closed",
        "declined",
    )
    assert joined.status_code == HTTPStatus.OK


def test_withdrawn_the_invitation_is_refused_and_only_its_creator_withdraws(
    players: list[Player], ada: Any
) -> None:
    match = open_match(players[0])
    invitation = invite(ada, match, player_id=players[1].pk).json()["id"]
    grace, alan = client_for(players[1]), client_for(players[2])

    by_invitee = grace.delete(f"/api/invitations/{invitation}")
    by_stranger = alan.delete(f"/api/invitations/{invitation}")
    withdrawn = ada.delete(f"/api/invitations/{invitation}")
    twice = ada.delete(f"/api/invitations/{invitation}")
    accepted = grace.post(f"/api/invitations/{invitation}/accept")
    unknown = ada.delete("/api/invitations/999999")

    assert (by_invitee.status_code, problem_code(by_invitee)) == (403, "not_creator")
    assert (by_stranger.status_code, problem_code(by_stranger)) == (404, "invitation_not_found")
    assert withdrawn.status_code == HTTPStatus.NO_CONTENT
    assert (twice.status_code, problem_code(twice)) == (409, "invitation_closed")
    assert (accepted.status_code, accepted.json()["state"]) == (409, "withdrawn")
    assert (unknown.status_code, problem_code(unknown)) == (404, "invitation_not_found")
    assert Seat.objects.get(match=match, position=1).player_id is None


def test_another_players_invitation_is_not_found(players: list[Player], ada: Any) -> None:
    match = open_match(players[0])
    invitation = invite(ada, match, player_id=players[1].pk).json()["id"]
    alan = client_for(players[2])

    for action in ("accept", "decline"):
        answer = alan.post(f"/api/invitations/{invitation}/{action}")
        assert (answer.status_code, problem_code(answer)) == (404, "invitation_not_found")
    assert Seat.objects.get(match=match, position=1).player_id is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "nobody-here"}, "username"),
        ({"player_id": 999999}, "player_id"),
        ({}, "player_id"),
        ({"username": "grace", "player_id": 1}, "username"),
        ({"link": True, "username": "grace"}, "link"),
        ({"username": "grace", "seat": 7}, "seat"),
        ({"username": "grace", "colour": "red"}, "colour"),
    ],
)
def test_a_bad_invitation_is_refused_naming_the_field(
    players: list[Player], ada: Any, body: dict[str, Any], field: str
) -> None:
    match = open_match(players[0])

    answer = invite(ada, match, **body)

    assert answer.status_code == HTTPStatus.BAD_REQUEST, answer.content
    assert field in answer.json()["errors"]
    assert not Invitation.objects.exists()


def test_inviting_yourself_is_refused(players: list[Player], ada: Any) -> None:
    answer = invite(ada, open_match(players[0]), username="ada")

    assert answer.status_code == HTTPStatus.BAD_REQUEST
    assert answer.json()["errors"]["player_id"] == [
        "You cannot invite yourself: take a seat instead."
    ]


def test_refusals_of_the_match_and_its_seats(players: list[Player], ada: Any) -> None:
    ada_, grace, alan, edsger = players
    match = open_match(ada_, open_seats=2)
    seat_join(match_id=match.pk, player=alan, position=2)
    invite(ada, match, player_id=grace.pk, seat=1)

    not_creator = invite(client_for(grace), match, player_id=edsger.pk)
    taken = invite(ada, match, player_id=edsger.pk, seat=2)
    held = invite(ada, match, player_id=edsger.pk, seat=1)
    none_left = invite(ada, match, player_id=edsger.pk)
    seated = invite(ada, match, player_id=alan.pk, seat=1)
    twice = invite(ada, open_match(ada_), player_id=grace.pk)
    again = invite(ada, Match.objects.get(pk=twice.json()["match_id"]), player_id=grace.pk)
    no_match = invite(ada, Match(pk=999999), player_id=grace.pk)

    assert (not_creator.status_code, problem_code(not_creator)) == (403, "not_creator")
    assert (taken.status_code, problem_code(taken)) == (409, "seat_taken")
    assert (held.status_code, problem_code(held), held.json()["held_seats"]) == (
        409,
        "seat_held",
        [1],
    )
    assert (none_left.status_code, problem_code(none_left)) == (409, "seat_held")
    assert (seated.status_code, problem_code(seated)) == (409, "already_seated")
    assert twice.status_code == HTTPStatus.CREATED
    assert (again.status_code, problem_code(again)) == (409, "seat_held")
    assert (no_match.status_code, problem_code(no_match)) == (404, "match_not_found")


def test_a_started_match_takes_no_invitation(players: list[Player], ada: Any) -> None:
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    seat_join(match_id=match.pk, player=players[1])
    ada.post(f"/api/matches/{match.pk}/start")

    answer = invite(ada, match, player_id=players[2].pk)

    assert (answer.status_code, problem_code(answer)) == (409, "match_not_open")


def test_an_invitee_seated_in_the_meantime_cannot_accept(players: list[Player], ada: Any) -> None:
    match = open_match(players[0], open_seats=2)
    invitation = invite(ada, match, player_id=players[1].pk, seat=2).json()["id"]
    # grace joins seat 1 herself: her invitation to seat 2 is declined for her
    seat_join(match_id=match.pk, player=players[1], position=1)

    answer = client_for(players[1]).post(f"/api/invitations/{invitation}/accept")

    assert (answer.status_code, answer.json()["state"]) == (409, "declined")
    joined = client_for(players[2]).post(f"/api/matches/{match.pk}/join", {}, format="json")
    assert joined.status_code == HTTPStatus.OK


def test_an_expired_invitation_is_refused_and_holds_nothing(
    players: list[Player], ada: Any
) -> None:
    match = open_match(players[0], open_seats=1)
    invitation = invite(ada, match, player_id=players[1].pk).json()["id"]
    Invitation.objects.filter(pk=invitation).update(expires_at=timezone.now() - timedelta(1))
    grace = client_for(players[1])

    listed = grace.get("/api/invitations").json()["results"][0]
    accepted = grace.post(f"/api/invitations/{invitation}/accept")

    assert listed["state"] == "expired"
    assert (accepted.status_code, problem_code(accepted)) == (409, "invitation_expired")
    assert "ask the match's creator for a new one" in accepted.json()["detail"]
    assert Invitation.objects.get(pk=invitation).state == "expired"
    lobby = client_for(players[2]).get("/api/matches/open").json()["results"]
    assert match.pk in [row["id"] for row in lobby]
    assert invite(ada, match, player_id=players[2].pk).status_code == HTTPStatus.CREATED


def test_the_sweep_marks_expired_invitations(
    players: list[Player], ada: Any, settings: Any
) -> None:
    settings.INVITATION_TTL_HOURS = 1
    match = open_match(players[0])
    first = invite(ada, match, player_id=players[1].pk).json()
    invite(ada, match, player_id=players[2].pk)
    assert first["expires_at"] > timezone.now().isoformat()

    later = timezone.now() + timedelta(hours=1, seconds=1)

    assert invitations_sweep(now=later) == 2
    assert invitations_sweep(now=later) == 0
    assert set(Invitation.objects.values_list("state", flat=True)) == {"expired"}


def test_a_link_opens_its_one_seat_once(players: list[Player], ada: Any) -> None:
    match = open_match(players[0])
    other = open_match(players[0])
    issued = invite(ada, match, link=True, seat=2).json()
    code = issued["code"]
    alan, edsger = client_for(players[2]), client_for(players[3])

    wrong_match = alan.post(
        "/api/invitations/accept", {"code": code, "match_id": other.pk}, format="json"
    )
    unknown = alan.post("/api/invitations/accept", {"code": "ABCDEFGHJK"}, format="json")
    by_id = alan.post(f"/api/invitations/{issued['id']}/accept")
    taken = alan.post("/api/invitations/accept", {"code": code.lower()}, format="json")
    reused = edsger.post("/api/invitations/accept", {"code": code}, format="json")

    assert issued["link"] is True
    assert issued["invitee"] is None
    assert len(code) == 10
    assert issued["url"].endswith(f"/invite/#{code}")
    assert (wrong_match.status_code, problem_code(wrong_match)) == (404, "invitation_not_found")
    assert (unknown.status_code, problem_code(unknown)) == (404, "invitation_not_found")
    assert (by_id.status_code, problem_code(by_id)) == (404, "invitation_not_found")
    assert taken.status_code == HTTPStatus.OK, taken.content
    assert (reused.status_code, reused.json()) == (404, unknown.json())  # as if never issued
    assert Seat.objects.get(match=match, position=2).player_id == players[2].pk
    assert not Seat.objects.filter(match=other, player=players[2]).exists()


def test_an_invitation_shows_nothing_hidden(players: list[Player], ada: Any) -> None:
    match = open_match(players[0])
    issued = invite(ada, match, link=True).json()
    invite(ada, match, player_id=players[1].pk)
    match.refresh_from_db()

    listed = ada.get("/api/invitations?sent=true")
    received = client_for(players[1]).get("/api/invitations")

    for response in (listed, received):
        text = response.content.decode()
        assert issued["code"] not in text
        assert match.seed not in text
        for row in response.json()["results"]:
            assert set(row) == {
                "id", "match_id", "variant", "seat", "state", "link", "inviter", "invitee",
                "created_at", "expires_at", "closed_at",
            }  # fmt: skip
    assert not Invitation.objects.filter(code_hash=issued["code"]).exists()  # only its hash


def test_the_invitee_is_notified_once_the_invitation_is_committed(
    players: list[Player],
    ada: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    told: list[int] = []
    monkeypatch.setattr(
        "games.invitations.services.notify_invited", lambda invitation: told.append(invitation.pk)
    )
    match = open_match(players[0])

    with django_capture_on_commit_callbacks(execute=True):
        made = invite(ada, match, player_id=players[1].pk).json()
        assert told == []  # not before the commit
        invite(ada, match, link=True)

    assert told == [made["id"]]


def test_the_list_pages_and_refuses_a_bad_filter(players: list[Player], ada: Any) -> None:
    for _ in range(3):
        invite(ada, open_match(players[0], open_seats=1), player_id=players[1].pk)
    grace = client_for(players[1])

    page = grace.get("/api/invitations?page_size=2").json()
    bad = grace.get("/api/invitations?sent=maybe")
    unknown = grace.get("/api/invitations?colour=red")

    assert (page["count"], len(page["results"]), page["next"] is not None) == (3, 2, True)
    assert bad.status_code == HTTPStatus.BAD_REQUEST
    assert "sent" in bad.json()["errors"]
    assert unknown.status_code == HTTPStatus.BAD_REQUEST


@pytest.mark.parametrize("name", STORABLE)
def test_hostile_names_are_data_in_an_invitation(
    players: list[Player], ada: Any, name: str
) -> None:
    Player.objects.filter(pk__in=[players[0].pk, players[1].pk]).update(display_name=name)
    match = open_match(players[0])

    issued = invite(ada, match, player_id=players[1].pk)
    listed = client_for(players[1]).get("/api/invitations")

    assert issued["Content-Type"] == "application/json"
    assert (issued.json()["inviter"]["name"], issued.json()["invitee"]["name"]) == (name, name)
    assert listed.json()["results"][0]["inviter"]["name"] == name


def test_a_table_match_takes_no_invitation_and_has_no_rematch(
    players: list[Player], ada: Any
) -> None:
    table = table_match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[TableSeatSpec("creator"), TableSeatSpec("guest", name="Cousin Joe")],
    )
    Match.objects.filter(pk=table.pk).update(status=Match.Status.FINISHED)

    invited = invite(ada, table, player_id=players[1].pk)
    rematch = ada.post(f"/api/matches/{table.pk}/rematch")

    assert (invited.status_code, problem_code(invited)) == (409, "table_match")
    assert (rematch.status_code, problem_code(rematch)) == (409, "table_match")


def test_ids_past_64_bits_are_nothing_found(players: list[Player], ada: Any) -> None:
    big = 10**19

    answers = [
        ada.post(f"/api/matches/{big}/invitations", {"player_id": players[1].pk}, format="json"),
        ada.post(f"/api/matches/{big}/rematch"),
        ada.post(f"/api/invitations/{big}/accept"),
        ada.delete(f"/api/invitations/{big}"),
        ada.post("/api/invitations/accept", {"code": "x", "match_id": big}, format="json"),
        invite(ada, open_match(players[0]), player_id=big),
    ]

    assert [a.status_code for a in answers] == [404, 404, 404, 404, 404, 400]
