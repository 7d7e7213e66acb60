"""Replay check: rebuild a match from its seed and its move log, and compare what was stored."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.models import Match, Move, Round
from games.services.common import opening_in
from games.services.standings import final_standings, left_seats


@dataclass
class ReplayReport:
    """What a replay found. ``ok`` when every stored snapshot and event matched."""

    match_id: int
    moves: int = 0
    snapshots: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _differs(stored: Any, replayed: Any) -> bool:
    """Compare as JSON sees it (a stored tuple comes back as a list)."""
    return json.loads(json.dumps(stored)) != json.loads(json.dumps(replayed))


def match_replay_verify(*, match_id: int) -> ReplayReport:
    """Replay ``match_id`` from its seed; compare each round's snapshot, each move's events, the
    seat that moved, the current state and, once finished, the standings.

    Reads only (no lock): run it on finished matches, or accept that a running one may move on.
    """
    match = Match.objects.get(pk=match_id)
    report = ReplayReport(match_id=match_id)
    if match.play == Match.Play.TABLE:
        report.problems.append("the match was played at a table: the server dealt nothing")
        return report
    if match.state is None:
        report.problems.append("the match has not started: nothing to replay")
        return report
    rounds = {r.number: r for r in Round.objects.filter(match=match)}
    state = engine.new_match(match.variant, match.seat_count, match.options, match.seed)

    def compare_round_snapshots(upto: int, state_json: dict[str, Any], after: str) -> None:
        for number in range(1, upto + 1):
            row = rounds.get(number)
            if row is None:
                report.problems.append(f"round {number} has no row ({after})")
            elif number not in checked:
                checked.add(number)
                report.snapshots += 1
                if _differs(row.snapshot, state_json):
                    report.problems.append(f"round {number}'s snapshot differs ({after})")

    checked: set[int] = set()
    compare_round_snapshots(state.round_no, engine.to_json(state), "at the start")
    # Each round's opening: the start's from the engine (rounds that ended as dealt report
    # none), later ones from the events of the move that started them.
    openings: dict[int, list[dict[str, Any]]] = {number: [] for number in range(1, state.round_no)}
    openings[state.round_no] = engine.opening_events(state)
    expected_seq = 0
    for move in Move.objects.filter(match=match).order_by("seq").iterator():
        expected_seq += 1
        if move.seq != expected_seq:
            report.problems.append(f"move {expected_seq} is missing (found {move.seq})")
            expected_seq = move.seq
        if move.seat != state.turn:
            report.problems.append(
                f"move {move.seq}: seat {move.seat} moved on seat {state.turn}'s turn"
            )
        sent = {"kind": move.kind}
        if move.tile is not None:
            sent |= {"tile": move.tile, "target": move.target}
        try:
            state, events = engine.apply_move(state, move.seat, sent)
        except engine.EngineError as exc:
            report.problems.append(f"move {move.seq} is refused on replay: {exc.detail}")
            return report
        report.moves += 1
        if _differs(move.events, events):
            report.problems.append(f"move {move.seq}: its events differ")
        for index, event in enumerate(events):
            if event.get("type") == "round_started":
                openings[event["round"]] = opening_in(events, index)
        if state.round_no not in checked:
            compare_round_snapshots(state.round_no, engine.to_json(state), f"after move {move.seq}")
    final = engine.to_json(state)
    report.snapshots += 1
    if _differs(match.state, final):
        report.problems.append("the current state differs from the replayed one")
    # The server reads its stored state without the engine's consistency checks (a trusted
    # load, on every request): they run here instead.
    try:
        engine.from_json(match.state)
    except (ValueError, engine.EngineError) as exc:
        report.problems.append(f"the current state fails the engine's checks: {exc}")
    if expected_seq != match.moves_played:
        report.problems.append(f"{match.moves_played} moves counted, {expected_seq} logged")
    if match.status == Match.Status.FINISHED:
        expected = final_standings(
            standings=engine.standings(state), left=left_seats(match_id=match.pk)
        )
        if _differs(match.standings, expected):
            report.problems.append("the standings differ")
    extra = set(rounds) - checked
    if extra:
        report.problems.append(f"rounds {sorted(extra)} have rows but were never played")
    for number, row in rounds.items():
        if number in openings and _differs(row.opening, openings[number]):
            report.problems.append(f"round {number}'s opening events differ")
        if row.status == Round.Status.FINISHED:
            if engine.commitment(row.seed_revealed) != row.commitment:
                report.problems.append(f"round {number}: the revealed seed breaks its commitment")
            if row.seed_revealed != engine.round_seed(match.seed, number):
                report.problems.append(f"round {number}: the revealed seed is not the round's")
    return report
