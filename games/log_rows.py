"""A match's log as the sockets read it (``frames.log_read``), in plain SQL.

Every reconnection that resumes behind the match, and every socket told of a move it cannot
follow on from, reads the match's row and its moves after a seq; built through the ORM, the two
queries cost the sockets' processes more CPU than the rest of a reconnection's reads. The
statements here are made once per database vendor from the models' meta, and ``rows.load``
converts each move's values as the ORM does, so the rows are those ``selectors.move_rows``
gave before.
"""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from games import rows
from games.match_rows import MAX_ID
from games.models import Match, Move, Round

#: The match's columns the log's reader needs, then the two keys of its engine state.
MATCH_COLUMNS = ("variant", "status", "version", "moves_played", "turn_deadline")
#: A move's columns, in ``Move``'s field order, then its round's number.
MOVE_COLUMNS = (
    "seq",
    "seat",
    "kind",
    "tile",
    "target",
    "events",
    "version",
    "timed_out",
    "created_at",
)
_MATCH_DB_COLUMNS = tuple(rows.column(Match, name) for name in MATCH_COLUMNS)
_MOVE_DB_COLUMNS = tuple(rows.column(Move, name) for name in MOVE_COLUMNS)


def _state_key(quote: Any, vendor: str, key: str) -> str:
    """The integer at ``key`` of the match's engine state (``m.state``), as SQL."""
    state = f"m.{quote(rows.column(Match, 'state'))}"
    if vendor == "postgresql":
        return f"CAST({state} ->> '{key}' AS INTEGER)"
    return f"json_extract({state}, '$.{key}')"


def _match_sql(quote: Any) -> str:
    vendor = connections[DEFAULT_DB_ALIAS].vendor
    return (
        f"SELECT {', '.join(f'm.{quote(c)}' for c in _MATCH_DB_COLUMNS)}, "  # noqa: S608 - names from the models' meta
        f"{_state_key(quote, vendor, 'round_no')}, {_state_key(quote, vendor, 'turn')} "
        f"FROM {quote(Match._meta.db_table)} m WHERE m.{quote(rows.column(Match, 'id'))} = %s"
    )


def _moves_sql(quote: Any) -> str:
    seq = f"v.{quote(rows.column(Move, 'seq'))}"
    return (
        f"SELECT {', '.join(f'v.{quote(c)}' for c in _MOVE_DB_COLUMNS)}, "  # noqa: S608 - names from the models' meta
        f"r.{quote(rows.column(Round, 'number'))} "
        f"FROM {quote(Move._meta.db_table)} v INNER JOIN {quote(Round._meta.db_table)} r "
        f"ON r.{quote(rows.column(Round, 'id'))} = v.{quote(rows.column(Move, 'round'))} "
        f"WHERE v.{quote(rows.column(Move, 'match'))} = %s AND {seq} > %s AND {seq} <= %s "
        f"ORDER BY {seq} ASC LIMIT %s"
    )


def log_row(match: Match, *, round_no: int | None, turn: int | None) -> dict[str, Any]:
    """What the log's reader needs of ``match`` (``MATCH_COLUMNS`` loaded): those columns, and
    its engine state's round and turn as ``state__round_no`` and ``state__turn`` (the keys the
    ORM's ``values`` would give them)."""
    found = {name: getattr(match, name) for name in MATCH_COLUMNS}
    found["state__round_no"], found["state__turn"] = round_no, turn
    return found


def log_match(*, match_id: int) -> dict[str, Any] | None:
    """``log_row`` of match ``match_id``, its state's keys read by the statement (not the whole
    state); ``None`` if there is no such match."""
    if not 0 < match_id <= MAX_ID:
        return None
    row = rows.fetchone(rows.statement("log_match", _match_sql), [match_id])
    if row is None:
        return None
    n = len(_MATCH_DB_COLUMNS)
    match = rows.load(Match, _MATCH_DB_COLUMNS, row[:n])
    return log_row(match, round_no=row[n], turn=row[n + 1])


def log_moves(*, match_id: int, after: int, upto: int, limit: int) -> list[tuple[Move, int]]:
    """The match's moves with ``after < seq <= upto``, at most ``limit``, oldest first, each
    with its round's number."""
    found = rows.fetchall(rows.statement("log_moves", _moves_sql), [match_id, after, upto, limit])
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once for every row
    n = len(_MOVE_DB_COLUMNS)
    return [(rows.load(Move, _MOVE_DB_COLUMNS, row[:n], db), row[n]) for row in found]
