"""Round 1's opening events (the match's start, in no move) are kept and shown in the move log."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from games import engine
from games.models import Match, Round
from games.services.replay import match_replay_verify
from tests.games.helpers import play_to_end

pytestmark = pytest.mark.django_db

#: A three-seat Chicken Foot deal where nobody holds the 9|9: seats 0, 1 and 2 each draw.
DRAWING_SEED = "03" * 32


def test_the_start_keeps_round_1s_opening_unredacted(
    started_match: Callable[..., Match],
) -> None:
    match = started_match("chickenfoot", 3, seed=DRAWING_SEED)

    row = Round.objects.get(match=match, number=1)

    expected = engine.opening_events(engine.new_match("chickenfoot", 3, match.options, match.seed))
    assert row.opening == expected
    assert row.opening[0]["type"] == "round_started"
    assert row.opening[-1]["type"] == "start_double_placed"
    assert {e["seat"] for e in row.opening if e["type"] == "drew"} == {0, 1, 2}
    assert all("tile" in e for e in row.opening if e["type"] == "drew")


def test_the_log_shows_the_opening_with_each_draw_to_its_drawer_only(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, seed=DRAWING_SEED)
    stored = Round.objects.get(match=match, number=1).opening

    for seat in range(3):
        log = clients[seat].get(f"/api/matches/{match.pk}/log").json()

        assert log["moves"] == []
        assert [e["type"] for e in log["opening"]] == [e["type"] for e in stored]
        for shown, kept in zip(log["opening"], stored, strict=True):
            if kept["type"] == "drew" and kept["seat"] != seat:
                assert "tile" not in shown
                assert shown == {k: v for k, v in kept.items() if k != "tile"}
            else:
                assert shown == kept


def test_the_opening_is_on_the_first_page_only_and_whole_once_the_match_is_over(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1}, seed=DRAWING_SEED)
    stored = Round.objects.get(match=match, number=1).opening

    play_to_end(clients, match.pk, seed=5)

    first = clients[1].get(f"/api/matches/{match.pk}/log?limit=2").json()
    later = clients[1].get(f"/api/matches/{match.pk}/log?after=2").json()
    assert first["opening"] == stored  # the round is over: every drawn tile is shown
    assert later["opening"] == []
    assert match_replay_verify(match_id=match.pk).ok


def test_mexican_train_opening_places_the_engine(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("mexican_train", 3)

    opening = clients[2].get(f"/api/matches/{match.pk}/log").json()["opening"]

    assert [e["type"] for e in opening] == ["round_started", "engine_placed"]
    assert opening[0]["round"] == 1


def test_later_rounds_keep_their_opening_too(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 2})

    play_to_end(clients, match.pk, seed=1)

    second = Round.objects.get(match=match, number=2)
    assert second.opening[0] == {**second.opening[0], "type": "round_started", "round": 2}
    assert second.opening[-1]["type"] == "start_double_placed"
    log = clients[0].get(f"/api/matches/{match.pk}/log").json()
    carried = [e for m in log["moves"] for e in m["events"]]
    start = carried.index(second.opening[0])
    assert carried[start : start + len(second.opening)] == second.opening
    assert match_replay_verify(match_id=match.pk).ok


def test_the_replay_check_notices_a_changed_opening(
    started_match: Callable[..., Match],
) -> None:
    match = started_match("chickenfoot", 3, seed=DRAWING_SEED)
    Round.objects.filter(match=match, number=1).update(opening=[])

    report = match_replay_verify(match_id=match.pk)

    assert "round 1's opening events differ" in report.problems


def test_no_opening_before_the_match_starts(clients: list[APIClient]) -> None:
    created = (
        clients[0]
        .post(
            "/api/matches",
            {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]},
            format="json",
        )
        .json()
    )

    log = clients[0].get(f"/api/matches/{created['id']}/log").json()

    assert log == {"moves": [], "next_after": 0, "opening": []}


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_opening_of_existing_rounds_from_their_snapshots() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    state = engine.to_json(engine.new_match("chickenfoot", 3, {}, DRAWING_SEED))
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0001_initial")])
    old = executor.loader.project_state([("games", "0001_initial")]).apps
    user = old.get_model("auth", "User").objects.create(username="old")
    player = old.get_model("games", "Player").objects.create(user=user, display_name="Old")
    match = old.get_model("games", "Match").objects.create(
        variant="chickenfoot",
        options=state["options"],
        seat_count=3,
        seed=DRAWING_SEED,
        created_by=player,
        state=state,
    )
    rounds = old.get_model("games", "Round").objects
    rounds.create(match=match, number=1, start_double=9, commitment="c", snapshot=state)
    rounds.create(match=match, number=2, start_double=8, commitment="c", snapshot=state)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    one, two = Round.objects.filter(match_id=match.pk).order_by("number")
    assert one.opening == state["opening"]
    assert one.opening[0]["type"] == "round_started"
    assert two.opening == []  # its snapshot is not round 2's start: nothing to take
