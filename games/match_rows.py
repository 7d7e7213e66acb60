"""A match with its creator, seats and their players (each with their uploaded avatar's row, for
the seats' avatar URLs), in plain SQL (``selectors.match_get``).

The match view reads these on every poll; building the two ORM queries cost it more CPU than
the rest of the request. The statements here are made once per database vendor from the
models' meta, and ``rows.load`` builds the instances as the ORM does: the match with
``created_by`` loaded (``select_related``), its seats in position order each with its player
(``None`` for an open seat; its avatar, or none, cached as ``select_related("player__avatar")``
caches it) and its match, cached as ``prefetch_related("seats")`` caches them, so
``match.seats.all()`` reads no more rows.
"""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

from games import rows
from games.avatars.models import PlayerAvatar
from games.models import Match, Player, Seat

#: The largest primary key (a signed 64-bit integer): an id past it is no match.
MAX_ID = 2**63 - 1

_Statements = tuple[str, tuple[str, ...], str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]
_STATEMENTS: dict[str, _Statements] = {}


def _columns(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.column for field in model._meta.concrete_fields)


def _select(alias: str, columns: tuple[str, ...]) -> str:
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    return ", ".join(f"{alias}.{quote(column)}" for column in columns)


def _statements() -> _Statements:
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once
    statements = _STATEMENTS.get(db.vendor)
    if statements is None:
        quote = db.ops.quote_name
        match_columns, seat_columns, player_columns, avatar_columns = (
            _columns(Match),
            _columns(Seat),
            _columns(Player),
            _columns(PlayerAvatar),
        )
        match_table, seat_table, player_table, avatar_table = (
            quote(model._meta.db_table) for model in (Match, Seat, Player, PlayerAvatar)
        )
        avatar_player = quote(PlayerAvatar._meta.get_field("player").column)
        by = quote(Match._meta.get_field("created_by").column)
        seat_player = quote(Seat._meta.get_field("player").column)
        seat_match = quote(Seat._meta.get_field("match").column)
        match_sql = (
            f"SELECT {_select('m', match_columns)}, {_select('p', player_columns)} "  # noqa: S608 - names from the models' meta
            f"FROM {match_table} m INNER JOIN {player_table} p ON p.{quote('id')} = m.{by} "
            f"WHERE m.{quote('id')} = %s"
        )
        seats_sql = (
            f"SELECT {_select('s', seat_columns)}, {_select('p', player_columns)}, "  # noqa: S608 - names from the models' meta
            f"{_select('a', avatar_columns)} "
            f"FROM {seat_table} s LEFT OUTER JOIN {player_table} p "
            f"ON p.{quote('id')} = s.{seat_player} "
            f"LEFT OUTER JOIN {avatar_table} a ON a.{avatar_player} = p.{quote('id')} "
            f"WHERE s.{seat_match} = %s ORDER BY s.{quote('position')} ASC"
        )
        statements = _STATEMENTS[db.vendor] = (
            match_sql,
            match_columns,
            seats_sql,
            seat_columns,
            player_columns,
            avatar_columns,
        )
    return statements


def match_with_seats(*, match_id: int) -> Match | None:
    """The match (``created_by`` loaded) and its seats with their players and their avatars,
    in two statements; ``None`` if there is no such match."""
    if not 0 < match_id <= MAX_ID:
        return None
    match_sql, match_columns, seats_sql, seat_columns, player_columns, avatar_columns = (
        _statements()
    )
    row = rows.fetchone(match_sql, [match_id])
    if row is None:
        return None
    seat_rows = rows.fetchall(seats_sql, [match_id])
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once for every row
    m = len(match_columns)
    match = rows.load(Match, match_columns, row[:m], db)
    Match.created_by.field.set_cached_value(match, rows.load(Player, player_columns, row[m:], db))
    s = len(seat_columns)
    a = s + len(player_columns)
    seats = []
    for seat_row in seat_rows:
        seat = rows.load(Seat, seat_columns, seat_row[:s], db)
        player = None
        if seat_row[s] is not None:
            player = rows.load(Player, player_columns, seat_row[s:a], db)
            avatar = None
            if seat_row[a] is not None:
                avatar = rows.load(PlayerAvatar, avatar_columns, seat_row[a:], db)
            Player.avatar.related.set_cached_value(player, avatar)
        Seat.player.field.set_cached_value(seat, player)
        Seat.match.field.set_cached_value(seat, match)
        seats.append(seat)
    _prefetched(match, "seats", seats)
    return match


def _prefetched(instance: Model, name: str, related: list[Any]) -> None:
    """Cache ``related`` as ``prefetch_related(name)`` would: ``instance.<name>.all()``."""
    queryset = getattr(instance, name).get_queryset()
    queryset._result_cache = related
    queryset._prefetch_done = True
    cache = instance.__dict__.setdefault("_prefetched_objects_cache", {})
    cache[name] = queryset
