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
MAX_ID = 2**63 - 1

_STATEMENTS: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]] = {}


def _state_key(db: Any, key: str) -> str:
    """The integer at ``key`` of the match's engine state (``m.state``), as SQL."""
    state = f"m.{db.ops.quote_name(Match._meta.get_field('state').column)}"
    if db.vendor == "postgresql":
        return f"CAST({state} ->> '{key}' AS INTEGER)"
    return f"json_extract({state}, '$.{key}')"


def _statements() -> tuple[str, str, tuple[str, ...], tuple[str, ...]]:
    db = connections[DEFAULT_DB_ALIAS]
    statements = _STATEMENTS.get(db.vendor)
    if statements is None:
        quote = db.ops.quote_name

        def column(model: Any, name: str) -> str:
            return quote(model._meta.get_field(name).column)

        match_columns = tuple(Match._meta.get_field(name).column for name in MATCH_COLUMNS)
        move_columns = tuple(Move._meta.get_field(name).column for name in MOVE_COLUMNS)
        match_sql = (
            f"SELECT {', '.join(f'm.{quote(c)}' for c in match_columns)}, "  # noqa: S608 - names from the models' meta
            f"{_state_key(db, 'round_no')}, {_state_key(db, 'turn')} "
            f"FROM {quote(Match._meta.db_table)} m WHERE m.{column(Match, 'id')} = %s"
        )
        moves_sql = (
            f"SELECT {', '.join(f'v.{quote(c)}' for c in move_columns)}, "  # noqa: S608 - names from the models' meta
            f"r.{column(Round, 'number')} "
            f"FROM {quote(Move._meta.db_table)} v INNER JOIN {quote(Round._meta.db_table)} r "
            f"ON r.{column(Round, 'id')} = v.{column(Move, 'round')} "
            f"WHERE v.{column(Move, 'match')} = %s AND v.{column(Move, 'seq')} > %s "
            f"AND v.{column(Move, 'seq')} <= %s ORDER BY v.{column(Move, 'seq')} ASC LIMIT %s"
        )
        statements = _STATEMENTS[db.vendor] = (match_sql, moves_sql, match_columns, move_columns)
    return statements


def log_match(*, match_id: int) -> dict[str, Any] | None:
    """What the log's reader needs of the match: ``MATCH_COLUMNS`` and its engine state's
    ``state__round_no`` and ``state__turn`` (the keys the ORM's ``values`` would give them);
    ``None`` if there is no such match."""
    if not 0 < match_id <= MAX_ID:
        return None
    match_sql, _, match_columns, _ = _statements()
    row = rows.fetchone(match_sql, [match_id])
    if row is None:
        return None
    n = len(match_columns)
    match = rows.load(Match, match_columns, row[:n])
    found = {name: getattr(match, name) for name in MATCH_COLUMNS}
    found["state__round_no"], found["state__turn"] = row[n], row[n + 1]
    return found


def log_moves(*, match_id: int, after: int, upto: int, limit: int) -> list[tuple[Move, int]]:
    """The match's moves with ``after < seq <= upto``, at most ``limit``, oldest first, each
    with its round's number."""
    _, moves_sql, _, move_columns = _statements()
    found = rows.fetchall(moves_sql, [match_id, after, upto, limit])
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once for every row
    n = len(move_columns)
    return [(rows.load(Move, move_columns, row[:n], db), row[n]) for row in found]
