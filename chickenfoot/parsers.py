"""The API's JSON parser: DRF's, refusing bodies nested deeper than ``API_MAX_JSON_DEPTH``.

No request the API takes nests more than a few levels (a match's ``seats`` list of objects is the
deepest). A body nested thousands deep would exhaust the stack of the JSON decoder, or of any
code that walks it afterwards (validation, error reports): it is refused with 400
``body_too_deep`` before anything else sees it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class BodyTooDeep(ParseError):
    """400 ``body_too_deep``: rendered as a problem like every DRF exception."""

    default_code = "body_too_deep"
    title = "Body nested too deep"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, code=self.default_code)


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` (parsed JSON) has containers nested more than ``limit`` deep.

    Iterative, so that it cannot itself run out of stack.
    """
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        node, depth = pending.pop()
        if isinstance(node, Mapping):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


class DepthLimitedJSONParser(JSONParser):
    """``application/json`` bodies, at most ``API_MAX_JSON_DEPTH`` containers deep."""

    def parse(
        self, stream: Any, media_type: str | None = None, parser_context: Any = None
    ) -> Any:
        limit: int = settings.API_MAX_JSON_DEPTH
        detail = f"The JSON body is nested more than {limit} levels deep."
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # deeper than the decoder's own stack allows
            raise BodyTooDeep(detail) from None
        if json_depth_exceeds(data, limit):
            raise BodyTooDeep(detail)
        return data
