"""The organiser's hand on an online stage's seating: until a move is played at any of its
tables, swap, move, replace, lock, re-pair and undo work as at a table event, and a table whose
seats change is dealt again (its match deleted, its sockets told, a new match for the new
seats, its players notified); once a move is played (a bot's too) they answer 409
``stage_scoring_started``."""

from __future__ import annotations

import random
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.notifications.models import Notification
from games.services import bot_turn_play
from games.services.timeouts import clock_expire
from scoring.models import CompetitionMatch, SeatingChange, Stage
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_turn
from tests.scoring.competitions.event_api import API, add, create_event, seated, start

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def online_event(
    client: APIClient, capture: Capture, count: int, **fields: Any
) -> tuple[int, list[Player]]:
    """An online event of ``count`` players with accounts, stage 1 seated (its matches dealt
    and started, what follows the commit run)."""
    body = {"play": "online", "allow_bots": False, "options": {}, **fields}
    cid = create_event(client, **body)
    players = [PlayerFactory(display_name=f"P{n}") for n in range(count)]
    for player in players:
        add(client, cid, player_id=player.pk)
    client.post(f"{API}/{cid}/close")
    with capture(execute=True):
        start(client, cid, 1)
    return cid, players


def post(client: APIClient, cid: int, action: str, body: dict, version: int = 0) -> Any:
    return client.post(
        f"{API}/{cid}/stages/1/{action}", body, format="json", HTTP_IF_MATCH=f'"{version}"'
    )


def match_ids(cid: int) -> list[int]:
    return list(
        CompetitionMatch.objects.filter(competition_id=cid)
        .order_by("table_number")
        .values_list("match_id", flat=True)
    )


def dealt_for(match_id: int) -> list[int]:
    """The players of a started match, in seat order."""
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.PLAYING
    assert match.moves_played == 0
    return list(match.seats.order_by("position").values_list("player_id", flat=True))


def told(match_id: int) -> set[int]:
    return set(
        Notification.objects.filter(key=f"table_assigned:{match_id}").values_list(
            "player_id", flat=True
        )
    )


def test_a_swap_deals_both_tables_again_and_tells_the_old_matches_sockets(
    organiser_client: APIClient,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given: six players at three tables of 2; what the matches' groups are sent is kept
    cid, _players = online_event(organiser_client, django_capture_on_commit_callbacks, 6)
    one, two, three = match_ids(cid)
    t1, t2, _t3 = seated(organiser_client, cid, 1)
    assert told(one) == set(t1)
    sent: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr(
        "games.live.publish.publish", lambda *, match_id, message: sent.append((match_id, message))
    )

    # when: a player of table 1 and one of table 2 change seats
    with django_capture_on_commit_callbacks(execute=True):
        swapped = post(organiser_client, cid, "swap", {"players": [t1[0], t2[1]]})

    # then: tables 1 and 2 are new matches, dealt for their new seats; table 3 stays
    assert swapped.status_code == HTTPStatus.OK, swapped.content
    assert swapped["ETag"] == '"1"'
    new_one, new_two, same_three = match_ids(cid)
    assert same_three == three
    assert {new_one, new_two}.isdisjoint({one, two})
    assert not Match.objects.filter(pk__in=[one, two]).exists()
    assert dealt_for(new_one) == [t2[1], t1[1]]
    assert dealt_for(new_two) == [t2[0], t1[0]]
    assert [t["match_id"] for t in swapped.json()["tables"]] == [new_one, new_two, three]
    # the players are told their new tables; nobody keeps an entry for a deleted match
    assert told(new_one) == {t2[1], t1[1]}
    assert told(new_two) == {t2[0], t1[0]}
    assert not Notification.objects.filter(
        key__in=[f"table_assigned:{one}", f"table_assigned:{two}"]
    )
    # the sockets open on the deleted matches are told (then find no match, and close)
    for old in (one, two):
        notice = {"type": "match.notice", "frame": {"type": "match_cancelled", "match_id": old}}
        assert (old, notice) in sent
    # audited, with the match each table had before
    change = SeatingChange.objects.get(competition_id=cid)
    assert (change.kind, change.players) == ("swap", [t1[0], t2[1]])
    assert [(t["table"], t["replaced_match_id"], t["match_id"]) for t in change.tables] == [
        (1, one, new_one),
        (2, two, new_two),
    ]
    audit = organiser_client.get(f"{API}/{cid}/seating-changes").json()["changes"]
    assert audit[0]["tables"][0]["replaced_match_id"] == one
    # a bot's turn or a turn clock queued for a deleted match finds nothing to do
    assert bot_turn_play(match_id=one) is None
    assert clock_expire(match_id=one, version=1) is None


def test_a_move_and_a_no_shows_seat_taken_by_a_late_entrant(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    # given: five at tables of 3 (a table of 3 and one of 2); Larry is entered during stage 1
    cid, _players = online_event(
        organiser_client, django_capture_on_commit_callbacks, 5, table_size=3
    )
    three, two = seated(organiser_client, cid, 1)
    larry = PlayerFactory(display_name="Larry")
    add(organiser_client, cid, player_id=larry.pk)

    # when: one of table 1 moves to table 2's first seat; Larry takes a no-show's seat
    moved = post(organiser_client, cid, "move", {"player": three[2], "table": 2, "position": 0})
    replaced = post(
        organiser_client, cid, "replace", {"player": larry.pk, "replaces": two[1]}, version=1
    )

    # then
    assert moved.status_code == HTTPStatus.OK, moved.content
    assert replaced.status_code == HTTPStatus.OK, replaced.content
    first, second = match_ids(cid)
    assert dealt_for(first) == three[:2]
    assert dealt_for(second) == [three[2], two[0], larry.pk]
    assert told(second) == {three[2], two[0], larry.pk}
    kinds = list(SeatingChange.objects.filter(competition_id=cid).values_list("kind", flat=True))
    assert kinds == ["move", "replace"]


def test_a_re_pair_keeps_the_locked_table_and_an_undo_deletes_every_match(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    # given: eight at tables of 2; table 2 locked
    cid, players = online_event(organiser_client, django_capture_on_commit_callbacks, 8)
    before = match_ids(cid)
    tables = seated(organiser_client, cid, 1)
    locked = post(organiser_client, cid, "lock", {"tables": [2], "locked": True})
    assert locked.status_code == HTTPStatus.OK, locked.content
    post(organiser_client, cid, "swap", {"players": [tables[0][0], tables[2][0]]}, version=1)

    # when: the stage is paired again
    repaired = post(organiser_client, cid, "re-pair", {}, version=2)

    # then: table 2's match stands; every player sits once, at a started match
    assert repaired.status_code == HTTPStatus.OK, repaired.content
    after = match_ids(cid)
    assert after[1] == before[1]
    assert seated(organiser_client, cid, 1)[1] == tables[1]
    assert sorted(p for table in seated(organiser_client, cid, 1) for p in table) == sorted(
        p.pk for p in players
    )
    for match_id in after:
        dealt_for(match_id)

    # when: the stage is undone
    undone = post(organiser_client, cid, "undo", {}, version=3)

    # then: its matches are gone with it, and it can be seated again
    assert undone.status_code == HTTPStatus.OK, undone.content
    assert not Match.objects.filter(pk__in=after + before).exists()
    assert not Stage.objects.filter(competition_id=cid).exists()
    assert not Notification.objects.filter(kind="table_assigned").exists()
    with django_capture_on_commit_callbacks(execute=True):
        start(organiser_client, cid, 1)
    assert len(match_ids(cid)) == 4


def test_once_a_move_is_played_every_change_is_refused(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    # given: six at three tables of 2; a player of table 1 makes the first move
    cid, players = online_event(organiser_client, django_capture_on_commit_callbacks, 6)
    tables = seated(organiser_client, cid, 1)
    ids = match_ids(cid)
    clients = {p.pk: client_for(p) for p in players}
    with django_capture_on_commit_callbacks(execute=True):
        play_turn([clients[p] for p in tables[0]], ids[0], random.Random(1))

    # when / then: every change is refused naming table 1, and nothing changes
    swap = post(organiser_client, cid, "swap", {"players": [tables[1][0], tables[2][0]]})
    assert (swap.status_code, swap.json()["code"]) == (409, "stage_scoring_started")
    assert swap.json()["tables"] == [1]
    for action, body in (
        ("move", {"player": tables[1][0], "table": 2, "position": 1}),
        ("re-pair", {}),
        ("undo", {}),
        ("lock", {"tables": [2], "locked": True}),
    ):
        refused = post(organiser_client, cid, action, body)
        assert refused.status_code == HTTPStatus.CONFLICT, (action, refused.content)
    assert match_ids(cid) == ids
    assert seated(organiser_client, cid, 1) == tables
    assert not SeatingChange.objects.filter(competition_id=cid).exists()

    # once reopened, the tables where nobody moved are dealt again; table 1 plays on
    reopened = post(organiser_client, cid, "reopen", {"reason": "Table 1 began early"})
    assert reopened.status_code == HTTPStatus.OK, reopened.content
    swapped = post(
        organiser_client, cid, "swap", {"players": [tables[1][0], tables[2][0]]}, version=1
    )
    assert swapped.status_code == HTTPStatus.OK, swapped.content
    first, second, third = match_ids(cid)
    assert first == ids[0]
    assert Match.objects.get(pk=first).moves_played == 1
    assert {second, third}.isdisjoint(ids)
    assert dealt_for(second) == [tables[2][0], tables[1][1]]


def test_a_bots_first_move_starts_the_stage_as_a_players_would(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    # given: two players at a table of 4 filled with bots, seated again (undone and started)
    # until a bot is the first to move; its turn is queued when the stage commits and played
    cid, players = online_event(
        organiser_client,
        django_capture_on_commit_callbacks,
        2,
        table_size=4,
        allow_bots=True,
    )
    for _attempt in range(40):
        (match_id,) = match_ids(cid)
        match = Match.objects.get(pk=match_id)
        if match.moves_played:
            break
        assert post(organiser_client, cid, "undo", {}).status_code == HTTPStatus.OK
        with django_capture_on_commit_callbacks(execute=True):
            start(organiser_client, cid, 1)
    assert match.bot_seats
    assert match.moves_played  # the bots played up to a player's turn

    # when: the organiser would swap the players' seats
    swap = post(organiser_client, cid, "swap", {"players": [p.pk for p in players]})

    # then: the stage has started: refused, nothing changed
    assert (swap.status_code, swap.json()["code"]) == (409, "stage_scoring_started")
    assert swap.json()["tables"] == [1]
    assert Match.objects.filter(pk=match_id).exists()
