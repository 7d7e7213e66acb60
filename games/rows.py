"""Plain SQL for the few statements on every move's path, without the ORM's query building.

A move's request runs a handful of statements; building each through the ORM costs more CPU
than the rules engine does. These helpers read and write rows with one cursor call each, and
convert values exactly as the ORM would (each field's own database preparation, by
games/row_values.py, and its converters), so the rows they make are the ORM's rows. Table and
column names come from the models' meta. The writes of a batch reach the database as one
statement (``batch``). On PostgreSQL the statements go through the driver's own cursor, kept per
connection, wherever each of Django's checks around a cursor would pass (``_driver_cursor``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from operator import itemgetter
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Model, signals
from django.db.models.base import ModelState

from chickenfoot import json_codec
from games.row_values import plain_json, preparer

M = TypeVar("M", bound=Model)

_Converter = Callable[[Any, Any, Any], Any]
#: Per (vendor, model, column names): the attnames in the model's field order; what takes their
#: values from a row, in that order; and, for each value with converters, its place there, its
#: column expression and its converters.
_Loader = tuple[
    list[str], Callable[[Sequence[Any]], list[Any]], list[tuple[int, Any, list[_Converter]]]
]
_LOADERS: dict[tuple[str, type[Model], tuple[str, ...]], _Loader] = {}
#: Per (vendor, statement kind, model, attnames): the SQL and its values' preparers.
_STATEMENTS: dict[tuple[str, str, type[Model], tuple[str, ...]], tuple[str, list[Any]]] = {}


def _loader(model: type[Model], columns: tuple[str, ...], db: Any) -> _Loader:
    key = (db.vendor, model, columns)
    loader = _LOADERS.get(key)
    if loader is None:
        position = {column: i for i, column in enumerate(columns)}
        attnames: list[str] = []
        positions: list[int] = []
        steps: list[tuple[int, Any, list[_Converter]]] = []
        # Model.from_db takes the values in the order of the model's fields.
        for field in model._meta.concrete_fields:
            if field.column not in position:
                continue
            col = field.get_col(model._meta.db_table)
            converters = db.ops.get_db_converters(col) + _field_converters(field, db)
            if converters:
                steps.append((len(attnames), col, converters))
            attnames.append(field.attname)
            positions.append(position[field.column])
        loader = _LOADERS[key] = (attnames, _taker(positions), steps)
    return loader


def _taker(positions: list[int]) -> Callable[[Sequence[Any]], list[Any]]:
    """What lists a row's values at ``positions``, in that order."""
    if not positions:
        return lambda row: []
    if len(positions) == 1:
        (only,) = positions
        return lambda row: [row[only]]
    take = itemgetter(*positions)
    return lambda row: list(take(row))


def load(model: type[M], columns: Sequence[str], row: Sequence[Any], db: Any = None) -> M:
    """An instance of ``model`` from ``row``, the values of its table's ``columns`` (``db``: the
    default connection, which a caller loading several rows may pass, looked up once).

    Values are converted as the ORM converts them; columns the row lacks load on first use.
    The instance is the one ``Model.from_db`` makes, built without ``Model.__init__`` when the
    model has no ``__init__`` of its own and nothing listens for its init signals (``__init__``
    only sets each loaded attribute, and ``from_db`` then marks the instance as loaded).
    """
    if db is None:
        db = connections[DEFAULT_DB_ALIAS]
    attnames, take, steps = _loader(model, tuple(columns), db)
    values = take(row)
    for index, col, converters in steps:
        value = values[index]
        for convert in converters:
            value = convert(value, col, db)
        values[index] = value
    if not _plain_init(model):
        return model.from_db(db.alias, attnames, values)
    instance = model.__new__(model)
    state = instance._state = ModelState()
    state.adding = False
    state.db = db.alias
    instance.__dict__.update(zip(attnames, values, strict=True))
    return instance


def _plain_init(model: type[Model]) -> bool:
    """Whether ``model``'s instances may be built without calling ``__init__``."""
    if model.__init__ is not Model.__init__:
        return False
    # nothing connected to either signal (the usual case) answers without asking per model
    if not signals.pre_init.receivers and not signals.post_init.receivers:
        return True
    return not signals.pre_init.has_listeners(model) and not signals.post_init.has_listeners(model)


def _field_converters(field: Any, db: Any) -> list[_Converter]:
    """``field``'s own converters, a plain ``JSONField``'s read by ``json_codec``."""
    converters = field.get_db_converters(db)
    if plain_json(field):
        converters = [_json_from_db if c == field.from_db_value else c for c in converters]
    return converters


def _json_from_db(value: Any, expression: Any, db: Any) -> Any:
    """``JSONField.from_db_value``, the document read by ``json_codec``: ``None`` stays ``None``,
    a value the database gave as a value (SQLite) is kept, text that is not JSON is kept."""
    if not isinstance(value, str | bytes):
        return value
    try:
        return json_codec.loads(value)
    except ValueError:
        return value


def _prepared(db: Any, preparers: list[Any], values: dict[str, Any]) -> list[Any]:
    return [prepare(v, db) for prepare, v in zip(preparers, values.values(), strict=True)]


def insert(model: type[Model], values: dict[str, Any]) -> None:
    """``INSERT`` one row of ``model`` with ``values`` by attname (no id is read back)."""
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once
    key = (db.vendor, "insert", model, tuple(values))
    statement = _STATEMENTS.get(key)
    if statement is None:
        fields = [model._meta.get_field(name) for name in values]
        sql = "INSERT INTO {} ({}) VALUES ({})".format(  # noqa: S608 - names from the model's meta
            db.ops.quote_name(model._meta.db_table),
            ", ".join(db.ops.quote_name(f.column) for f in fields),
            ", ".join(["%s"] * len(fields)),
        )
        statement = _STATEMENTS[key] = (sql, [preparer(f, db) for f in fields])
    sql, preparers = statement
    _queue(db, model._meta.db_table, sql, _prepared(db, preparers, values))


def update(model: type[Model], pk: Any, values: dict[str, Any]) -> None:
    """``UPDATE`` the row of ``model`` with primary key ``pk``: set ``values`` by attname."""
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once
    key = (db.vendor, "update", model, tuple(values))
    statement = _STATEMENTS.get(key)
    if statement is None:
        fields = [model._meta.get_field(name) for name in values]
        sql = "UPDATE {} SET {} WHERE {} = %s".format(  # noqa: S608 - names from the model's meta
            db.ops.quote_name(model._meta.db_table),
            ", ".join(f"{db.ops.quote_name(f.column)} = %s" for f in fields),
            db.ops.quote_name(model._meta.pk.column),  # type: ignore[union-attr]
        )
        statement = _STATEMENTS[key] = (sql, [preparer(f, db) for f in fields])
    sql, preparers = statement
    _queue(db, model._meta.db_table, sql, [*_prepared(db, preparers, values), pk])


class Returned:
    """The row a statement with ``RETURNING`` gave back (``returning``): ``fetchone()`` once the
    statement has run, inside ``batch()`` once the batch has been sent (in a
    ``WriteTransaction``, after its ``commit()``)."""

    def __init__(self) -> None:
        self._cursor: Any = None
        self._row: tuple[Any, ...] | None = None

    def fetchone(self) -> tuple[Any, ...] | None:
        """The row (``None`` if the statement gave none back)."""
        cursor, self._cursor = self._cursor, None
        if cursor is not None:
            try:
                self._row = cursor.fetchone()
            finally:
                cursor.close()
        return self._row


def returning(table: str, sql: str, params: Sequence[Any]) -> Returned:
    """Run ``sql``, a statement writing ``table`` with a ``RETURNING`` clause of one row at
    most (inside ``batch()``: with the batch's other statements); its row is the answer's."""
    returned = Returned()
    _queue(connections[DEFAULT_DB_ALIAS], table, sql, params, returned)
    return returned


class _Group:
    """The statements of a batch not sent yet: each writes a table of its own, and the last one
    only may return rows."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.params: list[Any] = []
        self.tables: set[str] = set()
        self.returned: Returned | None = None

    def sql(self) -> str:
        """The statements as one: every one but the last in a ``WITH`` of the last."""
        *before, last = self.statements
        if not before:
            return last
        queries = ", ".join(f"w{i} AS ({sql})" for i, sql in enumerate(before))
        return f"WITH {queries} {last}"


_batches = threading.local()


def _queue(
    db: Any, table: str, sql: str, params: Sequence[Any], returned: Returned | None = None
) -> None:
    group: _Group | None = getattr(_batches, "group", None)
    if group is None:
        _send(db, sql, params, returned)
        return
    if table in group.tables or group.returned is not None:
        _flush(db, group)  # a second write of a table, or one after a RETURNING: sent apart
    group.statements.append(sql)
    group.params.extend(params)
    group.tables.add(table)
    group.returned = returned


def _flush(db: Any, group: _Group) -> None:
    if group.statements:
        _send(db, group.sql(), group.params, group.returned)
    group.__init__()  # type: ignore[misc]


def _driver_cursor(db: Any) -> Any:
    """The driver's own cursor on ``db``'s connection, kept for the hot path's statements, or
    ``None`` where each statement goes through a cursor of Django's.

    A statement through Django's cursor also passes Django's checks and bookkeeping, most of
    which concern nothing this path meets; the kept cursor is used only when every one of them
    would pass: on PostgreSQL, connected, no health check due, no broken transaction, no query
    being logged (``DEBUG``, a test counting queries) and no execute wrapper installed. Errors
    are raised as Django's (``wrap_database_errors``). It is made by Django's
    ``create_cursor`` (the connection's time zone) and made again when the connection or the
    time zone changes.
    """
    raw = db.connection
    if (
        raw is None
        or db.vendor != "postgresql"
        or db.queries_logged
        or db.execute_wrappers
        or db.needs_rollback
        or (db.health_check_enabled and not db.health_check_done)
    ):
        return None
    kept = db.__dict__.get("_rows_cursor")
    if kept is None or kept[0] is not raw or kept[1] is not db.timezone or kept[2].closed:
        with db.wrap_database_errors:
            kept = db.__dict__["_rows_cursor"] = (raw, db.timezone, db.create_cursor())
    return kept[2]


_BUILT: dict[tuple[str, str], str] = {}


def column(model: type[Model], name: str) -> str:
    """The database column of ``model``'s field ``name`` (unquoted)."""
    return model._meta.get_field(name).column


def statement(name: str, build: Callable[[Callable[[str], str]], str]) -> str:
    """The statement called ``name`` for the default database's vendor: ``build`` makes it
    once, given the vendor's quoting of names (each name from the models' meta)."""
    db = connections[DEFAULT_DB_ALIAS]
    key = (db.vendor, name)
    sql = _BUILT.get(key)
    if sql is None:
        sql = _BUILT[key] = build(db.ops.quote_name)
    return sql


def fetchone(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """The first row ``sql`` gives (``None`` if none): a read on the hot path, through the
    driver's cursor where it can be (``_driver_cursor``), else Django's."""
    return _read(sql, params, "fetchone")


def fetchall(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Every row ``sql`` gives, as ``fetchone`` reads."""
    return _read(sql, params, "fetchall")


def _read(sql: str, params: Sequence[Any], fetch: str) -> Any:
    db = connections[DEFAULT_DB_ALIAS]
    cursor = _driver_cursor(db)
    if cursor is None:
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return getattr(cursor, fetch)()
    with db.wrap_database_errors:
        cursor.execute(sql, params)
        return getattr(cursor, fetch)()


def _send(db: Any, sql: str, params: Sequence[Any], returned: Returned | None) -> None:
    if returned is None:
        cursor = _driver_cursor(db)
        if cursor is not None:
            with db.wrap_database_errors:
                cursor.execute(sql, params)
            return
    cursor = db.cursor()
    try:
        cursor.execute(sql, params)
        if returned is not None and db.vendor != "postgresql":
            returned._row = cursor.fetchone()  # SQLite finishes a statement once it is read
    except BaseException:
        cursor.close()
        raise
    if returned is not None and db.vendor == "postgresql":
        # its answer may still be on its way (pipeline mode: read with the COMMIT's)
        returned._cursor = cursor
    else:
        cursor.close()


@contextmanager
def batch() -> Iterator[None]:
    """Send the ``insert``, ``update`` and ``returning`` statements inside as one, on leaving.

    On PostgreSQL the statements are kept until the block ends, then sent as one statement
    (every one but the last in a ``WITH`` of the last): one call to the driver, one round trip
    (in a ``WriteTransaction``, the ``COMMIT``'s), where an error any of them met is raised (as
    Django's database errors, e.g. ``IntegrityError``). The statements of one statement see the
    database as it was before any of them, so a second write of a table already written, or
    a write after a ``returning``, sends what is kept first. For statements that read none of
    each other's rows, and whose results the block does not read (keep ORM calls out: the ORM
    reads a row count after its updates). On an exception inside the block nothing kept is sent.
    On other databases each statement runs at once.
    """
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once
    if db.vendor != "postgresql" or getattr(_batches, "group", None) is not None:
        yield
        return
    group = _batches.group = _Group()
    try:
        yield
    finally:
        _batches.group = None
    _flush(db, group)


class WriteTransaction:
    """A transaction of a write on the hot path, in as few round trips as it can be.

    On PostgreSQL, outside any other transaction, its statements go out in pipeline mode: the
    ``BEGIN`` leaves with the first statement (the match lock, whose answer is read at once),
    and ``commit()`` sends the queued writes and the ``COMMIT`` together, reads every answer and
    leaves pipeline mode, before Django's own commit (which then has nothing left to do) runs the
    commit hooks. ``plain()`` leaves pipeline mode early (one round trip) for work whose
    statements read what the ORM reads back (a row count, say). Elsewhere (SQLite, inside an
    outer transaction) it is a plain ``transaction.atomic()`` and both calls do nothing.
    """

    def __init__(self) -> None:
        self._pipeline: Any = None
        self._db: Any = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once

    @property
    def pipelined(self) -> bool:
        """Whether statements are being queued in pipeline mode now."""
        return self._pipeline is not None

    def _enter(self) -> None:
        self._db.ensure_connection()
        pipeline = self._db.connection.pipeline()
        pipeline.__enter__()
        self._pipeline = pipeline

    def plain(self) -> None:
        """Leave pipeline mode (sending what is queued); the transaction goes on."""
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is not None:
            with self._db.wrap_database_errors:
                pipeline.__exit__(None, None, None)

    def commit(self) -> None:
        """Send the queued writes and the ``COMMIT`` in one round trip; raise (as Django's
        database errors) what any of them met. The last thing the block does."""
        if self._pipeline is None:
            return
        db = self._db
        cursor = _driver_cursor(db) or db.connection
        with db.wrap_database_errors:
            cursor.execute("COMMIT")
        self.plain()

    def _abandon(self, exc: BaseException | None) -> None:
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is not None:
            pipeline.__exit__(type(exc) if exc else None, exc, None)


@contextmanager
def write_transaction() -> Iterator[WriteTransaction]:
    """``transaction.atomic()`` for a write on the hot path: see ``WriteTransaction``."""
    tx = WriteTransaction()
    outermost = not tx._db.in_atomic_block
    with transaction.atomic():
        if outermost and tx._db.vendor == "postgresql":
            tx._enter()
        try:
            yield tx
        except BaseException as exc:
            tx._abandon(exc)
            raise
        tx._abandon(None)
