"""A finished match's full record as one JSON document, and its offline check.

The record holds everything needed to replay the match and check it without the server: the
seats with their players, the resolved options, the match seed (secret until the end: the round
seeds derive from it one-way, and each round's commitment was published as it started), every
round's revealed seed, opening and scores, every move with its events, the engine's standings
and the results as the end-of-match task wrote them (the rows; ``None`` while pending) with
why the match was not rated, if it was not (``unrated_reason``), and its quick chat as the
reader is shown it (a seated reader's; ``None`` for anyone else: the chat is the table's own).
``record_verify`` replays it through the engine alone.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.analysis.hint_counts import hints_used
from games.chat.reading import chat_read_all
from games.models import Match, Move, Player, Round
from games.problems import MatchNotFinished
from games.results import match_standings, match_unrated_reason

FORMAT = "chickenfoot-match-record/1"


def match_record(
    *, match: Match, reader: Player | None = None, seat: int | None = None
) -> dict[str, Any]:
    """The record of finished ``match`` (its seats prefetched, as ``match_get`` does), as
    ``reader`` at ``seat`` reads it (the chat: a seat's only).

    Refuses (409) a match that has not finished: its seeds and hands are still secret.
    """
    if match.status != Match.Status.FINISHED:
        raise MatchNotFinished(
            _("Match %(match)s is %(status)s: its record is published when it has finished.")
            % {"match": match.pk, "status": match.status}
        )
    rounds = Round.objects.filter(match=match).order_by("number")
    moves = (
        Move.objects.filter(match=match)
        .select_related("round")
        .only("seq", "seat", "kind", "tile", "target", "events", "created_at", "round__number")
        .order_by("seq")
    )
    return {
        "format": FORMAT,
        "match": {
            "id": match.pk,
            "variant": match.variant,
            "seat_count": match.seat_count,
            "options": match.options,
            "seed": match.seed,
            "created_at": match.created_at,
            "started_at": match.started_at,
            "finished_at": match.finished_at,
            "moves_played": match.moves_played,
            "hints": match.hints,
            "hints_used": hints_used(match=match),
        },
        "seats": [
            {
                "position": seat.position,
                "player_id": seat.player_id,
                "name": seat.player.display_name if seat.player else None,
                "kind": seat.player.kind if seat.player else None,
                "bot_level": seat.player.bot_level if seat.player else None,
            }
            for seat in match.seats.all()
        ],
        "rounds": [
            {
                "number": row.number,
                "start_double": [row.start_double, row.start_double],
                "commitment": row.commitment,
                "seed": row.seed_revealed,
                "scores": row.scores,
                "opening": row.opening,
                "started_at": row.started_at,
                "ended_at": row.ended_at,
            }
            for row in rounds
        ],
        "moves": [
            {
                "seq": move.seq,
                "round": move.round.number,
                "seat": move.seat,
                "kind": move.kind,
                "tile": move.tile,
                "target": move.target or None,
                "events": move.events,
                "created_at": move.created_at,
            }
            for move in moves
        ],
        "standings": match.standings,
        "results": match_standings(match=match),
        "unrated_reason": match_unrated_reason(match=match),
        "chat": (
            chat_read_all(match_id=match.pk, viewer=reader).messages
            if reader is not None and seat is not None
            else None
        ),
    }


def _same(a: Any, b: Any) -> bool:
    return json.loads(json.dumps(a)) == json.loads(json.dumps(b))


def record_verify(record: dict[str, Any]) -> list[str]:
    """Replay ``record`` (as parsed from its JSON) through the engine; the problems found.

    Checks each round's seed against the match seed and its commitment, every move's seat and
    events, every round's scores, and the final standings and results. Empty: it all holds.
    """
    head = record["match"]
    problems: list[str] = []
    state = engine.new_match(head["variant"], head["seat_count"], head["options"], head["seed"])
    for row in record["rounds"]:
        seed = row["seed"]
        if seed != engine.round_seed(head["seed"], row["number"]):
            problems.append(f"round {row['number']}: its seed is not the match seed's")
        if engine.commitment(seed) != row["commitment"]:
            problems.append(f"round {row['number']}: its seed breaks its commitment")
    for move in record["moves"]:
        if move["seat"] != state.turn:
            problems.append(f"move {move['seq']}: seat {move['seat']} moved out of turn")
            return problems
        sent: dict[str, Any] = {"kind": move["kind"]}
        if move["tile"] is not None:
            sent |= {"tile": move["tile"], "target": move["target"] or ""}
        try:
            state, events = engine.apply_move(state, move["seat"], sent)
        except engine.EngineError as exc:
            problems.append(f"move {move['seq']} is refused: {exc.detail}")
            return problems
        if not _same(events, move["events"]):
            problems.append(f"move {move['seq']}: its events differ")
    if state.status != "over":
        problems.append("the moves do not finish the match")
    scores = [row["scores"] for row in record["rounds"]]
    if not _same(state.scores, scores):
        problems.append("the rounds' scores differ from the replay's")
    standings = engine.standings(state)
    if not _same(standings, record["standings"]):
        problems.append("the standings differ from the replay's")
    if record["results"] is not None:
        replayed = {(r["seat"], r["place"], r["total"], r["decided_by"]) for r in standings}
        written = {(r["seat"], r["place"], r["total"], r["decided_by"]) for r in record["results"]}
        if replayed != written:
            problems.append("the results differ from the replay's")
    return problems
