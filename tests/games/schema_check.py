"""Check real answers (and the schema's own examples) against the OpenAPI schema.

The schema is OpenAPI 3.0; its JSON Schema dialect differs from draft 2020-12 in ``nullable``,
which is rewritten here. Every object with ``properties`` is also closed
(``additionalProperties: false``) for the check, so an answer with a field the schema does not
declare fails as surely as one missing a required field.
"""

from __future__ import annotations

import functools
from typing import Any

from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator


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
    if out.pop("nullable", False):
        return {"anyOf": [out, {"type": "null"}]}
    return out


@functools.cache
def _components() -> dict[str, Any]:
    return {"schemas": _strict(openapi()["components"]["schemas"])}


def validate(schema: dict[str, Any], value: Any) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``value`` fits ``schema`` (refs resolved)."""
    root = {**_strict(schema), "components": _components()}
    Draft202012Validator(root).validate(value)


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
        assert not content, f"{method} {path} {status}: the schema promises a body"
        return
    assert content, f"{method} {path} {status}: a body the schema does not declare"
    media_type = response["Content-Type"].split(";")[0]
    assert media_type in content, f"{method} {path} {status}: {media_type} not in {list(content)}"
    if media_type.endswith("json"):
        validate(content[media_type]["schema"], response.json())


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
