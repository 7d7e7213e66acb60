"""Playing: submit a move (one transaction, one lock, one snapshot), and a bot's turn."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from chickenfoot.metrics.counters import (
    BOT_TURN_SECONDS,
    MOVES,
    count_on_commit,
    observe_since_on_commit,
)
from chickenfoot.problems import ConflictError
from games import bots, engine, rows
from games.live import frames
from games.live import publish as live
from games.models import Match, Move, Player, Seat
from games.notifications.services import your_turn_notify
from games.problems import (
    IdempotencyKeyReused,
    MalformedMoveBody,
    MatchNotFound,
    MatchNotPlaying,
    NotYourMatch,
    SeatLeft,
    TableMatchNoMoves,
    table_no_moves_detail,
)
from games.selectors import (
    MOVE_COLUMNS,
    bot_seat_info,
    events_for_seat,
    match_with_seat,
    move_row,
)
from games.services.clock import clock_start, on_commit_clock
from games.services.common import bot_turn_schedule, match_lock, round_record_events
from games.services.versions import request_fingerprint, version_check


@dataclass(frozen=True)
class MoveOutcome:
    """What a submission answered: the body, and whether it is the replay of an earlier answer."""

    body: dict[str, Any]
    version: int
    replayed: bool = False


def request_hash(*, move: dict[str, Any], expected_version: int | None) -> str:
    """A fingerprint of a submission, to tell a retry from a different request under one key."""
    return request_fingerprint({"move": move, "version": expected_version})


#: The columns of its match a move writes.
_MATCH_COLUMNS = (
    "state",
    "turn_deadline",
    "turn_warn_at",
    "timeouts_in_row",
    "version",
    "moves_played",
    "bot_turn_since",
)
#: And these, when the move ended or started a round (or the match).
_MATCH_END_COLUMNS = ("status", "standings", "finished_at", "current_round_id")
#: The events after which rounds (and the match) are written with the move.
_ROUND_EVENTS = frozenset({"round_ended", "round_scores", "round_started", "match_over"})


def mover_check(*, match_id: int, player: Player) -> None:
    """Refuse a caller without a seat at match ``match_id`` (404 ``match_not_found``, 403
    ``not_your_match``): a malformed move's refusal comes after it, so that it tells a
    stranger nothing. ``move_submit`` checks again under the match lock."""
    match = match_with_seat(match_id=match_id, player=player, columns=MOVE_COLUMNS)
    if match is None:
        raise MatchNotFound(_("There is no match %(match_id)s.") % {"match_id": match_id})
    if match.my_seat is None:  # type: ignore[attr-defined]
        raise NotYourMatch(_("You have no seat at match %(match)s.") % {"match": match.pk})


def move_submit(
    *,
    match_id: int,
    player: Player,
    move: dict[str, Any],
    expected_version: int | None,
    idempotency_key: str | None = None,
    as_bot: bool = False,
    bot_seat: int | None = None,
) -> MoveOutcome:
    """Apply ``player``'s move to their seat in one transaction, or refuse it changing nothing.

    Holds the match lock (``match_lock``) from the check of ``expected_version`` to the commit,
    so concurrent submissions apply one at a time and a stale one is refused (409). A retry with
    the same ``idempotency_key`` returns the first answer; the same key with another request is
    refused (422). Engine errors propagate: a broken rule (422), not your turn (409), a malformed
    move (400). A bot to move next is enqueued on commit. A player whose seat a bot plays
    (they resigned, or timed out too often) is refused (409 ``seat_left``); ``as_bot`` is the
    bot's own submission, for its seat ``bot_seat`` (a bot level's one player may sit several
    seats of the match, so the seat is named, not looked up by player).
    """
    # Only a request that can be retried under its key needs telling apart from another.
    fingerprint = (
        request_hash(move=move, expected_version=expected_version) if idempotency_key else ""
    )
    with live.batch(), rows.write_transaction() as tx:
        if as_bot and bot_seat is not None:
            match = match_lock(match_id=match_id, columns=MOVE_COLUMNS)
            seat: int | None = bot_seat
        else:
            match = match_lock(match_id=match_id, player=player, columns=MOVE_COLUMNS)
            seat = match.my_seat  # type: ignore[attr-defined]
        if seat is None:
            raise NotYourMatch(_("You have no seat at match %(match)s.") % {"match": match.pk})
        if idempotency_key:
            prior = (
                Move.objects.filter(match=match, seat=seat, idempotency_key=idempotency_key)
                .only("request_hash", "response")
                .first()
            )
            if prior is not None:
                if prior.request_hash != fingerprint:
                    raise IdempotencyKeyReused(
                        _("This Idempotency-Key was used for a different request; use a new key.")
                    )
                return MoveOutcome(body=prior.response, version=match.version, replayed=True)
        if match.play == Match.Play.TABLE:
            raise TableMatchNoMoves(table_no_moves_detail(match.pk))
        if match.status != Match.Status.PLAYING:
            raise MatchNotPlaying(
                _("Match %(match)s is %(status)s: no moves now.")
                % {"match": match.pk, "status": match.status}
            )
        if seat in match.bot_seats and not (as_bot or player.is_bot):
            raise SeatLeft(
                _("A bot plays your seat at match %(match)s now: you left it.")
                % {"match": match.pk}
            )
        version_check(match=match, expected_version=expected_version)
        return _apply(
            match=match,
            seat=seat,
            move=move,
            idempotency_key=idempotency_key or "",
            fingerprint=fingerprint,
            by_human=not (as_bot or player.is_bot),
            tx=tx,
        )


def move_body_refused(
    *, match_id: int, player: Player, body: Mapping[str, Any], errors: dict[str, list[str]]
) -> MalformedMoveBody:
    """400 ``malformed_move`` for a body whose own validation found ``errors``, with what the
    engine finds wrong with the rest of it (a tile not of this match's set, a play without a
    target; ``rules`` names the rule each broke), so that every field is answered at once. Only
    a seated player learns about the set.
    """
    kind = body.get("kind")
    if "kind" in errors or kind not in (engine.PLAY, engine.DRAW, engine.PASS):
        return MalformedMoveBody(errors)
    fields = ("kind", "tile", "target")
    wrong = {name.split(".", 1)[0] for name in errors}  # "tile.1" is the tile's
    move = {name: body[name] for name in fields if name in body and name not in wrong}
    options = (
        Match.objects.filter(pk=match_id, seats__player=player)
        .values_list("options", flat=True)
        .first()
    )
    max_pip = options.get("max_pip") if isinstance(options, dict) else None
    found = dict(errors)
    rules: dict[str, str] = {}
    refused = engine.move_error(move, max_pip)
    if refused is not None:
        for name, messages in (refused.errors or {}).items():
            if name not in wrong:
                found[name] = messages
                if name in refused.rules:
                    rules[name] = refused.rules[name]
    return MalformedMoveBody(found, rules=rules)


def timed_out_move(*, match: Match, seat: int, move: dict[str, Any]) -> MoveOutcome:
    """Play ``move`` for ``seat``, whose clock ran out (games/services/timeouts.py holds the lock).

    The move is logged ``timed_out`` and counts towards the seat's timeouts in a row.
    """
    return _apply(
        match=match, seat=seat, move=move, idempotency_key="", fingerprint="", timed_out=True
    )


def _apply(
    *,
    match: Match,
    seat: int,
    move: dict[str, Any],
    idempotency_key: str,
    fingerprint: str,
    timed_out: bool = False,
    by_human: bool = False,
    tx: rows.WriteTransaction | None = None,
) -> MoveOutcome:
    """The write half of ``move_submit``. The caller holds the match lock and checked it all.

    In ``tx`` (``move_submit``'s), a move within a round sends its writes with the ``COMMIT``;
    one that ends or starts a round leaves pipeline mode first, for the ORM's writes of rounds
    and results."""
    if not (by_human or timed_out) and match.bot_turn_since is not None:
        observe_since_on_commit(BOT_TURN_SECONDS, match.bot_turn_since, variant=match.variant)
    state = engine.from_json(match.state, trusted=True)  # type: ignore[arg-type]
    parsed = engine.parse_move(move, state.options["max_pip"])
    round_no = state.round_no
    state, events = engine.apply_move(state, seat, parsed)
    state_json = engine.to_json(state)

    match.state = state_json
    match.version += 1
    match.moves_played += 1
    now = timezone.now()
    row = {
        "match_id": match.pk,
        "round_id": match.current_round_id,
        "seq": match.moves_played,
        "seat": seat,
        "kind": parsed.kind,
        "tile": list(parsed.tile) if parsed.tile is not None else None,
        "target": parsed.target or "",
        "events": events,
        "version": match.version,
        "timed_out": timed_out,
        "created_at": now,
        "idempotency_key": idempotency_key,
        "request_hash": fingerprint,
        "response": None,
    }
    columns = _MATCH_COLUMNS
    if any(event.get("type") in _ROUND_EVENTS for event in events):
        if tx is not None:
            tx.plain()
        round_record_events(match=match, state_json=state_json, events=events)
        columns = _MATCH_COLUMNS + _MATCH_END_COLUMNS
    if timed_out or (by_human and match.timeouts_in_row):
        counts = list(match.timeouts_in_row) or [0] * match.seat_count
        counts[seat] = counts[seat] + 1 if timed_out else 0  # "in a row": a move of one's own
        match.timeouts_in_row = counts
    clock_start(match=match, now=now)
    body = {
        "version": match.version,
        "move": {
            "seq": row["seq"],
            "round": round_no,
            "seat": seat,
            "kind": parsed.kind,
            "tile": row["tile"],
            "target": parsed.target or None,
            "events": events_for_seat(
                variant=match.variant,
                events=events,
                seat=seat,
                first_round=round_no,
                running_round=None if state.status == "over" else state.round_no,
            ),
        },
        "state": engine.view(state, seat),
    }
    if idempotency_key:
        row["response"] = body
    # The sockets first, then the bot: its reply is published after this move.
    if columns is _MATCH_COLUMNS:  # within a round: each audience its frames, no read
        texts = frames.move_texts(
            match=match,
            move=move_row(row, round_no=round_no),
            round_no=state.round_no,
            turn=state.turn,
        )
        live.on_commit_move_frames(
            match_id=match.pk, seq=row["seq"], version=match.version, texts=texts
        )
    else:
        live.on_commit_moved(match_id=match.pk, seq=row["seq"], version=match.version)
    bot_turn_schedule(match=match)
    on_commit_clock(match=match)
    count_on_commit(MOVES, variant=match.variant)
    # Plain statements (games/rows.py): the ORM's save() costs more than the move itself; they
    # reach the database as one statement (with the COMMIT, in ``tx``).
    with rows.batch():
        rows.insert(Move, row)
        rows.update(Match, match.pk, {name: getattr(match, name) for name in columns})
        your_turn_notify(
            match=match, seat=None if state.status == "over" else state.turn, moved_by_seat=seat
        )
    if tx is not None:
        tx.commit()
    return MoveOutcome(body=body, version=match.version)


def bot_turn_play(*, match_id: int) -> int | None:
    """Play one bot move if a bot is to move in ``match_id`` now; return the new version.

    Acts on the match as it is now, whoever enqueued the call and whenever: a redelivered or
    re-queued task still plays a bot that is to move. The move is chosen outside the lock and
    submitted through ``move_submit`` like any client's, with the version it was chosen at, so
    each move is applied exactly once: of two callers choosing for the same version, one applies
    and the other gets ``None``. ``None`` also means there is nothing to do (a human's turn, a
    finished match); a caller that got it stops, the writer who moved carries the match on.
    """
    match = (
        Match.objects.filter(pk=match_id)
        .only("status", "version", "seed", "state", "bot_seats", "variant")
        .first()
    )
    if match is None or match.status != Match.Status.PLAYING:
        return None
    turn = (match.state or {}).get("turn")
    if turn not in match.bot_seats:
        return None
    version = match.version
    seat = Seat.objects.select_related("player").filter(match_id=match_id, position=turn).first()
    if seat is None:  # the match was deleted since (its stage was seated again)
        return None
    state = engine.from_json(match.state, trusted=True)  # type: ignore[arg-type]
    rng = random.Random(f"{match.seed}:{version}")
    level = seat.bot_level or seat.player.bot_level or 1  # type: ignore[union-attr]
    info = bot_seat_info(match=match, state=state, seat=turn, with_log=level >= bots.STRONG)
    chosen = bots.choose_move(info, level, rng, budget_ms=settings.BOT_STRONG_BUDGET_MS)
    try:
        outcome = move_submit(
            match_id=match_id,
            player=seat.player,  # type: ignore[arg-type]
            move=chosen.to_json(),
            expected_version=version,
            as_bot=True,
            bot_seat=turn,
        )
    except (ConflictError, engine.NotYourTurn, engine.RoundOver):
        return None  # someone else moved first, and carries the match on
    except MatchNotFound:
        return None  # deleted since: its stage's seating changed before anyone moved
    return outcome.version
