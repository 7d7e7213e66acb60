"""Check real answers (and the schema's own examples) against the OpenAPI schema.

The schema is OpenAPI 3.1, whose schemas are JSON Schema draft 2020-12: a value that may be null
says so (``type: [X, "null"]`` or a ``{type: "null"}`` alternative), and a null anywhere else is
refused. Two validators check: openapi-core's (the request and the answer as a client sees them,
with their parameters, media types and headers) and, for bodies, the same JSON Schema with every
object with ``properties`` closed (``additionalProperties: false``), so that an answer with a
field the schema does not declare fails as surely as one missing a required field.
"""

from __future__ import annotations

import copy
import functools
import json
from http import HTTPStatus
from typing import Any

from django.core.exceptions import DisallowedHost, RequestDataTooBig
from django.http.request import RawPostDataException
from drf_spectacular.generators import SchemaGenerator
from openapi_core import Config, OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse
from openapi_core.exceptions import OpenAPIError
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_schema_validator import OAS31Validator


@functools.cache
def openapi() -> dict[str, Any]:
    """The schema the server serves at /api/schema/."""
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def _strict(node: Any) -> Any:
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _strict(value) for key, value in node.items() if key not in ("example",)}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


@functools.cache
def _components() -> dict[str, Any]:
    return {"schemas": _strict(openapi()["components"]["schemas"])}


def validate(schema: dict[str, Any], value: Any) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``value`` fits ``schema`` (refs resolved,
    objects closed, formats checked), as openapi-core's OpenAPI 3.1 validator reads it."""
    root = {**_strict(schema), "components": _components()}
    OAS31Validator(root, format_checker=OAS31Validator.FORMAT_CHECKER).validate(value)


def _text(data: bytes | str, charset: str = "utf-8", **parameters: str) -> str:
    return data.decode(charset) if isinstance(data, bytes) else data


def _octets(data: bytes | str, **parameters: str) -> str:
    """A binary file (a PDF) as the string of its bytes, as JSON Schema reads one."""
    return data.decode("latin-1") if isinstance(data, bytes) else data


def without_304_content(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with no content under a 304: a 304 never has a body (RFC 9110, 15.4.5), and
    the content a 304 declares (an empty text for a JSON answer's, the picture for a picture's)
    only types it for a generated client."""
    out = copy.deepcopy(schema)
    for operations in out["paths"].values():
        for op in operations.values():
            if isinstance(op, dict):
                op.get("responses", {}).get("304", {}).pop("content", None)
    return out


@functools.cache
def spec() -> OpenAPI:
    """openapi-core's reading of the schema; problems are JSON (``application/problem+json``),
    a CSV is text (a string, UTF-8), a 304 has no body (``without_304_content``)."""
    config = Config(
        extra_media_type_deserializers={
            "application/problem+json": json.loads,
            "text/csv": _text,
            "image/svg+xml": _text,
            "application/pdf": _octets,
        }
    )
    return OpenAPI.from_dict(without_304_content(openapi()), config=config)


class _SentRequest(DjangoOpenAPIRequest):
    """The request as openapi-core reads it, ``Authorization: Token <key>`` read as the
    ``Bearer <key>`` the schema declares (the server takes both; HTTP authentication in OpenAPI
    names one scheme)."""

    def __init__(self, request: Any) -> None:
        super().__init__(request)
        headers = self.parameters.header
        scheme, _, key = headers.get("Authorization", "").partition(" ")
        if scheme == "Token":
            headers["Authorization"] = f"Bearer {key}"

    @property
    def host_url(self) -> str:
        """The test client's host (the schema names no server; a request a test sent with
        another ``Host`` to see it refused is still checked)."""
        return "http://testserver"

    @property
    def body_readable(self) -> bool:
        """The body can be read again: not over the size limit, not read as a stream by the
        view (a CSV file of entrants)."""
        try:
            self.request.body  # noqa: B018 - reading it is the question
        except (RequestDataTooBig, RawPostDataException):
            return False
        return True

    @property
    def body(self) -> bytes:
        """The body sent, or none when it cannot be read again (``body_readable``)."""
        return bytes(self.request.body) if self.body_readable else b""


def check_exchange(response: Any) -> None:
    """openapi-core accepts the answer, and the request too when it was served (below 400).

    ``response`` is the Django test client's: its ``wsgi_request`` is the request it sent. A 405
    answers a method the path has no operation for: there is nothing for openapi-core to find
    (``check_response`` checks it against the path's declared 405).
    """
    if response.status_code == HTTPStatus.METHOD_NOT_ALLOWED:
        return
    request = _SentRequest(response.wsgi_request)
    if response.status_code < HTTPStatus.BAD_REQUEST and request.body_readable:
        spec().validate_request(request)
    spec().validate_response(request, DjangoOpenAPIResponse(response))


def operation(path: str, method: str) -> dict[str, Any]:
    op: dict[str, Any] = openapi()["paths"][path][method.lower()]
    return op


def check_response(response: Any, path: str, method: str) -> None:
    """``response`` is declared for ``method path`` with its status, media type and schema."""
    responses = operation(path, method)["responses"]
    status = str(response.status_code)
    assert status in responses, f"{method} {path} answered {status}, not in {sorted(responses)}"
    declared = responses[status]
    content = declared.get("content")
    if not response.content:
        assert not content or status == "304", (
            f"{method} {path} {status}: the schema promises a body"
        )
        check_exchange(response)
        return
    assert content, f"{method} {path} {status}: a body the schema does not declare"
    media_type = response["Content-Type"].split(";")[0]
    assert media_type in content, f"{method} {path} {status}: {media_type} not in {list(content)}"
    if media_type.endswith("json"):
        validate(content[media_type]["schema"], response.json())
    check_exchange(response)


def all_examples() -> list[tuple[str, Any, dict[str, Any]]]:
    """Every example in the schema: (where, value, the schema it illustrates)."""
    out = []
    for path, operations in openapi()["paths"].items():
        for method, op in operations.items():
            if not isinstance(op, dict):
                continue
            bodies = [("request", op.get("requestBody", {}).get("content", {}))]
            bodies += [(status, r.get("content", {})) for status, r in op["responses"].items()]
            for where, content in bodies:
                for media_type, media in content.items():
                    for name, example in media.get("examples", {}).items():
                        label = f"{method.upper()} {path} {where} {media_type} {name}"
                        out.append((label, example["value"], media["schema"]))
    return out


def _sent_to_https(response: Any) -> bool:
    """Production's redirect of plain HTTP to HTTPS (``SECURE_SSL_REDIRECT``), before any
    operation."""
    return bool(
        response.status_code == HTTPStatus.MOVED_PERMANENTLY
        and not response.wsgi_request.is_secure()
        and response.get("Location", "").startswith("https://")
    )


def answer_fits_the_schema(response: Any) -> None:
    """An answer of an ``/api/`` operation is as the schema declares it (``check_exchange``).

    Not checked: answers outside ``/api/`` (pages, the schema itself), those to a path the schema
    has no operation for (a 404 of an unknown path, the docs' page), and what the server answers
    before any operation: the 400 of a host it does not serve, the redirect of plain HTTP."""
    path = response.wsgi_request.path
    if not path.startswith("/api/") or path.startswith("/api/schema"):
        return
    try:
        response.wsgi_request.get_host()
    except DisallowedHost:
        return  # refused before any operation: a Host the server does not serve (400)
    if _sent_to_https(response):
        return
    try:
        check_exchange(response)
    except (PathNotFound, OperationNotFound):
        return  # no operation of the schema (a 404 of an unknown path, the docs' page)
    except OpenAPIError as error:
        cause = error.__cause__ or error
        details = getattr(cause, "schema_errors", None) or ()
        reasons = "; ".join(str(detail.message) for detail in details) or str(cause)
        method = response.wsgi_request.method
        code = ""
        if response.get("Content-Type", "").startswith("application/problem+json"):
            code = f" ({response.json().get('code')})"
        raise AssertionError(
            f"{method} {path} answered {response.status_code}{code}, not as the schema says: "
            f"{reasons}"
        ) from error
