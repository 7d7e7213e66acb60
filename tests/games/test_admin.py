"""The admin is where README's "Manage" says organisers are made."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.accounts.players import player_for_user
from games.models import Player

pytestmark = pytest.mark.django_db


def test_an_administrator_makes_a_player_an_organiser_in_the_admin(players: list[Player]) -> None:
    # given an administrator, signed in to the admin
    admin = User.objects.create_superuser("admin", "admin@example.com", "a long admin passphrase")
    browser = Client()
    browser.force_login(admin)
    index = browser.get("/admin/")
    assert index.status_code == HTTPStatus.OK
    assert "Authentication and Authorization" in index.text
    assert "Games" in index.text
    player = players[1]
    page = f"/admin/games/player/{player.pk}/change/"
    form = browser.get(page)
    assert "Is organiser" in form.text
    assert "Staff status" in browser.get(f"/admin/auth/user/{player.user.pk}/change/").text

    # when they tick "Is organiser" and save
    answer = browser.post(
        page,
        {
            "user": player.user.pk,
            "kind": player.kind,
            "display_name": player.display_name,
            "is_organiser": "on",
        },
    )

    # then the player organises; and the administrator, being staff, does too
    assert answer.status_code == HTTPStatus.FOUND, answer.text[-2000:]
    player.refresh_from_db()
    assert player.organises
    assert player_for_user(user=admin).organises
