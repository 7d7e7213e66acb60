"""Values for ``games.rows``'s statements, each prepared exactly as the ORM prepares it.

The ORM prepares a value for the database through a field's ``get_db_prep_save``: three or
four calls deep for a number or a string, on each value of each row written. ``preparer`` finds,
once per field, a shorter way to the same result for the values the hot path writes, where the
field is one of Django's own classes whose preparation of them is known:

- the integer fields, a plain ``int`` or ``None``: the database's ``adapt_integerfield_value``
  (``int()`` of an ``int`` is itself);
- ``CharField`` and ``TextField``, a ``str`` or ``None``; ``BooleanField``, a ``bool`` or
  ``None``: the value itself;
- ``DateTimeField``, a ``datetime`` with its time zone, or ``None``: the database's
  ``adapt_datetimefield_value``;
- ``ForeignKey`` and ``OneToOneField`` to an ``AutoField``, a plain ``int``: the database's
  ``validate_autopk_value``; ``None``: ``None``;
- a plain ``JSONField`` on PostgreSQL, a JSON document: written by ``chickenfoot.json_codec``
  (the same JSON, without the spaces).

Any other field, and any other value (a subclass of ``int``, a naive ``datetime``, an
expression), goes through ``get_db_prep_save``. tests/games/test_row_values.py compares the two
on every field of every model.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import (
    AutoField,
    BigAutoField,
    BigIntegerField,
    BooleanField,
    CharField,
    DateTimeField,
    ForeignKey,
    IntegerField,
    JSONField,
    OneToOneField,
    PositiveBigIntegerField,
    PositiveIntegerField,
    PositiveSmallIntegerField,
    SmallAutoField,
    SmallIntegerField,
    TextField,
)
from psycopg.types.json import Jsonb

from chickenfoot import json_codec

#: What prepares a field's value: called with the value and the connection.
Preparer = Callable[[Any, Any], Any]

_INTEGER_FIELDS = frozenset(
    {
        IntegerField,
        SmallIntegerField,
        BigIntegerField,
        PositiveIntegerField,
        PositiveSmallIntegerField,
        PositiveBigIntegerField,
    }
)
_AUTO_FIELDS = frozenset({AutoField, BigAutoField, SmallAutoField})
#: Field classes whose values of these classes (or ``None``) are prepared as they are.
_KEPT_AS_THEY_ARE: dict[type, type] = {CharField: str, TextField: str, BooleanField: bool}
#: The JSON values a plain JSONField on PostgreSQL sends as ``json_codec`` writes them.
_JSON_VALUES = (dict, list, str, int, float, bool)

#: Per (vendor, field): its preparer.
_PREPARERS: dict[tuple[str, Any], Preparer] = {}


@cache
def plain_json(field: Any) -> bool:
    """Whether ``field`` is a ``JSONField`` as Django makes it (no encoder or decoder of its own,
    nor another way to convert its values)."""
    return (
        isinstance(field, JSONField)
        and field.encoder is None
        and field.decoder is None
        and type(field).from_db_value is JSONField.from_db_value
        and type(field).get_db_prep_save is JSONField.get_db_prep_save
    )


def preparer(field: Any, db: Any) -> Preparer:
    """What prepares ``field``'s values on ``db``'s vendor as ``get_db_prep_save`` does (the
    module says how), decided once per field."""
    key = (db.vendor, field)
    found = _PREPARERS.get(key)
    if found is None:
        found = _PREPARERS[key] = _known(field, db) or field.get_db_prep_save
    return found


def prepared_value(field: Any, value: Any, db: Any = None) -> Any:
    """``field.get_db_prep_save(value, db)`` (``db``: the default connection), by ``preparer``."""
    if db is None:
        db = connections[DEFAULT_DB_ALIAS]
    return preparer(field, db)(value, db)


def _known(field: Any, db: Any) -> Preparer | None:
    save = field.get_db_prep_save
    kind = type(field)
    if kind in _INTEGER_FIELDS:
        internal = field.get_internal_type()

        def integer(value: Any, db: Any) -> Any:
            if value is None or value.__class__ is int:
                return db.ops.adapt_integerfield_value(value, internal)
            return save(value, db)

        return integer
    kept = _KEPT_AS_THEY_ARE.get(kind)
    if kept is not None:

        def as_it_is(value: Any, db: Any) -> Any:
            if value is None or value.__class__ is kept:
                return value
            return save(value, db)

        return as_it_is
    if kind is DateTimeField:

        def moment(value: Any, db: Any) -> Any:
            if value is None or (value.__class__ is datetime and value.utcoffset() is not None):
                return db.ops.adapt_datetimefield_value(value)
            return save(value, db)

        return moment
    if kind in (ForeignKey, OneToOneField) and type(field.target_field) in _AUTO_FIELDS:

        def key(value: Any, db: Any) -> Any:
            if value is None:
                return None
            if value.__class__ is int:
                return db.ops.validate_autopk_value(value)
            return save(value, db)

        return key
    if db.vendor == "postgresql" and plain_json(field):

        def document(value: Any, db: Any) -> Any:
            if value.__class__ in _JSON_VALUES:
                return Jsonb(value, dumps=json_codec.dumps)
            return save(value, db)

        return document
    return None
