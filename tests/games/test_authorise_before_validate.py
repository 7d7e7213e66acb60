"""Authorisation before validation: on every write operation of the schema, a signed-in player
with no right on the object named (an outsider) is refused (403 or 404) before the body is
read, so that a malformed body never tells them more than a well-formed one would.

The schema is generated from the app, so a new write operation is walked as soon as it is
declared; the operations any signed-in player may do on what they name are listed in
``ANYONE_MAY`` with the reason, and answer the malformed body with a 400 like any other
validation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.accounts.token_models import DeviceToken
from games.invitations.services import invitation_create
from games.models import Match, Player
from games.notifications.models import PushDevice
from games.services import SeatSpec, match_create
from games.tables.scorer_links import scorer_link_issue
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.schema_check import openapi
from tests.games.wall_world import enter_round, wall_world

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")

#: Operations a signed-in player may do without any right on another's object, and why a
#: malformed body is theirs to be told about (400).
ANYONE_MAY = {
    "logout": "ends the caller's own session",
    "logout_all": "ends the caller's own sessions",
    "password_reset": "anyone may ask for a reset link (it says nothing of the account)",
    "password_reset_confirm": "the link's token is the right, checked with the body",
    "token_obtain": "logging in: the body is the credential",
    "invitation_code_accept": "the code in the body is the right",
    "match_create": "a match of one's own",
    "seat_join": "any player may take an open seat of an open match",
    "competition_register": "any player may register for a competition open for it",
    "competition_withdraw": "the caller's own registration (409 not_registered without one)",
    "competition_check_in": "checks the caller in; naming another player (the body) is the "
    "organiser's right, refused as soon as the body names them",
    "competition_check_in_undo": "as competition_check_in",
    "notification_preferences_set": "the caller's own preferences",
    "notifications_read": "the caller's own notifications",
    "notifications_ticket": "the caller's own notifications' socket",
    "player_register": "a new account",
    "player_me_update": "the caller's own account",
    "claim_redeem": "the code in the body is the right",
    "player_delete": "the caller's own account",
    "email_set": "the caller's own address",
    "email_verify": "the link's token in the body is the right",
    "password_change": "the caller's own password",
    "push_device_register": "a device of the caller's own",
    "queue_join": "the caller's own place in the queue",
    "queue_leave": "the caller's own place in the queue",
    "avatar_upload": "the caller's own avatar",
    "avatar_remove": "the caller's own avatar",
    "friend_request_send": "any signed-in player may ask another to be friends",
    "friend_request_accept": "the caller's own requests: another's answers 404",
    "friend_request_decline": "the caller's own requests: another's answers 404",
    "player_block": "any signed-in player may block another",
}

#: Bodies that are not what any write operation takes.
MALFORMED = {
    "not an object": ["not", "an", "object"],
    "wrong types": {"scores": [], "reason": 5, "version": "x", "position": "x", "name": []},
}

#: The paths whose {match_id} is the table match (the others: the online match in play).
TABLE_PATHS = ("/rounds/", "/scorer-links", "/table-settings", "/seats/", "/reopen")


@dataclass
class World:
    owner: Player
    online_id: int
    table_id: int
    competition_id: int
    values: dict[str, int]


@pytest.fixture
def world(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> World:
    """Ada's world: an organiser's running table tournament (stage 1, round 1 of its table
    entered, a scorer link), an online match in play (Ada, Grace, Alan), an open match with an
    invitation held for Edsger, Ada's token and push device."""
    ada, grace = players[0], players[1]
    ada.is_organiser = True
    ada.save(update_fields=["is_organiser"])
    wall = wall_world(players, clients[0])
    enter_round(clients[0], wall.match_id, 1, 0)
    link = scorer_link_issue(match_id=wall.match_id, player=ada).link
    online = started_match()
    open_match = match_create(
        creator=ada, variant="chickenfoot", seats=[SeatSpec(kind="creator"), SeatSpec(kind="open")]
    )
    invitation = invitation_create(match_id=open_match.pk, inviter=ada, invitee=players[3])
    device = PushDevice.objects.create(player=ada, kind="web", token="https://push.example/1")
    token = DeviceToken.objects.filter(user=ada.user).order_by("pk").first()
    assert token is not None
    return World(
        owner=ada,
        online_id=online.pk,
        table_id=wall.match_id,
        competition_id=wall.competition.pk,
        values={
            "competition_id": wall.competition.pk,
            "player_id": grace.pk,
            "number": 1,
            "position": 2,
            "link_id": link.pk,
            "invitation_id": invitation.invitation.pk,
            "token_id": token.pk,
            "device_id": device.pk,
        },
    )


def write_operations() -> list[tuple[str, str, str]]:
    """Every write operation of the schema: (method, path, operation id)."""
    found = []
    for path, operations in openapi()["paths"].items():
        for method in WRITES:
            if method in operations:
                found.append((method, path, operations[method]["operationId"]))
    return found


def test_the_walk_covers_every_write_operation_and_every_exception_is_one() -> None:
    ids = {operation_id for _, _, operation_id in write_operations()}
    assert len(ids) >= 60
    assert set(ANYONE_MAY) <= ids, sorted(set(ANYONE_MAY) - ids)


def url_of(path: str, world: World) -> str:
    match_id = world.table_id if any(part in path for part in TABLE_PATHS) else world.online_id
    return path.format(match_id=match_id, **world.values)


@pytest.mark.parametrize("body", MALFORMED.values(), ids=MALFORMED.keys())
@pytest.mark.parametrize(
    ("method", "path", "operation_id"),
    [op for op in write_operations() if op[2] not in ANYONE_MAY],
    ids=[op[2] for op in write_operations() if op[2] not in ANYONE_MAY],
)
def test_an_outsider_is_refused_before_the_body_is_read(
    method: str, path: str, operation_id: str, body: Any, world: World
) -> None:
    # given: a signed-in player with no right on any of Ada's things
    outsider = client_for(PlayerFactory(display_name="Eve"))

    # when
    response = getattr(outsider, method)(url_of(path, world), body, format="json")

    # then
    assert response.status_code in (HTTPStatus.FORBIDDEN, HTTPStatus.NOT_FOUND), (
        operation_id,
        response.status_code,
        response.content[:300],
    )
