"""chickenfoot/json_codec.py and the API's JSON renderer: the JSON the standard library and DRF
write, written by orjson."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer as DRFJSONRenderer

from chickenfoot import json_codec
from chickenfoot.renderers import JSONRenderer

#: JSON values without floats (whose digits orjson and the standard library may write apart,
#: ``1e16`` against ``1e+16``), with integers of at most 64 bits.
_TEXTS = st.text(alphabet=st.characters(codec="utf-8"))
_SCALARS = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | _TEXTS
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_TEXTS, inner, max_size=5),
    max_leaves=30,
)
_FLOATS = st.floats(allow_nan=False, allow_infinity=False)


@given(_VALUES)
def test_dumps_writes_what_json_dumps_writes_compactly(value: Any) -> None:
    # when
    written = json_codec.dumps(value)
    # then
    assert written == json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


@given(st.recursive(_SCALARS | _FLOATS, lambda inner: st.lists(inner, max_size=4), max_leaves=9))
def test_what_dumps_writes_loads_reads_back_as_json_does(value: Any) -> None:
    # when
    written = json_codec.dumps(value)
    # then
    assert json_codec.loads(written) == json.loads(written) == value


def test_what_orjson_does_not_take_is_left_to_the_standard_library() -> None:
    # given: an integer beyond 64 bits, keys that are not strings, a default for the rest
    value = {1: 2**70, None: [datetime.date(2026, 12, 2)]}
    # when
    written = json_codec.dumps(value, default=str)
    # then
    assert written == b'{"1":1180591620717411303424,"null":["2026-12-02"]}'
    with pytest.raises(TypeError):  # as json.dumps refuses
        json_codec.dumps({"when": datetime.datetime(2026, 12, 2, tzinfo=datetime.UTC)})
    assert json_codec.loads(b'{"a": NaN}')["a"] != 0  # read by json.loads, as before
    with pytest.raises(json.JSONDecodeError):
        json_codec.loads("{not json")


@given(_VALUES)
def test_the_api_renderer_writes_drf_s_bytes(value: Any) -> None:
    # when
    ours = JSONRenderer().render(value)
    # then
    assert ours == DRFJSONRenderer().render(value)


def test_the_api_renderer_writes_drf_s_bytes_for_what_drf_s_encoder_converts() -> None:
    # given: values DRF's encoder turns into JSON, and the two separators DRF escapes
    value = {
        "at": datetime.datetime(2026, 12, 2, 4, 5, 6, 789, tzinfo=datetime.UTC),
        "day": datetime.date(2026, 12, 2),
        "price": Decimal("1.5"),
        "title": gettext_lazy("Not found"),
        "lines": "one\u2028two\u2029three",
        "nothing": None,
    }
    # when
    ours = JSONRenderer().render(value)
    # then
    assert ours == DRFJSONRenderer().render(value)
    assert b'"2026-12-02T04:05:06.000789Z"' in ours
    assert b"\\u2028" in ours
    assert b"\\u2029" in ours


def test_the_api_renderer_indents_as_drf_s_when_asked() -> None:
    # given
    value = {"a": [1, 2]}
    media = "application/json; indent=2"
    # when
    ours = JSONRenderer().render(value, media, {})
    # then
    assert ours == DRFJSONRenderer().render(value, media, {})
    assert b"\n  " in ours
    assert JSONRenderer().render(None) == b""
