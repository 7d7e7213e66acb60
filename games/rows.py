"""Plain SQL for the few statements on every move's path, without the ORM's query building.

A move's request runs a handful of statements; building each through the ORM costs more CPU
than the rules engine does. These helpers read and write rows with one cursor call each, and
convert values exactly as the ORM would (each field's own database preparation and converters),
so the rows they make are the ORM's rows. Table and column names come from the models' meta.
Writes whose results nobody reads can share one round trip to the database (``batch``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import JSONField, Model, signals
from django.db.models.base import ModelState
from psycopg.types.json import Jsonb

from chickenfoot import json_codec

M = TypeVar("M", bound=Model)

_Converter = Callable[[Any, Any, Any], Any]
#: Per (vendor, model, column names): the attnames in the model's field order, and for each the
#: position of its column in the row, the column expression and its converters.
_Loader = tuple[list[str], list[tuple[int, Any, list[_Converter]]]]
_LOADERS: dict[tuple[str, type[Model], tuple[str, ...]], _Loader] = {}
#: Per (vendor, statement kind, model, attnames): the SQL and its fields.
_STATEMENTS: dict[tuple[str, str, type[Model], tuple[str, ...]], tuple[str, list[Any]]] = {}


def _loader(model: type[Model], columns: tuple[str, ...], db: Any) -> _Loader:
    key = (db.vendor, model, columns)
    loader = _LOADERS.get(key)
    if loader is None:
        position = {column: i for i, column in enumerate(columns)}
        attnames: list[str] = []
        steps: list[tuple[int, Any, list[_Converter]]] = []
        # Model.from_db takes the values in the order of the model's fields.
        for field in model._meta.concrete_fields:
            if field.column not in position:
                continue
            col = field.get_col(model._meta.db_table)
            converters = db.ops.get_db_converters(col) + _field_converters(field, db)
            attnames.append(field.attname)
            steps.append((position[field.column], col, converters))
        loader = _LOADERS[key] = (attnames, steps)
    return loader


def load(model: type[M], columns: Sequence[str], row: Sequence[Any]) -> M:
    """An instance of ``model`` from ``row``, the values of its table's ``columns``.

    Values are converted as the ORM converts them; columns the row lacks load on first use.
    The instance is the one ``Model.from_db`` makes, built without ``Model.__init__`` when the
    model has no ``__init__`` of its own and nothing listens for its init signals (``__init__``
    only sets each loaded attribute, and ``from_db`` then marks the instance as loaded).
    """
    db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once
    attnames, steps = _loader(model, tuple(columns), db)
    values = []
    for index, col, converters in steps:
        value = row[index]
        for convert in converters:
            value = convert(value, col, db)
        values.append(value)
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


@cache
def _plain_json(field: Any) -> bool:
    """Whether ``field`` is a ``JSONField`` as Django makes it (no encoder or decoder of its own,
    nor another way to convert its values)."""
    return (
        isinstance(field, JSONField)
        and field.encoder is None
        and field.decoder is None
        and type(field).from_db_value is JSONField.from_db_value
        and type(field).get_db_prep_save is JSONField.get_db_prep_save
    )


def _field_converters(field: Any, db: Any) -> list[_Converter]:
    """``field``'s own converters, a plain ``JSONField``'s read by ``json_codec``."""
    converters = field.get_db_converters(db)
    if _plain_json(field):
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


#: The JSON values a plain JSONField on PostgreSQL sends as ``json_codec`` writes them.
_JSON_VALUES = (dict, list, str, int, float, bool)


def prepared_value(field: Any, value: Any) -> Any:
    """``field.get_db_prep_save(value, connection)``; on PostgreSQL, a plain ``JSONField``'s
    document is written by ``json_codec`` (the same JSON, without the spaces)."""
    if value.__class__ in _JSON_VALUES and connection.vendor == "postgresql" and _plain_json(field):
        return Jsonb(value, dumps=json_codec.dumps)
    return field.get_db_prep_save(value, connection)


def _prepared(model: type[Model], fields: list[Any], values: dict[str, Any]) -> list[Any]:
    return [prepared_value(field, values[field.attname]) for field in fields]


def insert(model: type[Model], values: dict[str, Any]) -> None:
    """``INSERT`` one row of ``model`` with ``values`` by attname (no id is read back)."""
    key = (connection.vendor, "insert", model, tuple(values))
    statement = _STATEMENTS.get(key)
    if statement is None:
        fields = [model._meta.get_field(name) for name in values]
        sql = "INSERT INTO {} ({}) VALUES ({})".format(  # noqa: S608 - names from the model's meta
            connection.ops.quote_name(model._meta.db_table),
            ", ".join(connection.ops.quote_name(f.column) for f in fields),
            ", ".join(["%s"] * len(fields)),
        )
        statement = _STATEMENTS[key] = (sql, fields)
    sql, fields = statement
    with connection.cursor() as cursor:
        cursor.execute(sql, _prepared(model, fields, values))


def update(model: type[Model], pk: Any, values: dict[str, Any]) -> None:
    """``UPDATE`` the row of ``model`` with primary key ``pk``: set ``values`` by attname."""
    key = (connection.vendor, "update", model, tuple(values))
    statement = _STATEMENTS.get(key)
    if statement is None:
        fields = [model._meta.get_field(name) for name in values]
        sql = "UPDATE {} SET {} WHERE {} = %s".format(  # noqa: S608 - names from the model's meta
            connection.ops.quote_name(model._meta.db_table),
            ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in fields),
            connection.ops.quote_name(model._meta.pk.column),  # type: ignore[union-attr]
        )
        statement = _STATEMENTS[key] = (sql, fields)
    sql, fields = statement
    with connection.cursor() as cursor:
        cursor.execute(sql, [*_prepared(model, fields, values), pk])


@contextmanager
def batch() -> Iterator[None]:
    """Send the ``insert`` and ``update`` statements inside in one round trip, on leaving.

    On PostgreSQL the statements go out in pipeline mode (psycopg's ``Connection.pipeline``):
    each is sent at once, and their results are read together as the block ends, where an
    error any of them met is raised (as Django's database errors, e.g. ``IntegrityError``).
    Only for statements whose results the block does not read (the ORM reads a row count after
    its updates: keep ORM calls out). On other databases nothing changes: each statement is its
    own round trip.
    """
    if connection.vendor != "postgresql" or _in_pipeline():
        yield
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def _in_pipeline() -> bool:
    """Whether this connection queues its statements in pipeline mode now."""
    raw = connection.connection
    return raw is not None and bool(raw.pgconn.pipeline_status)


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

    @property
    def pipelined(self) -> bool:
        """Whether statements are being queued in pipeline mode now."""
        return self._pipeline is not None

    def _enter(self) -> None:
        connection.ensure_connection()
        pipeline = connection.connection.pipeline()
        pipeline.__enter__()
        self._pipeline = pipeline

    def plain(self) -> None:
        """Leave pipeline mode (sending what is queued); the transaction goes on."""
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is not None:
            with connection.wrap_database_errors:
                pipeline.__exit__(None, None, None)

    def commit(self) -> None:
        """Send the queued writes and the ``COMMIT`` in one round trip; raise (as Django's
        database errors) what any of them met. The last thing the block does."""
        if self._pipeline is None:
            return
        with connection.wrap_database_errors:
            connection.connection.execute("COMMIT")
        self.plain()

    def _abandon(self, exc: BaseException | None) -> None:
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is not None:
            pipeline.__exit__(type(exc) if exc else None, exc, None)


@contextmanager
def write_transaction() -> Iterator[WriteTransaction]:
    """``transaction.atomic()`` for a write on the hot path: see ``WriteTransaction``."""
    tx = WriteTransaction()
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            tx._enter()
        try:
            yield tx
        except BaseException as exc:
            tx._abandon(exc)
            raise
        tx._abandon(None)
