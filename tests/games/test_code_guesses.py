"""Claim codes and invite links' codes cannot be guessed for free: a code that opens nothing is
counted against the account and the address that sent it (throttles ``code_guess`` and
``code_guess_address``, as scorer codes are counted: docs/reliability.md), and past either limit
every code is 429 before it is looked up, a right one too. A code used, expired or withdrawn is
answered exactly as one that never was."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from chickenfoot.env import env_rate
from games.invitations.models import Invitation
from games.invitations.services import invitation_create
from games.models import Player, Seat
from games.services import SeatSpec, match_create
from games.tables.claims import code_hash
from games.tables.models import GuestClaim
from tests.caches import CACHE_KINDS, cache_of_own
from tests.games.factories import PlayerFactory, token_for
from tests.games.schema_check import check_response

pytestmark = pytest.mark.django_db

CLAIMS, INVITATIONS = "/api/players/me/claims", "/api/invitations/accept"
#: A code of each kind's length that no one was given.
UNKNOWN = {CLAIMS: "NOPE2345", INVITATIONS: "NOPE2345AB"}


def client(player: Player, address: str = "192.0.2.10") -> APIClient:
    api = APIClient(REMOTE_ADDR=address)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_for(player)}")
    return api


def post(api: APIClient, path: str, code: str) -> Any:
    return api.post(path, {"code": code}, format="json")


def claim_code(creator: Player) -> str:
    """A claim code for the guest of a table match of ``creator``'s."""
    made = client(creator).post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "play": "table",
            "seats": [{"kind": "creator"}, {"kind": "guest", "name": "Bea"}],
        },
        format="json",
    )
    assert made.status_code == HTTPStatus.CREATED, made.content
    issued = client(creator).post(f"/api/matches/{made.json()['id']}/seats/1/claim-code")
    assert issued.status_code == HTTPStatus.CREATED, issued.content
    return str(issued.json()["code"])


def invite_code(creator: Player) -> str:
    """An invite link's code for a seat of an open match of ``creator``'s."""
    match = match_create(
        creator=creator, variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    code = invitation_create(match_id=match.pk, inviter=creator, link=True).code
    assert code is not None
    return code


CODE_OF: dict[str, Callable[[Player], str]] = {CLAIMS: claim_code, INVITATIONS: invite_code}


@pytest.fixture
def limits(settings: Any, request: pytest.FixtureRequest) -> Callable[[str, str], None]:
    """Turn the two limits on, counted in a cache of this test's own."""
    settings.CACHES = cache_of_own(getattr(request, "param", "locmem"), uuid.uuid4().hex)

    def set_limits(account: str, address: str) -> None:
        settings.THROTTLE_RATES = {
            "code_guess": env_rate("UNUSED", account),
            "code_guess_address": env_rate("UNUSED", address),
        }

    return set_limits


@pytest.mark.parametrize("limits", CACHE_KINDS, indirect=True)
@pytest.mark.parametrize("path", [CLAIMS, INVITATIONS])
def test_an_account_past_its_failed_codes_is_refused_any_code_from_any_address(
    players: list[Player], limits: Callable[[str, str], None], path: str
) -> None:
    # given: 3 failed codes a minute per account, many per address
    limits("3/min", "100/min")
    code = CODE_OF[path](players[0])
    guesser = players[2]

    # when: the guesser tries four wrong codes, each from another address, then the right one
    guesses = [
        post(client(guesser, f"198.51.100.{n}"), path, f"WRONG{n:03d}AB"[: len(code)])
        for n in range(4)
    ]
    right = post(client(guesser, "198.51.100.99"), path, code)

    # then: three 404s, then 429 with Retry-After, the right code refused too
    assert [g.status_code for g in guesses] == [HTTPStatus.NOT_FOUND] * 3 + [
        HTTPStatus.TOO_MANY_REQUESTS
    ]
    assert (right.status_code, right.json()["code"]) == (HTTPStatus.TOO_MANY_REQUESTS, "throttled")
    assert int(right["Retry-After"]) >= 1
    # and: each answer is one the schema declares (the 429 too)
    for answer in (*guesses, right):
        check_response(answer, path, "post")
    # and: another account is not held back, even from the guesser's last address
    taken = post(client(players[3], "198.51.100.99"), path, code)
    assert taken.status_code == HTTPStatus.OK, taken.content


@pytest.mark.parametrize("path", [CLAIMS, INVITATIONS])
def test_an_address_past_its_failed_codes_is_refused_for_every_account(
    players: list[Player], limits: Callable[[str, str], None], path: str
) -> None:
    # given: many failed codes per account, 3 a minute per address
    limits("100/min", "3/min")
    code = CODE_OF[path](players[0])
    accounts = [PlayerFactory() for _ in range(4)]

    # when: four accounts from one address try a wrong code each, then a fifth the right one
    guesses = [post(client(account), path, UNKNOWN[path]) for account in accounts]
    right = post(client(players[3]), path, code)

    # then
    assert [g.status_code for g in guesses] == [HTTPStatus.NOT_FOUND] * 3 + [
        HTTPStatus.TOO_MANY_REQUESTS
    ]
    assert right.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert post(client(players[3], "192.0.2.20"), path, code).status_code == HTTPStatus.OK


@pytest.mark.parametrize("path", [CLAIMS, INVITATIONS])
def test_a_right_code_is_not_counted(
    players: list[Player], limits: Callable[[str, str], None], path: str
) -> None:
    limits("1/min", "1/min")
    for creator in players[:2]:
        code = CODE_OF[path](creator)
        assert post(client(players[3]), path, code).status_code == HTTPStatus.OK


def same_answer(answer: Any, unknown: Any) -> bool:
    """The same status and the same body (a problem has no per-request field)."""
    return bool(answer.status_code == unknown.status_code and answer.json() == unknown.json())


def test_a_used_or_expired_claim_code_is_answered_as_an_unknown_one(players: list[Player]) -> None:
    claimer = client(players[3])
    unknown = post(claimer, CLAIMS, UNKNOWN[CLAIMS])
    assert (unknown.status_code, unknown.json()["code"]) == (404, "claim_code_unknown")
    # used
    used = claim_code(players[0])
    assert post(client(players[2]), CLAIMS, used).status_code == HTTPStatus.OK
    # expired
    expired = claim_code(players[0])
    GuestClaim.objects.filter(code_hash=code_hash(expired)).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    # a second code for one guest, whose seats the first has claimed
    first = claim_code(players[0])
    match_id = GuestClaim.objects.get(code_hash=code_hash(first)).match_id
    second = client(players[0]).post(f"/api/matches/{match_id}/seats/1/claim-code").json()["code"]
    assert post(client(players[1]), CLAIMS, first).status_code == HTTPStatus.OK

    for code in (used, used.lower(), expired, second):
        assert same_answer(post(claimer, CLAIMS, code), unknown), code
    assert not Seat.objects.filter(player=players[3]).exists()


def test_a_used_withdrawn_or_expired_links_code_is_answered_as_an_unknown_one(
    players: list[Player],
) -> None:
    taker = client(players[3])
    unknown = post(taker, INVITATIONS, UNKNOWN[INVITATIONS])
    assert (unknown.status_code, unknown.json()["code"]) == (404, "invitation_not_found")

    used = invite_code(players[0])
    assert post(client(players[2]), INVITATIONS, used).status_code == HTTPStatus.OK
    withdrawn = invite_code(players[1])
    link = Invitation.objects.get(inviter=players[1])
    assert client(players[1]).delete(f"/api/invitations/{link.pk}").status_code == 204
    expired = invite_code(players[0])
    Invitation.objects.filter(state=Invitation.State.PENDING).update(expires_at=timezone.now())

    for code in (used, withdrawn, expired):
        assert same_answer(post(taker, INVITATIONS, code), unknown), code
    # and: the expired one is marked so, as the sweeper would
    assert set(Invitation.objects.values_list("state", flat=True)) == {
        "accepted",
        "withdrawn",
        "expired",
    }
    assert not Seat.objects.filter(player=players[3]).exists()


@pytest.mark.parametrize("path", [CLAIMS, INVITATIONS])
def test_a_spent_code_counts_as_a_failed_guess(
    players: list[Player], limits: Callable[[str, str], None], path: str
) -> None:
    limits("1/min", "100/min")
    code = CODE_OF[path](players[0])
    assert post(client(players[2]), path, code).status_code == HTTPStatus.OK

    again = post(client(players[3]), path, code)
    after = post(client(players[3]), path, code)

    assert (again.status_code, after.status_code) == (404, 429)
