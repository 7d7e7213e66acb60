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

_MATCH_COLUMNS, _SEAT_COLUMNS, _PLAYER_COLUMNS, _AVATAR_COLUMNS = (
    tuple(field.column for field in model._meta.concrete_fields)
    for model in (Match, Seat, Player, PlayerAvatar)
)


def _select(quote: Any, alias: str, columns: tuple[str, ...]) -> str:
    return ", ".join(f"{alias}.{quote(column)}" for column in columns)


def _match_sql(quote: Any) -> str:
    match_table, player_table = quote(Match._meta.db_table), quote(Player._meta.db_table)
    return (
        f"SELECT {_select(quote, 'm', _MATCH_COLUMNS)}, {_select(quote, 'p', _PLAYER_COLUMNS)} "  # noqa: S608 - names from the models' meta
        f"FROM {match_table} m INNER JOIN {player_table} p "
        f"ON p.{quote('id')} = m.{quote(rows.column(Match, 'created_by'))} "
        f"WHERE m.{quote('id')} = %s"
    )


def _seats_sql(quote: Any) -> str:
    seat_table, player_table, avatar_table = (
        quote(model._meta.db_table) for model in (Seat, Player, PlayerAvatar)
    )
    return (
        f"SELECT {_select(quote, 's', _SEAT_COLUMNS)}, {_select(quote, 'p', _PLAYER_COLUMNS)}, "  # noqa: S608 - names from the models' meta
        f"{_select(quote, 'a', _AVATAR_COLUMNS)} "
        f"FROM {seat_table} s LEFT OUTER JOIN {player_table} p "
        f"ON p.{quote('id')} = s.{quote(rows.column(Seat, 'player'))} "
        f"LEFT OUTER JOIN {avatar_table} a "
        f"ON a.{quote(rows.column(PlayerAvatar, 'player'))} = p.{quote('id')} "
        f"WHERE s.{quote(rows.column(Seat, 'match'))} = %s ORDER BY s.{quote('position')} ASC"
    )


def match_with_seats(*, match_id: int) -> Match | None:
    """The match (``created_by`` loaded) and its seats with their players and their avatars,
    in two statements; ``None`` if there is no such match."""
    if not 0 < match_id <= MAX_ID:
        return None
    row = rows.fetchone(rows.statement("match_with_seats", _match_sql), [match_id])
    if row is None:
        return None
    seat_rows = rows.fetchall(rows.statement("match_seats", _seats_sql), [match_id])
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once for every row
    m = len(_MATCH_COLUMNS)
    match = rows.load(Match, _MATCH_COLUMNS, row[:m], db)
    Match.created_by.field.set_cached_value(match, rows.load(Player, _PLAYER_COLUMNS, row[m:], db))
    s = len(_SEAT_COLUMNS)
    a = s + len(_PLAYER_COLUMNS)
    seats = []
    for seat_row in seat_rows:
        seat = rows.load(Seat, _SEAT_COLUMNS, seat_row[:s], db)
        player = None
        if seat_row[s] is not None:
            player = rows.load(Player, _PLAYER_COLUMNS, seat_row[s:a], db)
            avatar = None
            if seat_row[a] is not None:
                avatar = rows.load(PlayerAvatar, _AVATAR_COLUMNS, seat_row[a:], db)
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
