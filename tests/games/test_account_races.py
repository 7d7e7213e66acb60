"""Account writes that race, on PostgreSQL: a reset link used from several clients at once sets
one password; two accounts verifying one address at once, one of them gets it."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.accounts.links import reset_token_make, reset_uid, verify_token_make
from games.models import Player
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.races import race

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this)"
    ),
    pytest.mark.django_db(transaction=True),
]

THREADS = 4


def test_a_reset_link_used_at_once_from_several_clients_sets_one_password() -> None:
    player = PlayerFactory(user__username="ada")
    uid, token = reset_uid(player.user), reset_token_make(user=player.user)

    def confirm(i: int) -> Callable[[], Any]:
        body = {"uid": uid, "token": token, "new_password": f"new passphrase number {i}"}
        return lambda: APIClient().post("/api/auth/password-reset/confirm", body, format="json")

    answers = race([confirm(i) for i in range(THREADS)])

    codes = sorted(a.status_code for a in answers)
    assert codes == [HTTPStatus.OK] + [HTTPStatus.BAD_REQUEST] * (THREADS - 1), codes
    won = next(i for i, a in enumerate(answers) if a.status_code == HTTPStatus.OK)
    player.user.refresh_from_db()
    assert player.user.check_password(f"new passphrase number {won}")


def test_two_accounts_verifying_one_address_at_once_one_gets_it() -> None:
    pair = [PlayerFactory(email="shared@example.com"), PlayerFactory(email="SHARED@example.com")]
    tokens = [verify_token_make(player=p) for p in pair]

    def verify(i: int) -> Callable[[], Any]:
        client = client_for(pair[i])
        body = {"token": tokens[i]}
        return lambda: client.post("/api/players/me/email/verify", body, format="json")

    answers = race([verify(0), verify(1)])

    assert sorted(a.status_code for a in answers) == [HTTPStatus.OK, HTTPStatus.CONFLICT]
    assert {a.json().get("code") for a in answers if a.status_code == HTTPStatus.CONFLICT} == {
        "email_taken"
    }
    assert Player.objects.filter(email_verified_at__isnull=False).count() == 1
