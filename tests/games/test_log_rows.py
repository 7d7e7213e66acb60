"""The move log in plain SQL (games/log_rows.py) gives what the ORM gives: the match's columns
and its engine state's round and turn, and each move's values converted as the ORM converts
them (JSON tiles and events, times), with its round's number, after a seq, up to a seq, at
most a limit, in seq order, through a match of several rounds and at its end."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.live import frames
from games.live.access import Viewer
from games.log_rows import MATCH_COLUMNS, MOVE_COLUMNS, log_match, log_moves
from games.models import Match, Move, Player
from games.selectors import move_rows
from tests.games.helpers import play_turn


def _orm_match(match_id: int) -> dict[str, Any] | None:
    return (
        Match.objects.filter(pk=match_id)
        .values(*MATCH_COLUMNS, "state__round_no", "state__turn")
        .first()
    )


def _values(move: Move, round_no: int) -> tuple[Any, ...]:
    return (*(getattr(move, name) for name in MOVE_COLUMNS), round_no)


def _orm_moves(match_id: int, after: int, upto: int, limit: int) -> list[tuple[Any, ...]]:
    return [
        _values(m, m.round.number)
        for m in Move.objects.filter(match_id=match_id, seq__gt=after, seq__lte=upto)
        .select_related("round")
        .order_by("seq")[:limit]
    ]


def _plain_moves(match_id: int, after: int, upto: int, limit: int) -> list[tuple[Any, ...]]:
    return [
        _values(m, number)
        for m, number in log_moves(match_id=match_id, after=after, upto=upto, limit=limit)
    ]


@pytest.mark.django_db
def test_the_plain_reads_are_the_orms_through_a_whole_match(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match(n=2, options={"max_pip": 6})
    assert log_match(match_id=match.pk) == _orm_match(match.pk)
    rng = random.Random(7)
    rounds_seen = set()
    while play_turn(clients, match.pk, rng) is not None:
        row = log_match(match_id=match.pk)
        assert row == _orm_match(match.pk)
        assert row is not None
        rounds_seen.add(row["state__round_no"])
    assert len(rounds_seen) > 1  # the reads crossed rounds
    final = Match.objects.get(pk=match.pk)
    assert log_match(match_id=match.pk) == _orm_match(match.pk)
    played = final.moves_played
    for after, upto, limit in [
        (0, played, 500),
        (3, played, 5),
        (played - 2, played, 10),
        (0, played // 2, 200),
        (played, played, 10),
    ]:
        plain = _plain_moves(match.pk, after, upto, limit)
        assert plain == _orm_moves(match.pk, after, upto, limit)
    whole = _plain_moves(match.pk, 0, played, 10_000)
    assert [m[0] for m in whole] == list(range(1, played + 1))
    tile, events = MOVE_COLUMNS.index("tile"), MOVE_COLUMNS.index("events")
    assert any(isinstance(m[tile], list) for m in whole)  # JSON comes back decoded, not as text
    assert all(isinstance(m[events], list) for m in whole)
    # what the sockets and the HTTP log are built from: the same rows, in the same shape
    assert [r["seq"] for r in move_rows(match=final, after=0, limit=10_000)] == [
        m[0] for m in whole
    ]


@pytest.mark.django_db
def test_no_such_match_reads_nothing() -> None:
    assert log_match(match_id=987_654) is None
    assert log_match(match_id=0) is None
    assert log_match(match_id=2**63) is None
    assert log_moves(match_id=987_654, after=0, upto=10, limit=10) == []


@pytest.mark.django_db
def test_a_resuming_sockets_greeting_reads_the_log_as_a_read_of_its_own_would(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    """``frames.greeting`` reads the moves a resuming socket missed from the match it read for
    the hello: the same rows as ``log_read`` reading the match itself."""
    match = started_match(n=2, options={"max_pip": 6})
    rng = random.Random(3)
    for _ in range(12):
        play_turn(clients, match.pk, rng)
    viewer = Viewer(player=players[1], seat=1, watches=False)
    said, missed = frames.greeting(match_id=match.pk, viewer=viewer, after=4)
    assert said == frames.hello(match_id=match.pk, viewer=viewer)
    assert missed == frames.log_read(match_id=match.pk, after=4)
    assert [m["seq"] for m in missed.moves] == list(range(5, said["seq"] + 1))
    assert frames.greeting(match_id=match.pk, viewer=viewer, after=said["seq"])[1] is None
    assert frames.greeting(match_id=match.pk, viewer=viewer, after=None)[1] is None
