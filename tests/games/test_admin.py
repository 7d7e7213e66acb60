"""The admin is where README's "Manage" says organisers are made; a match's rows are shown
there, never added, changed or deleted, and what happens to a match goes through its services."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from http import HTTPStatus

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.accounts.players import player_for_user
from games.models import Match, Move, Player, Round
from tests.games.factories import MatchFactory, PlayerFactory
from tests.games.helpers import play_turn

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
            "profile_visibility": player.profile_visibility,
            "is_organiser": "on",
        },
    )

    # then the player organises; and the administrator, being staff, does too
    assert answer.status_code == HTTPStatus.FOUND, answer.text[-2000:]
    player.refresh_from_db()
    assert player.organises
    assert player_for_user(user=admin).organises


@pytest.fixture
def admin_browser(db: None) -> Client:
    admin = User.objects.create_superuser("admin", "admin@example.com", "a long admin passphrase")
    browser = Client()
    browser.force_login(admin)
    return browser


@pytest.mark.parametrize("model", ["match", "round", "move"])
def test_a_matchs_rows_are_never_added_in_the_admin(admin_browser: Client, model: str) -> None:
    assert admin_browser.get(f"/admin/games/{model}/add/").status_code == HTTPStatus.FORBIDDEN
    index = admin_browser.get("/admin/").text
    assert f'href="/admin/games/{model}/add/"' not in index


def test_a_matchs_rows_are_never_changed_or_deleted_in_the_admin(
    admin_browser: Client, started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    # given: a match with a move played
    match = started_match()
    play_turn(clients[:3], match.pk, random.Random(1))
    move = Move.objects.get(match=match, seq=1)
    row = Round.objects.get(match=match, number=1)
    before = (match.status, Match.objects.get(pk=match.pk).version, move.kind, row.status)

    # when: an administrator posts changes and deletions to each of its pages
    changes = [
        (f"/admin/games/match/{match.pk}/change/", {"status": "finished", "version": 99}),
        (f"/admin/games/round/{row.pk}/change/", {"status": "finished", "number": 7}),
        (f"/admin/games/move/{move.pk}/change/", {"kind": "pass", "seq": 9}),
    ]
    answers = [admin_browser.post(page, data) for page, data in changes]
    deletes = [
        admin_browser.post(page.replace("/change/", "/delete/"), {"post": "yes"})
        for page, _ in changes
    ]

    # then: every one refused, nothing changed, nothing gone
    assert [a.status_code for a in answers + deletes] == [HTTPStatus.FORBIDDEN] * 6
    move.refresh_from_db()
    row.refresh_from_db()
    after = Match.objects.get(pk=match.pk)
    assert (after.status, after.version, move.kind, row.status) == before
    # the change pages show the rows, read-only, with no "Save" and no "Delete"
    page = admin_browser.get(f"/admin/games/match/{match.pk}/change/")
    assert page.status_code == HTTPStatus.OK
    assert 'name="_save"' not in page.text
    assert "/delete/" not in page.text
    # and the list offers no bulk delete
    listing = admin_browser.get("/admin/games/match/")
    assert 'value="delete_selected"' not in listing.text


def test_a_playing_matchs_hidden_information_stays_out_of_the_admin(
    admin_browser: Client, started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    match = started_match()
    play_turn(clients[:3], match.pk, random.Random(1))
    move = Move.objects.get(match=match, seq=1)
    row = Round.objects.get(match=match, number=1)

    pages = [
        admin_browser.get(f"/admin/games/match/{match.pk}/change/").text,
        admin_browser.get(f"/admin/games/round/{row.pk}/change/").text,
        admin_browser.get(f"/admin/games/move/{move.pk}/change/").text,
    ]

    hand = Match.objects.get(pk=match.pk).state["hands"][1]
    for text in pages:
        assert match.seed not in text
        assert "boneyard" not in text
        assert json.dumps(hand) not in text
    assert "Commitment" in pages[1]  # what a player may see is shown


def test_abandon_in_the_admin_goes_through_the_service(
    admin_browser: Client, started_match: Callable[..., Match]
) -> None:
    # given: a playing match and a finished one
    playing = started_match()
    finished = MatchFactory(created_by=playing.created_by)
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)

    # when: the administrator abandons both from the list
    answer = admin_browser.post(
        "/admin/games/match/",
        {"action": "abandon", "_selected_action": [playing.pk, finished.pk]},
        follow=True,
    )

    # then: the playing one is abandoned as the service does it (version bumped, clock and bot
    # turn stopped); the finished one refused with the service's reason, unchanged
    assert answer.status_code == HTTPStatus.OK
    after = Match.objects.get(pk=playing.pk)
    assert after.status == Match.Status.ABANDONED
    assert after.version == playing.version + 1
    assert after.finished_at is not None
    assert f"Match {playing.pk}: abandoned." in answer.text
    assert f"Match {finished.pk} is finished: it cannot be abandoned." in answer.text
    assert Match.objects.get(pk=finished.pk).status == Match.Status.FINISHED


def test_verify_replay_in_the_admin_replays_the_log(
    admin_browser: Client, started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    # given: a match with moves, and one whose logged move was tampered with
    match = started_match()
    rng = random.Random(3)
    for _ in range(4):
        play_turn(clients[:3], match.pk, rng)
    played = Move.objects.filter(match=match).count()

    # when
    answer = admin_browser.post(
        "/admin/games/match/",
        {"action": "verify_replay", "_selected_action": [match.pk]},
        follow=True,
    )
    Move.objects.filter(match=match, seq=1).update(seat=2)
    tampered = admin_browser.post(
        "/admin/games/match/",
        {"action": "verify_replay", "_selected_action": [match.pk]},
        follow=True,
    )

    # then
    assert f"Match {match.pk}: replay agrees ({played} moves" in answer.text
    assert f"Match {match.pk}: move 1: seat 2 moved on seat" in tampered.text


def test_display_names_are_escaped_in_the_admin(admin_browser: Client) -> None:
    creator = PlayerFactory(display_name="<b>Bold</b> & co")
    MatchFactory(created_by=creator)

    listing = admin_browser.get("/admin/games/match/").text

    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; co" in listing
    assert "<b>Bold</b>" not in listing
