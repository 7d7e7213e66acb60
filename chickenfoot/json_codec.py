"""JSON on the paths every request takes: orjson, which writes and reads JSON several times
faster than the standard library, with the standard library's ``json`` wherever orjson would
answer differently.

``dumps`` writes what ``json.dumps`` writes, without its spaces (``{"a":1}``): keys that are not
strings become strings as there, and a value orjson does not take (an integer beyond 64 bits, an
object only a ``default`` knows) goes to ``json.dumps``, which writes it or raises as it always
did. ``loads`` reads what ``json.loads`` reads, but for an integer beyond 64 bits, which comes
back as a float (no JSON the server stores holds one); a document orjson refuses (``NaN``) is
read by ``json.loads``, which raises for what is not JSON at all.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

#: Keys that are not strings (an int, ``None``) written as strings, as ``json.dumps`` does; dates,
#: times and dataclasses left to ``default``, as there (orjson would write them itself).
_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


def dumps(value: Any, *, default: Callable[[Any], Any] | None = None) -> bytes:
    """``value`` as compact JSON, UTF-8 encoded; ``default`` as ``json.dumps`` takes it."""
    try:
        return orjson.dumps(value, default=default, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is one
        separators = (",", ":")
        text = json.dumps(value, default=default, ensure_ascii=False, separators=separators)
        return text.encode()


def loads(data: str | bytes | bytearray | memoryview) -> Any:
    """The value of the JSON document ``data``; ``json.JSONDecodeError`` if it is not one."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(bytes(data) if isinstance(data, memoryview) else data)
