"""Reads: what the API shows of matches, seats and moves, always as one seat may see it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.db.models.fields.json import KeyTransform
from django.utils.translation import gettext as _

from games import bots, engine, rows
from games.accounts.names import shown_name
from games.analysis.hint_counts import hints_used
from games.avatars.urls import NO_AVATAR, avatar_urls_of
from games.invitations.holds import held_count
from games.log_rows import log_moves
from games.match_rows import match_with_seats
from games.models import Match, Move, Player, Round, Seat
from games.problems import MatchNotFound, NotYourMatch, TableMatchNoMoves, table_no_moves_detail
from games.results import (
    match_round_table,
    match_standings,
    match_unrated_reason,
    recompute_waiting,
    results_pending,
    results_prefetch,
)
from games.tables.review_states import confirmation_of
from games.tables.selectors import may_score, table_rounds


def events_for_seat(
    *,
    variant: str,
    events: list[dict[str, Any]],
    seat: int | None,
    first_round: int,
    running_round: int | None,
) -> list[dict[str, Any]]:
    """``events`` of one move as ``seat`` may see them (C-HIDDEN).

    The events start in round ``first_round``; a ``round_started`` event moves on to its round.
    Events of the round still running (``running_round``; ``None`` once the match is over) are
    redacted by the engine; those of finished rounds are shown whole.
    """
    out = []
    current = first_round
    for event in events:
        if event.get("type") == "round_started":
            current = event["round"]
        if current == running_round:
            event = engine.redact_event(variant, event, seat)
        out.append(event)
    return out


def _seats_prefetch() -> Prefetch:
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("player__avatar").order_by("position")
    )


def match_get(*, match_id: int) -> Match:
    """The match with its creator, its seats and their players (two plain queries:
    ``match_rows``)."""
    match = match_with_seats(match_id=match_id)
    if match is None:
        raise MatchNotFound(_("There is no match %(match_id)s.") % {"match_id": match_id})
    return match


def match_to_check(*, match_id: int) -> Match:
    """The match's row as a check of the caller's right reads it (its creator, how it is
    played, its status), without a lock: 404 ``match_not_found`` if there is none. A service
    checks again under the match lock."""
    match = (
        Match.objects.filter(pk=match_id).only("id", "created_by_id", "play", "status").first()
        if 0 < match_id <= MAX_ID
        else None
    )
    if match is None:
        raise MatchNotFound(_("There is no match %(match_id)s.") % {"match_id": match_id})
    return match


def seat_position(*, match: Match, player: Player) -> int | None:
    """``player``'s position at ``match`` (seats prefetched), or ``None``."""
    for seat in match.seats.all():
        if seat.player_id == player.pk:
            return seat.position
    return None


#: The largest primary key (a signed 64-bit integer).
MAX_ID = 2**63 - 1


#: The columns of a match a move reads or writes (games/services/moves.py): not its seed, its
#: standings or its dates (a column not loaded is read from the database if it is ever used).
MOVE_COLUMNS = (
    "id",
    "variant",
    "play",
    "options",
    "status",
    "seat_count",
    "version",
    "moves_played",
    "state",
    "current_round_id",
    "bot_seats",
    "turn_deadline",
    "turn_warn_at",
    "timeouts_in_row",
    "bot_turn_since",
    "created_by_id",
)
#: The columns the legal-moves GET reads (and who may look at the match).
LEGAL_MOVES_COLUMNS = ("id", "play", "status", "version", "state", "created_by_id")
#: Per (vendor, columns or ``None`` for all, lock, with a seat): the statement and its columns.
_SEAT_SQL: dict[tuple[str, tuple[str, ...] | None, bool, bool], tuple[str, tuple[str, ...]]] = {}


def _seat_sql(
    columns: tuple[str, ...] | None, *, lock: bool, seat: bool
) -> tuple[str, tuple[str, ...]]:
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once
    key = (db.vendor, columns, lock, seat)
    statement = _SEAT_SQL.get(key)
    if statement is None:
        names = columns or tuple(f.column for f in Match._meta.concrete_fields)
        sql = "SELECT {}, {} FROM games_match m {}WHERE m.id = %s".format(  # noqa: S608 - model's
            ", ".join(f"m.{db.ops.quote_name(name)}" for name in names),
            "s.position" if seat else "NULL",
            "LEFT JOIN games_seat s ON s.match_id = m.id AND s.player_id = %s " if seat else "",
        )
        if lock and db.features.has_select_for_update:
            sql += " FOR UPDATE OF m"
        statement = _SEAT_SQL[key] = (sql, names)
    return statement


def match_with_seat(
    *,
    match_id: int,
    player: Player | None,
    lock: bool = False,
    columns: tuple[str, ...] | None = None,
) -> Match | None:
    """The match with ``my_seat``, ``player``'s position there (``None`` without a seat or
    without ``player``), its ``columns`` loaded (all by default).

    One plain query, built once (it is on every move's path, so it skips the ORM's query
    building). With ``lock`` the match row is locked (``FOR UPDATE``) until the caller's
    transaction ends. An id no 64-bit key can hold (a URL may carry any number of digits) is no
    match: the ORM treats it so, and SQLite would refuse to bind it.
    """
    if not 0 < match_id <= MAX_ID:
        return None
    sql, names = _seat_sql(columns, lock=lock, seat=player is not None)
    params = [player.pk, match_id] if player is not None else [match_id]
    row = rows.fetchone(sql, params)
    if row is None:
        return None
    match = rows.load(Match, names, row[:-1])
    match.my_seat = row[-1]  # type: ignore[attr-defined]
    return match


#: Matches anyone signed in may look at (as a spectator): the lobby, and the public record.
_PUBLIC_STATUSES = (Match.Status.OPEN, Match.Status.FINISHED)


def may_watch(*, match: Match, player: Player) -> bool:
    """Whether ``player`` may follow ``match`` in play without a seat, as a spectator (no hand):
    an organiser, or the match's creator (who may create a match of bots only, and start it)."""
    return player.organises or match.created_by_id == player.pk


def _check_may_view(*, match: Match, seat: int | None, player: Player) -> None:
    """Anyone may see an open or a finished match (a finished match's hands are revealed for
    scoring: its record is public); one in play only its players, its creator and organisers."""
    if (
        seat is None
        and match.status not in _PUBLIC_STATUSES
        and not may_watch(match=match, player=player)
    ):
        raise NotYourMatch(_("You have no seat at match %(match)s.") % {"match": match.pk})


def match_for_player(
    *, match_id: int, player: Player, columns: tuple[str, ...] | None = None
) -> tuple[Match, int | None]:
    """The match (without its seats, its ``columns`` loaded: all by default) and the caller's
    seat, in one query; access as below."""
    match = match_with_seat(match_id=match_id, player=player, columns=columns)
    if match is None:
        raise MatchNotFound(_("There is no match %(match_id)s.") % {"match_id": match_id})
    seat: int | None = match.my_seat  # type: ignore[attr-defined]
    _check_may_view(match=match, seat=seat, player=player)
    return match, seat


def match_for_viewer(*, match_id: int, player: Player) -> tuple[Match, int | None]:
    """The match and the caller's seat, if the caller may look at it.

    Anyone may look at a match that is still open (its lobby card); once it has started only
    its players, its creator and organisers may (the last two without a seat watch as a
    spectator, seeing no hand).
    """
    match = match_get(match_id=match_id)
    seat = seat_position(match=match, player=player)
    _check_may_view(match=match, seat=seat, player=player)
    return match, seat


def seats_json(*, match: Match, viewer: Player | None = None) -> list[dict[str, Any]]:
    out = []
    for seat in match.seats.all():
        player = seat.player
        out.append(
            {
                "position": seat.position,
                "kind": "open" if player is None else player.kind,
                "player_id": player.pk if player else None,
                "name": shown_name(player.display_name) if player else None,
                "bot_level": player.bot_level if player else None,
                "you": viewer is not None and player is not None and player.pk == viewer.pk,
                "left": seat.left or None,
                **(avatar_urls_of(player) if player else NO_AVATAR),
            }
        )
    return out


def match_summary(*, match: Match, viewer: Player | None = None) -> dict[str, Any]:
    """A match without its table: the lobby card and the "my matches" row."""
    return {
        "id": match.pk,
        "variant": match.variant,
        "play": match.play,
        "status": match.status,
        "version": match.version,
        "options": match.options,
        "seat_count": match.seat_count,
        "open_seats": sum(1 for seat in match.seats.all() if seat.player_id is None),
        "created_by": match.created_by.display_name,
        "created_at": match.created_at,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
        "seats": seats_json(match=match, viewer=viewer),
        "standings": match_standings(match=match),
        "results_pending": results_pending(match=match),
        "unrated_reason": match_unrated_reason(match=match),
        "hints": match.hints,
        "hints_used": hints_used(match=match),
    }


def match_view(*, match: Match, seat: int | None, viewer: Player | None) -> dict[str, Any]:
    """The match as ``seat`` sees it (``None``: a spectator; ``viewer`` ``None``: a scorer link,
    which has no account): the summary plus the engine's view."""
    body = match_summary(match=match, viewer=viewer)
    body["your_seat"] = seat
    body["you_may_start"] = (
        match.status == Match.Status.OPEN
        and viewer is not None
        and (match.created_by_id == viewer.pk or viewer.organises)
    )
    body.update(match_round_table(match=match))
    body["state"] = None
    if match.state is not None:
        body["state"] = engine.view(engine.from_json(match.state, trusted=True), seat)
    body["table_rounds"] = table_rounds(match=match) if match.play == Match.Play.TABLE else None
    body["confirmation"] = confirmation_of(match=match) if match.play == Match.Play.TABLE else None
    # a scorer link (no viewer) was let in for this table match: it may score it
    body["you_may_score"] = match.play == Match.Play.TABLE and (
        viewer is None or may_score(match=match, player=viewer)
    )
    return body


def online_match_check(*, match: Match) -> None:
    """Refuse (409 ``table_match``) what only a match the server deals has: moves, legal moves,
    a board."""
    if match.play == Match.Play.TABLE:
        raise TableMatchNoMoves(table_no_moves_detail(match.pk))


def legal_moves_for(*, match: Match, seat: int) -> list[dict[str, Any]]:
    """``seat``'s legal moves now (empty when it is not their turn or the match is not in play)."""
    if match.status != Match.Status.PLAYING or match.state is None:
        return []
    state = engine.from_json(match.state, trusted=True)
    return [m.to_json() for m in engine.legal_moves(state, seat)]


def match_list_row(*, match: Match, player: Player) -> dict[str, Any]:
    """A row of "my matches": the summary, the caller's seat, whose turn it is, and if it is theirs.

    ``match`` comes from ``match_list_for_player`` (its ``turn_now`` is the state's ``turn``).
    """
    body = match_summary(match=match, viewer=player)
    seat = seat_position(match=match, player=player)
    turn = getattr(match, "turn_now", None) if match.status == Match.Status.PLAYING else None
    body["your_seat"] = seat
    body["turn"] = turn
    body["your_turn"] = seat is not None and turn == seat
    return body


def match_list_open() -> QuerySet[Match]:
    """Matches waiting for players with at least one free seat that no invitation holds,
    newest first."""
    return (
        Match.objects.filter(status=Match.Status.OPEN)
        .annotate(free=Count("seats", filter=Q(seats__player__isnull=True)), held=held_count())
        .filter(free__gt=F("held"))
        .defer("state", "seed")
        .select_related("created_by")
        .prefetch_related(_seats_prefetch())
        .order_by("-created_at", "-pk")
    )


def match_list_for_player(*, player: Player, status: str | None = None) -> QuerySet[Match]:
    """The matches ``player`` has a seat at or created (a match of bots only has no seat for
    its creator, who watches it), newest first, optionally of one status."""
    seated = Seat.objects.filter(player=player).values("match_id")
    matches = Match.objects.filter(Q(pk__in=seated) | Q(created_by=player))
    if status:
        matches = matches.filter(status=status)
    return (
        matches.annotate(
            turn_now=KeyTransform("turn", "state"), recompute_waiting=recompute_waiting()
        )
        .defer("state", "seed")
        .select_related("created_by")
        .prefetch_related(_seats_prefetch(), results_prefetch())
        .order_by("-created_at", "-pk")
    )


def running_round(*, match: Match) -> int | None:
    """The number of the round still running (its events are redacted), ``None`` if none."""
    if match.status == Match.Status.PLAYING and match.state is not None:
        return match.state["round_no"]
    return None


def move_log(
    *,
    match: Match,
    seat: int | None,
    after: int = 0,
    limit: int = 200,
    running: int | bool | None = False,
) -> list[dict[str, Any]]:
    """Moves after ``after`` (by ``seq``), at most ``limit``, as ``seat`` may see them.

    Drawn tiles of the round still running are shown to their drawer only (C-HIDDEN); once a
    round is over its moves are shown whole. ``running`` is the round still running when the
    caller read it already (``running_round``); by default it is read from ``match.state``.
    """
    if running is False:
        running = running_round(match=match)
    rows = move_rows(match=match, after=after, limit=limit)
    return [
        move_for_seat(variant=match.variant, row=row, seat=seat, running=running)  # type: ignore[arg-type]
        for row in rows
    ]


def move_rows(*, match: Match, after: int = 0, limit: int = 200) -> list[dict[str, Any]]:
    """Moves after ``after`` (by ``seq``), at most ``limit``, whole: each seat's events in the
    clear. Only ``move_for_seat`` turns one into what a seat may see; never send one as it is."""
    # Up to the match's last move as it was read: a later move may be of a newer round.
    found = log_moves(match_id=match.pk, after=after, upto=match.moves_played, limit=limit)
    return [
        move_row(
            {
                "seq": row.seq,
                "version": row.version,
                "seat": row.seat,
                "kind": row.kind,
                "tile": row.tile,
                "target": row.target,
                "timed_out": row.timed_out,
                "events": row.events,
                "created_at": row.created_at,
            },
            round_no=round_no,
        )
        for row, round_no in found
    ]


def move_row(columns: Mapping[str, Any], *, round_no: int) -> dict[str, Any]:
    """A move's columns (as ``Move`` holds them) as ``move_rows`` gives it, made in round
    ``round_no``."""
    return {
        "seq": columns["seq"],
        "version": columns["version"],
        "round": round_no,
        "seat": columns["seat"],
        "kind": columns["kind"],
        "tile": columns["tile"],
        "target": columns["target"] or None,
        "timed_out": columns["timed_out"],
        "events": columns["events"],
        "created_at": columns["created_at"],
    }


def move_for_seat(
    *, variant: str, row: dict[str, Any], seat: int | None, running: int | None
) -> dict[str, Any]:
    """One of ``move_rows``' moves as ``seat`` may see it, ``running`` the round still running
    (``None`` once the match is over)."""
    return {
        **row,
        "events": events_for_seat(
            variant=variant,
            events=row["events"],
            seat=seat,
            first_round=row["round"],
            running_round=running,
        ),
    }


def match_opening(*, match: Match, seat: int | None) -> list[dict[str, Any]]:
    """The events of the match's start as ``seat`` may see them (``[]`` before it starts).

    Starting a match deals round 1 and plays its automatic start (CF-START: the start double
    found, drawn for and placed; MT-ENGINE: the engine placed) in no move, so the move log shows
    them apart. They are the opening of the round play began in: round 1, unless rounds ended
    as they were dealt (those report no events). Redacted like the log while that round runs.
    """
    if match.state is None:
        return []
    first = Move.objects.filter(match=match, seq=1).values_list("round__number", flat=True).first()
    number = first if first is not None else match.state["round_no"]
    opening = (
        Round.objects.filter(match=match, number=number).values_list("opening", flat=True).first()
    )
    running = match.state["round_no"] if match.status == Match.Status.PLAYING else None
    return events_for_seat(
        variant=match.variant,
        events=opening or [],
        seat=seat,
        first_round=number,
        running_round=running,
    )


def bot_seat_info(*, match: Match, state: Any, seat: int, with_log: bool) -> bots.SeatInfo:
    """What the bot in ``seat`` may know now (C-HIDDEN): its view of ``state`` and, with
    ``with_log``, the current round's public log as that seat sees it (the round's opening,
    then each move's events, redacted like the move log)."""
    view = engine.view(state, seat)
    if not with_log:
        return bots.SeatInfo(view=view)
    round_no = state.round_no
    opening = (
        Round.objects.filter(match=match, number=round_no).values_list("opening", flat=True).first()
    )
    log = [opening or []]
    log += (
        Move.objects.filter(match=match, round__number=round_no)
        .order_by("seq")
        .values_list("events", flat=True)
    )
    return bots.SeatInfo(
        view=view,
        log=[
            events_for_seat(
                variant=match.variant,
                events=events,
                seat=seat,
                first_round=round_no,
                running_round=round_no,
            )
            for events in log
        ],
    )


def bot_strong_at(*, match_id: int) -> bool:
    """Does a strong bot (level 4, which searches) sit at ``match_id``?"""
    return Seat.objects.filter(match_id=match_id, player__bot_level__gte=bots.STRONG).exists()
