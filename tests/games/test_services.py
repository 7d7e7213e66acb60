"""The write services: moves under the lock, idempotency, bots, and the replay check."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from games import engine
from games.models import Match, Move, Player, Round
from games.problems import IdempotencyKeyReused, NotYourMatch, StaleVersion
from games.services import SeatSpec, bot_turn_play, match_create, match_start, move_submit
from games.services.replay import match_replay_verify
from games.tasks import bot_play_turn
from tests.games.conftest import FIXED_SEED
from tests.games.helpers import play_to_end

pytestmark = pytest.mark.django_db


def first_legal(match: Match) -> dict:
    state = engine.from_json(match.state)
    return engine.legal_moves(state, state.turn)[0].to_json()


def test_move_submit_appends_one_move_and_bumps_the_version(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    # given
    match = started_match()
    turn = match.state["turn"]
    move = first_legal(match)

    # when
    outcome = move_submit(
        match_id=match.pk, player=players[turn], move=move, expected_version=match.version
    )

    # then
    match.refresh_from_db()
    assert outcome.version == match.version == 4
    assert match.moves_played == 1
    row = Move.objects.get(match=match)
    assert (row.seq, row.seat, row.kind) == (1, turn, move["kind"])
    assert row.round == Round.objects.get(match=match, number=1)
    assert row.idempotency_key == ""
    assert row.response is None


def test_refusals_write_nothing(players: list[Player], started_match: Callable[..., Match]) -> None:
    match = started_match()
    turn = match.state["turn"]
    move = first_legal(match)
    snapshot = dict(match.state)

    with pytest.raises(StaleVersion):
        move_submit(match_id=match.pk, player=players[turn], move=move, expected_version=0)
    with pytest.raises(NotYourMatch):
        move_submit(match_id=match.pk, player=players[3], move=move, expected_version=match.version)
    with pytest.raises(engine.NotYourTurn):
        move_submit(
            match_id=match.pk,
            player=players[(turn + 1) % 3],
            move=move,
            expected_version=match.version,
        )

    match.refresh_from_db()
    assert match.state == snapshot
    assert not Move.objects.exists()


def test_an_idempotent_retry_is_found_before_the_version_check(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = started_match()
    turn = match.state["turn"]
    move = first_legal(match)
    kwargs = {"match_id": match.pk, "player": players[turn], "idempotency_key": "abc"}

    first = move_submit(move=move, expected_version=match.version, **kwargs)
    retry = move_submit(move=move, expected_version=match.version, **kwargs)

    assert retry.replayed
    assert retry.body == first.body
    with pytest.raises(IdempotencyKeyReused):
        move_submit(move={"kind": "pass"}, expected_version=match.version, **kwargs)


def test_bots_play_until_a_human_is_to_move_and_the_match_ends(
    players: list[Player], django_capture_on_commit_callbacks: Callable
) -> None:
    # given: a human and three bots of every level
    specs = [SeatSpec(kind="creator")] + [SeatSpec(kind="bot", level=lv) for lv in (1, 2, 3)]
    match = match_create(
        creator=players[0], variant="chickenfoot", seats=specs, options={"rounds": 2}
    )

    # when: started, the bots move (after commit) until it is the human's turn
    with django_capture_on_commit_callbacks(execute=True):
        match_start(match_id=match.pk, player=players[0])
    match.refresh_from_db()

    # then
    assert match.state["turn"] == 0 or match.status == Match.Status.FINISHED
    while match.status == Match.Status.PLAYING:
        with django_capture_on_commit_callbacks(execute=True):
            move_submit(
                match_id=match.pk,
                player=players[0],
                move=first_legal(match),
                expected_version=match.version,
            )
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED or match.state["turn"] == 0
    assert set(Move.objects.filter(match=match).values_list("seat", flat=True)) == {0, 1, 2, 3}
    assert match_replay_verify(match_id=match.pk).ok


def test_an_all_bot_match_plays_out_without_recursing(
    players: list[Player], django_capture_on_commit_callbacks: Callable
) -> None:
    specs = [SeatSpec(kind="bot", level=lv) for lv in (1, 2, 3, 1)]
    match = match_create(creator=players[0], variant="mexican_train", seats=specs)

    with django_capture_on_commit_callbacks(execute=True):
        match_start(match_id=match.pk, player=players[0])

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.moves_played > 300
    assert match_replay_verify(match_id=match.pk).ok


def test_a_bot_turn_on_a_humans_turn_does_nothing(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = started_match()

    assert bot_turn_play(match_id=match.pk) is None  # a human's turn
    assert bot_play_turn.delay(match.pk, match.version - 1).get() == 0
    assert not Move.objects.exists()


def test_a_late_bot_task_still_plays_a_bot_that_is_to_move(players: list[Player]) -> None:
    # given: a bot to move whose task was lost (nothing ran after the start committed)
    specs = [SeatSpec(kind="bot", level=2), SeatSpec(kind="creator")]
    match = match_create(creator=players[0], variant="chickenfoot", seats=specs)
    Match.objects.filter(pk=match.pk).update(seed=FIXED_SEED)
    match_start(match_id=match.pk, player=players[0])  # on_commit never runs in this test
    match.refresh_from_db()
    assert match.state["turn"] == 0

    # when: a task queued at an older version arrives (redelivered after a worker died)
    played = bot_play_turn.delay(match.pk, match.version - 5).get()

    # then: it plays the bot's turn, once, and stops at the human's
    match.refresh_from_db()
    assert played >= 1
    assert match.status == Match.Status.FINISHED or match.state["turn"] == 1
    assert list(Move.objects.filter(match=match).values_list("seq", flat=True)) == list(
        range(1, played + 1)
    )
    assert match_replay_verify(match_id=match.pk).ok


def test_verify_match_passes_a_played_match_and_catches_tampering(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match(options={"rounds": 2})
    play_to_end(clients[:3], match.pk, seed=5)
    out = StringIO()

    call_command("verify_match", str(match.pk), stdout=out)
    call_command("verify_match", "--all", stdout=out)

    assert f"match {match.pk}: ok" in out.getvalue()
    move = Move.objects.filter(match=match, kind="play").order_by("seq")[3]
    move.tile = list(reversed(move.tile)) if move.tile[0] != move.tile[1] else [0, 0]
    move.events = [*move.events, {"type": "forged"}]
    move.save()
    with pytest.raises(CommandError, match="differ on replay"):
        call_command("verify_match", str(match.pk), stdout=out, stderr=StringIO())
    row = Round.objects.get(match=match, number=2)
    row.snapshot = {**row.snapshot, "hands": []}
    row.save()
    report = match_replay_verify(match_id=match.pk)
    assert any("events differ" in p for p in report.problems)
    assert any("round 2's snapshot differs" in p for p in report.problems)


def test_verify_match_needs_ids() -> None:
    with pytest.raises(CommandError, match="Name match ids"):
        call_command("verify_match")
    with pytest.raises(CommandError, match="no match 404"):
        call_command("verify_match", "404")


def test_verify_match_all_without_finished_matches_says_so() -> None:
    # given no finished match, when every finished match is checked, then that is no error
    out = StringIO()
    call_command("verify_match", "--all", stdout=out)
    assert out.getvalue() == "No finished match to check.\n"
