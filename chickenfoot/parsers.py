"""The API's JSON parser: DRF's, refusing bodies too large, too deep or too long before any
validation walks them.

No request the API takes is more than a few hundred bytes, nests more than a few levels (a
match's ``seats`` list of objects is the deepest) or holds more than a few dozen items in an
array or members in an object (22 seats). What could be sent instead costs the server CPU in
proportion to its size in every layer that looks at it: a ``tile`` of 200,000 numbers had each
number validated before the length was checked (470 ms). So the parser refuses, in this order:

- a body over ``API_MAX_JSON_BYTES`` (64 KiB): 413 ``body_too_large``, the rest of it unread;
- a body nested more than ``API_MAX_JSON_DEPTH`` (32) deep: 400 ``body_too_deep`` (a body nested
  thousands deep would exhaust the stack of the decoder, or of any code that walks it);
- an array with more than ``API_MAX_JSON_ITEMS`` (1,000) items, or an object with more members:
  400 ``too_many_items``, naming where.

The decoding itself is the standard library's C decoder; the check that follows looks at each
container once, and at the items of none longer than the limit.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings
from rest_framework.utils import json


class BodyTooDeep(ParseError):
    """400 ``body_too_deep``: rendered as a problem like every DRF exception."""

    default_code = "body_too_deep"
    title = gettext_lazy("Body nested too deep")

    def __init__(self, detail: str) -> None:
        super().__init__(detail, code=self.default_code)


class TooManyItems(ParseError):
    """400 ``too_many_items``: an array or object in the body longer than any request needs."""

    default_code = "too_many_items"
    title = gettext_lazy("Too many items")

    def __init__(self, detail: str) -> None:
        super().__init__(detail, code=self.default_code)


class JSONBodyTooLarge(APIException):
    """413 ``body_too_large``: a JSON body over ``API_MAX_JSON_BYTES``; the rest is not read."""

    status_code = HTTPStatus.REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"
    title = gettext_lazy("Body too large")

    def __init__(self, limit: int) -> None:
        super().__init__(
            _("The JSON body is larger than the %(limit)s bytes the API accepts.")
            % {"limit": f"{limit:,}"},
            code=self.default_code,
        )


def json_shape_problem(value: Any, *, max_depth: int, max_items: int) -> ParseError | None:
    """What is wrong with the shape of ``value`` (parsed JSON): a container nested more than
    ``max_depth`` deep (``BodyTooDeep``), or one holding more than ``max_items`` items or
    members (``TooManyItems``, naming where: ``tile``, ``seats.0``); ``None`` if nothing.

    Iterative, so that it cannot itself run out of stack; the items of a container are looked
    at only once its length has passed.
    """
    pending: list[tuple[Any, int, tuple[str, ...]]] = [(value, 1, ())]
    while pending:
        node, depth, path = pending.pop()
        if depth > max_depth:
            return BodyTooDeep(
                _("The JSON body is nested more than %(max_depth)s levels deep.")
                % {"max_depth": max_depth}
            )
        if len(node) > max_items:
            counts = {"count": f"{len(node):,}", "most": f"{max_items:,}"}
            if path:
                counts["where"] = f"`{'.'.join(path)}`"
                template = (
                    _("%(where)s has %(count)s members; at most %(most)s are taken.")
                    if isinstance(node, Mapping)
                    else _("%(where)s has %(count)s items; at most %(most)s are taken.")
                )
            else:
                template = (
                    _("The body has %(count)s members; at most %(most)s are taken.")
                    if isinstance(node, Mapping)
                    else _("The body has %(count)s items; at most %(most)s are taken.")
                )
            return TooManyItems(template % counts)
        children = node.items() if isinstance(node, Mapping) else enumerate(node)
        pending.extend(
            (child, depth + 1, (*path, str(key)))
            for key, child in children
            if isinstance(child, dict | list)
        )
    return None


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` (parsed JSON) has containers nested more than ``limit`` deep."""
    if not isinstance(value, dict | list):
        return False
    problem = json_shape_problem(value, max_depth=limit, max_items=2**62)
    return isinstance(problem, BodyTooDeep)


class DepthLimitedJSONParser(JSONParser):
    """``application/json`` bodies of at most ``API_MAX_JSON_BYTES``, ``API_MAX_JSON_DEPTH``
    containers deep, ``API_MAX_JSON_ITEMS`` items or members in each."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        max_bytes: int = settings.API_MAX_JSON_BYTES
        max_depth: int = settings.API_MAX_JSON_DEPTH
        raw = stream.read(max_bytes + 1) if stream is not None else b""
        if len(raw) > max_bytes:
            raise JSONBodyTooLarge(max_bytes)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(raw, encoding)
            parse_constant = json.strict_constant if api_settings.STRICT_JSON else None
            data = json.loads(text, parse_constant=parse_constant)
        except RecursionError:  # deeper than the decoder's own stack allows
            raise BodyTooDeep(
                _("The JSON body is nested more than %(max_depth)s levels deep.")
                % {"max_depth": max_depth}
            ) from None
        except ValueError as exc:  # UnicodeDecodeError is one
            raise ParseError(_("JSON parse error - %(exc)s") % {"exc": exc}) from None
        if isinstance(data, dict | list):
            problem = json_shape_problem(
                data, max_depth=max_depth, max_items=settings.API_MAX_JSON_ITEMS
            )
            if problem is not None:
                raise problem
        return data
