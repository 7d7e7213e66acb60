"""games/row_values.py: each field's values prepared as the ORM prepares them, on every field of
every model, for the values the hot path writes and for those it leaves to the ORM."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.db.models import F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg.types.json import Jsonb

from games.models import Match, Move
from games.row_values import prepared_value, preparer

pytestmark = pytest.mark.django_db

FIELDS = [
    field
    for model in apps.get_models()
    if model._meta.app_label in {"games", "scoring"}
    for field in model._meta.concrete_fields
]


class Number(int):
    """An ``int`` of a class of its own: left to the ORM."""


ZONES = [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-5))]
VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**31), max_value=2**31 - 1),
    st.integers(min_value=0, max_value=2**31 - 1).map(Number),
    st.booleans(),
    st.text(max_size=20),
    st.datetimes(timezones=st.sampled_from(ZONES)),
    st.datetimes(),  # naive: the ORM warns, and makes it aware
    st.lists(st.integers(0, 12), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(-5, 5), max_size=3),
)


def _outcome(prepare: Callable[[Any], Any], value: Any) -> tuple[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a naive datetime's warning
        try:
            prepared = prepare(value)
        except Exception as exc:  # noqa: BLE001 - the same refusal is the point
            return "refused", type(exc)
    if isinstance(prepared, Jsonb):
        return "json", prepared.obj
    return "value", (type(prepared), prepared)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=VALUES)
def test_every_field_prepares_a_value_as_the_orm_does(value: Any) -> None:
    for field in FIELDS:
        ours = _outcome(lambda v, f=field: prepared_value(f, v, connection), value)
        orm = _outcome(lambda v, f=field: f.get_db_prep_save(v, connection), value)
        assert ours == orm, field


@pytest.mark.parametrize(
    ("model", "name"),
    [
        (Move, "seq"),
        (Move, "seat"),
        (Move, "kind"),
        (Move, "timed_out"),
        (Move, "created_at"),
        (Move, "match"),
        (Match, "turn_deadline"),
    ],
)
def test_the_hot_paths_fields_take_the_shorter_way(model: Any, name: str) -> None:
    field = model._meta.get_field(name)
    assert preparer(field, connection) != field.get_db_prep_save
    assert preparer(field, connection) is preparer(field, connection)


def test_an_expression_is_left_to_the_orm() -> None:
    expression = F("version") + 1
    assert prepared_value(Match._meta.get_field("version"), expression, connection) is expression


def test_an_aware_moment_is_written_as_the_orm_writes_it() -> None:
    moment = datetime(2026, 12, 2, 9, 30, tzinfo=UTC)
    field = Move._meta.get_field("created_at")
    assert prepared_value(field, moment, connection) == field.get_db_prep_save(moment, connection)
