"""Postprocessing of the OpenAPI schema: problems as ``application/problem+json``, the answers
every operation can get whatever it is (405, 406, 500, 503; 413 and 415 with a body), so that
generated clients know every status the server sends, and operations without authentication
marked as needing none."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

PROBLEM_REF = "#/components/schemas/Problem"
PROBLEM_MEDIA_TYPE = "application/problem+json"

#: Answers any operation may get, by status: (description, example code, title, detail).
_GENERIC: dict[int, tuple[str, str, str, str]] = {
    HTTPStatus.METHOD_NOT_ALLOWED: (
        "The method is not one this path serves; `Allow` lists those that are.",
        "method_not_allowed",
        "Method not allowed",
        'Method "DELETE" not allowed.',
    ),
    HTTPStatus.NOT_ACCEPTABLE: (
        "The `Accept` header asks for something other than JSON.",
        "not_acceptable",
        "Not acceptable",
        "Could not satisfy the request Accept header.",
    ),
    HTTPStatus.INTERNAL_SERVER_ERROR: (
        "An unexpected failure (logged; nothing of its cause is sent).",
        "internal_error",
        "Internal server error",
        "The server failed to complete the request. It has been logged.",
    ),
    HTTPStatus.SERVICE_UNAVAILABLE: (
        "The database cannot be reached; `Retry-After` says when to try again.",
        "database_unavailable",
        "Database unavailable",
        "The database cannot be reached right now; try again in 5 seconds.",
    ),
}
_UNSUPPORTED_MEDIA_TYPE = (
    "The body is not `application/json`.",
    "unsupported_media_type",
    "Unsupported media type",
    'Unsupported media type "text/plain" in request.',
)
_BODY_TOO_LARGE = (
    "The body is over the size limit (1 MiB by default); it was not read.",
    "body_too_large",
    "Body too large",
    "The request body is larger than the 1,048,576 bytes the server accepts.",
)


def _problem_response(status: int, spec: tuple[str, str, str, str]) -> dict[str, Any]:
    description, code, title, detail = spec
    example = {
        "type": "https://chickenfoot.dev/problems/" + code.replace("_", "-"),
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    response: dict[str, Any] = {
        "description": description,
        "content": {
            PROBLEM_MEDIA_TYPE: {
                "schema": {"$ref": PROBLEM_REF},
                "examples": {title.replace(" ", ""): {"value": example}},
            }
        },
    }
    return response


RETRY_AFTER_HEADER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 0},
        "description": "Seconds to wait before trying again.",
    }
}


def _is_problem(media: dict[str, Any]) -> bool:
    schema = media.get("schema", {})
    return schema.get("$ref") == PROBLEM_REF


def _required_fields(schemas: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """The fields a request body's schema requires (its own, or its component's)."""
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        schema = schemas.get(ref.rsplit("/", 1)[1], {})
    return list(schema.get("required", []))


def _plain_union_refs(node: Any, unions: set[str]) -> Any:
    """``allOf: [union]`` (how a described field refers to a component) as a plain reference.

    Generators read ``allOf`` with a discriminated parent as inheritance (openapi-typescript
    omits the discriminator from it); a field that *is* one of the union's members is a
    ``$ref`` (when it may be null, OpenAPI 3.1's ``oneOf: [$ref, {type: "null"}]``).
    """
    if isinstance(node, list):
        return [_plain_union_refs(item, unions) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _plain_union_refs(value, unions) for key, value in node.items()}
    parts = node.get("allOf")
    if isinstance(parts, list) and len(parts) == 1 and parts[0].get("$ref") in unions:
        return node.pop("allOf")[0]
    return node


def _add_field_error_examples(operation: dict[str, Any]) -> None:
    """The examples of several bad fields answered at once (``games.api.error_examples``)."""
    from games.api.error_examples import EXAMPLES  # the services load after the apps

    for (operation_id, status), examples in EXAMPLES.items():
        if operation.get("operationId") != operation_id:
            continue
        media = operation["responses"][str(status)]["content"][PROBLEM_MEDIA_TYPE]
        for name, value in examples:
            media.setdefault("examples", {})[name.replace(" ", "")] = {
                "value": value,
                "summary": name,
            }


def _add_response_headers(operation: dict[str, Any]) -> None:
    """The headers of the answers that set one (``Set-Cookie`` of a device credential)."""
    from games.api.apidocs.players import SET_DEVICE_COOKIE_HEADER

    statuses = {"token_obtain": "200", "player_register": "201", "password_change": "200"}
    status = statuses.get(operation.get("operationId", ""))
    if status is not None:
        response = operation["responses"][status]
        response.setdefault("headers", {}).update(SET_DEVICE_COOKIE_HEADER)


def _one_of(*names: str) -> list[dict[str, Any]]:
    return [{"required": [name]} for name in names]


#: What a request body's serializer checks across its fields (its ``validate``), which the
#: fields' own schemas cannot say: the fields that exclude each other, the ones required together.
#: Not for the bodies the generated clients build as one model (a password reset, an
#: invitation): a ``oneOf`` makes them a union there.
_BODY_RULES: dict[str, dict[str, Any]] = {
    # `ids` or `up_to`, one (games.api.notifications)
    "NotificationsReadRequest": {"oneOf": _one_of("ids", "up_to")},
    # by name (a guest), username or player_id, once (scoring.competitions.entrants)
    "EntrantAddRequest": {"oneOf": _one_of("name", "username", "player_id")},
    # a seat's round: its points or its tiles left, one (games.api.table_scores)
    "SeatScoreRequest": {"oneOf": _one_of("points", "tiles")},
    # the one setting a table match has: a patch without it changes nothing and is refused
    "PatchedTableSettingsRequest": {"required": ["confirmation"]},
}
#: Array fields whose serializer refuses an empty list (a ``many=True`` field's ``min_length``,
#: which drf-spectacular does not carry over).
_NOT_EMPTY: dict[str, list[str]] = {
    "RoundScoresEnterRequest": ["scores"],
    "RoundScoresAmendRequest": ["scores"],
}


def _body_rules(schemas: dict[str, Any]) -> None:
    for name, rule in _BODY_RULES.items():
        schemas[name].update(rule)
    for name, fields in _NOT_EMPTY.items():
        for field in fields:
            schemas[name]["properties"][field]["minItems"] = 1


#: A value with something in it other than spaces, and no NUL (which Django's fields refuse).
NOT_BLANK = r"^[^\u0000]*\S[^\u0000]*$"
#: A string without NUL.
NO_NUL = r"^[^\u0000]*$"


def _query_values_not_blank(operation: dict[str, Any]) -> None:
    """A query parameter given empty (``?cursor=``) or blank is refused (``chickenfoot.query``:
    leave it out to mean any), so a string parameter's schema says it has a value."""
    for parameter in operation.get("parameters", []):
        schema = parameter.get("schema", {})
        if (
            parameter.get("in") == "query"
            and schema.get("type") == "string"
            and not ({"enum", "pattern", "format"} & set(schema))
        ):
            schema.setdefault("minLength", 1)
            schema["pattern"] = NOT_BLANK


def postprocess_problems(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Serve every problem response as ``application/problem+json``; add the generic ones."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if operation.get("security") == [{}]:
                # no authentication at all (register, log in): say "none needed" as an empty
                # list, which generators read as such (an empty requirement reads as "some")
                operation["security"] = []
            responses = operation["responses"]
            for response in responses.values():
                content = response.get("content", {})
                problems = [media for media in content.values() if _is_problem(media)]
                if problems:  # whatever the view renders otherwise (JSON, SVG)
                    response["content"] = {PROBLEM_MEDIA_TYPE: problems[0]}
            _add_field_error_examples(operation)
            _add_response_headers(operation)
            _query_values_not_blank(operation)
            for status, spec in _GENERIC.items():
                responses.setdefault(str(int(status)), _problem_response(status, spec))
            for status in ("429", "503"):  # each says when to ask again
                if status in responses:
                    responses[status].setdefault("headers", {}).update(RETRY_AFTER_HEADER)
            if "requestBody" in operation:
                for status, spec in (
                    (HTTPStatus.UNSUPPORTED_MEDIA_TYPE, _UNSUPPORTED_MEDIA_TYPE),
                    (HTTPStatus.REQUEST_ENTITY_TOO_LARGE, _BODY_TOO_LARGE),
                ):
                    responses.setdefault(str(int(status)), _problem_response(status, spec))
            operation["responses"] = dict(sorted(responses.items()))
    schemas = result.get("components", {}).get("schemas", {})
    _body_rules(schemas)
    unions = {
        "#/components/schemas/" + name for name, schema in schemas.items() if "oneOf" in schema
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body and any(
                media.get("schema", {}).get("$ref") in unions
                for media in body.get("content", {}).values()
            ):
                body["required"] = True  # a union body (the create request) is never optional
            elif body and any(
                _required_fields(schemas, media.get("schema", {}))
                for media in body.get("content", {}).values()
            ):
                body["required"] = True  # a body with fields it needs cannot be left out
            elif body and all(
                media.get("schema", {}).get("format") == "binary"
                for media in body.get("content", {}).values()
            ):
                body["required"] = True  # a file sent as the body (an avatar) is the request
    result["components"]["schemas"] = _plain_union_refs(schemas, unions)
    return result
