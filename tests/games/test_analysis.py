"""Post-game analysis: made after the end only, from what each seat knew, reproducible; a
position whose best move is known by construction is marked so."""

from __future__ import annotations

import random
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import engine
from games.analysis.marks import BEST, BLUNDER, CLASSES, MARKS, accuracy, mark
from games.analysis.models import MatchAnalysis
from games.analysis.moves import analyse_step
from games.analysis.services import analysis_run, human_moves
from games.analysis.walk import Step
from games.engine.tiles import full_set
from games.models import Match, Move, Player
from tests.games.helpers import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Any:
    """Run a block's after-commit work (the analysis task, eagerly) as a real request would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _finished(started_match: Callable[..., Match], clients: list[APIClient], **kw: Any) -> Match:
    match = started_match(options={"rounds": 1, **kw.pop("options", {})}, **kw)
    play_to_end(clients[: match.seat_count], match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_thresholds_are_ordered_and_mark_by_loss() -> None:
    bounds = [bound for _name, bound in CLASSES]
    assert bounds == sorted(bounds)
    assert [name for name, _bound in CLASSES] + [BLUNDER] == list(MARKS)
    assert mark(0.0) == BEST
    assert mark(0.01) == "good"
    assert mark(0.05) == "inaccuracy"
    assert mark(0.1) == "mistake"
    assert mark(0.5) == BLUNDER
    assert accuracy([0.0, 0.25]) == 50.0
    assert accuracy([]) is None


def test_analysis_waits_for_the_end(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    match = started_match(options={"rounds": 1})
    answer = clients[0].get(f"/api/matches/{match.pk}/analysis")
    assert answer.status_code == HTTPStatus.CONFLICT
    assert answer.json()["code"] == "match_not_finished"
    replay = clients[0].get(f"/api/matches/{match.pk}/replay?seq=1")
    assert replay.status_code == HTTPStatus.CONFLICT
    assert not MatchAnalysis.objects.filter(match_id=match.pk).exists()


def test_a_finished_match_is_analysed_move_by_move(
    started_match: Callable[..., Match], clients: list[APIClient], settings: Any, committed: Any
) -> None:
    settings.ANALYSIS_DEALS = 4
    match = _finished(started_match, clients)
    with committed():  # the first ask queues it (202); the task runs after commit
        assert clients[1].get(f"/api/matches/{match.pk}/analysis").status_code == 202
    answer = clients[1].get(f"/api/matches/{match.pk}/analysis")
    assert answer.status_code == HTTPStatus.OK, answer.content
    body = answer.json()
    assert body["status"] == "done"
    assert body["done"] == body["total"] == match.moves_played
    seqs = [m["seq"] for m in body["moves"]]
    assert seqs == sorted(human_moves(match=match)) == list(range(1, match.moves_played + 1))
    for row in body["moves"]:
        logged = Move.objects.get(match=match, seq=row["seq"])
        assert row["seat"] == logged.seat
        assert row["move"]["kind"] == logged.kind
        values = [o["value"] for o in row["options"]]
        assert values == sorted(values, reverse=True)
        assert row["best_value"] == values[0]
        assert row["loss"] == pytest.approx(max(0.0, row["best_value"] - row["value"]), abs=2e-4)
        assert row["mark"] == (BEST if row["forced"] else mark(row["loss"]))
        assert row["forced"] == (len(row["options"]) == 1)
    players = {p["seat"]: p for p in body["players"]}
    assert set(players) == {0, 1, 2}
    for seat, row in players.items():
        chosen = [m for m in body["moves"] if m["seat"] == seat and not m["forced"]]
        assert row["accuracy"] == accuracy(m["loss"] for m in chosen)
        assert row["rounds"][0]["round"] == 1
        assert sum(row["marks"].values()) == len(chosen)
    # reproducible: seeded from the match, the same analysis again
    first = body["moves"]
    MatchAnalysis.objects.filter(match_id=match.pk).delete()
    with committed():
        clients[0].get(f"/api/matches/{match.pk}/analysis")
    again = clients[0].get(f"/api/matches/{match.pk}/analysis").json()
    assert again["moves"] == first


def test_the_task_runs_in_slices_and_reports_progress(
    started_match: Callable[..., Match], clients: list[APIClient], settings: Any
) -> None:
    settings.ANALYSIS_DEALS = 2
    match = _finished(started_match, clients)
    MatchAnalysis.objects.create(match=match, total=0, queued_at=match.finished_at)
    answer = clients[0].get(f"/api/matches/{match.pk}/analysis")
    assert answer.status_code == HTTPStatus.ACCEPTED
    assert answer.json() == {"match_id": match.pk, "status": "running", "done": 0, "total": 0}
    slices = 0
    while analysis_run(match_id=match.pk, slice_seconds=1e-9):
        slices += 1
        row = MatchAnalysis.objects.get(match_id=match.pk)
        progress = clients[0].get(f"/api/matches/{match.pk}/analysis")
        assert progress.status_code == HTTPStatus.ACCEPTED
        assert progress.json()["done"] == row.done < row.total
    assert slices == match.moves_played - 1
    assert clients[0].get(f"/api/matches/{match.pk}/analysis").status_code == HTTPStatus.OK


def test_a_finishing_match_queues_its_analysis_on_the_bots_queue(
    started_match: Callable[..., Match],
    clients: list[APIClient],
    settings: Any,
    monkeypatch: Any,
    committed: Any,
) -> None:
    from games.analysis import tasks

    sent: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(
        tasks.match_analyse, "apply_async", lambda args, **options: sent.append((args, options))
    )
    settings.ANALYSIS_ON_FINISH = True
    with committed():
        match = _finished(started_match, clients)
    assert sent == [
        ((match.pk,), {"kwargs": {}, "ignore_result": True, "queue": settings.BOTS_QUEUE,
                       "priority": 9})
    ]  # fmt: skip
    assert MatchAnalysis.objects.get(match_id=match.pk).status == "running"


def _known_position() -> Any:
    """Mexican Train, open hands, two seats: seat 1 holds one tile, 5-7, that fits the Mexican
    train (open on 5). Seat 0 (to move) holds 2-5 and 2-6 and its own train is open on 2.
    Laying 2-5 on the Mexican train shuts seat 1 out, and seat 0 goes out next turn with 2-6 on
    its own train, whatever seat 1 draws; any other move lets seat 1 go out at once."""
    used = {(12, 12), (2, 12), (3, 12), (5, 12), (2, 5), (2, 6), (5, 7)}
    rest = [t for t in full_set(12) if t not in used]
    random.Random(3).shuffle(rest)
    options = engine.resolve_options("mexican_train", 2, {"open_hands": True, "rounds": 1})
    return engine.from_json(
        {
            "variant": "mexican_train", "seats": 2, "options": options, "seed": "0" * 64,
            "round_no": 1, "turn": 0, "move_no": 0, "commitments": ["0" * 64],
            "revealed_seeds": ["0" * 64], "drawn": None, "streak": 0,
            "layout": {"engine": 12, "markers": [], "open_doubles": [],
                       "trains": {"seat:0": [[12, 2]], "seat:1": [[12, 3]],
                                  "mexican": [[12, 5]]}},
            "hands": [[(2, 5), (2, 6)], [(5, 7)]], "boneyard": rest[:20],
        }
    )  # fmt: skip


@pytest.mark.parametrize(
    ("tile", "target", "expected"),
    [([2, 5], "mexican", BEST), ([2, 6], "seat:0", BLUNDER), ([5, 2], "seat:0", BLUNDER)],
)
def test_a_best_move_known_by_construction(tile: list[int], target: str, expected: str) -> None:
    played = Move(seq=1, seat=0, kind="play", tile=tile, target=target)
    row = analyse_step(
        step=Step(move=played, state=_known_position(), log=[]), match_seed="s", deals=24
    )
    assert row["best"] == {"kind": "play", "tile": [2, 5], "target": "mexican"}
    assert row["mark"] == expected
    assert not row["forced"]
    assert len(row["options"]) == 3


def test_the_replay_shows_every_tile_after_each_move(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    match = _finished(started_match, clients)
    state = engine.new_match(match.variant, match.seat_count, match.options, match.seed)
    for move in Move.objects.filter(match=match).order_by("seq"):
        sent = {
            "kind": move.kind,
            **({"tile": move.tile, "target": move.target} if move.tile else {}),
        }
        state, _events = engine.apply_move(state, move.seat, sent)
        if move.seq % 7 and move.seq != match.moves_played:
            continue
        body = clients[2].get(f"/api/matches/{match.pk}/replay?seq={move.seq}").json()
        assert body["move"]["seq"] == move.seq
        assert body["move"]["seat"] == move.seat
        assert body["hands"] == [[list(t) for t in hand] for hand in state.hands]
        assert body["boneyard"] == [list(t) for t in state.boneyard]
        assert body["table"]["seat"] is None
        assert body["table"]["move_no"] == state.move_no
    past = clients[0].get(f"/api/matches/{match.pk}/replay?seq={match.moves_played + 1}")
    assert past.status_code == HTTPStatus.NOT_FOUND
    assert past.json()["code"] == "move_not_found"
    assert clients[0].get(f"/api/matches/{match.pk}/replay?seq=-1").status_code == 400


def test_the_sweeper_queues_an_analysis_left_untouched_again(
    started_match: Callable[..., Match],
    clients: list[APIClient],
    settings: Any,
    monkeypatch: Any,
    committed: Any,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games.analysis import tasks
    from games.analysis.sweeps import analysis_stale

    sent: list[Any] = []
    monkeypatch.setattr(
        tasks.match_analyse, "apply_async", lambda args, **options: sent.append(args)
    )
    match = _finished(started_match, clients)
    now = timezone.now()
    stale = now - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS + 1)
    MatchAnalysis.objects.create(match=match, total=0, queued_at=stale)
    with committed():
        assert analysis_stale(now=now) == 1
    assert sent == [(match.pk,)]
    assert MatchAnalysis.objects.get(match_id=match.pk).queued_at == now
    assert analysis_stale(now=now) == 0  # claimed: not again within the interval
    MatchAnalysis.objects.filter(match_id=match.pk).update(status="done", queued_at=stale)
    assert analysis_stale(now=now) == 0  # done: nothing to do


def test_without_a_token_only_a_public_competitions_match_is_open(
    started_match: Callable[..., Match], clients: list[APIClient], players: list[Any]
) -> None:
    from scoring.competition_models import Competition, CompetitionMatch
    from tests.scoring.competitions.conftest import make_competition

    match = _finished(started_match, clients)
    anonymous = APIClient()
    assert anonymous.get(f"/api/matches/{match.pk}/analysis").status_code == 401
    assert anonymous.get(f"/api/matches/{match.pk}/replay?seq=1").status_code == 401
    Player.objects.filter(pk=players[3].pk).update(is_organiser=True)
    players[3].refresh_from_db()
    competition = make_competition(players[3])
    CompetitionMatch.objects.create(competition=competition, match=match)
    assert anonymous.get(f"/api/matches/{match.pk}/replay?seq=1").status_code == 401
    Competition.objects.filter(pk=competition.pk).update(public=True)
    replay = anonymous.get(f"/api/matches/{match.pk}/replay?seq=1")
    assert replay.status_code == HTTPStatus.OK
    assert replay.json()["move"]["seq"] == 1
    assert anonymous.get(f"/api/matches/{match.pk}/analysis").status_code in (200, 202)
