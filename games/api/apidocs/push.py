"""The OpenAPI declarations of ``games.api.push``'s views: what their ``extend_schema`` calls
name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games.api.common import NOT_AUTHENTICATED, problem, problem_example

_TAGS = ["notifications"]

VAPID_DOCS: dict[str, Any] = {
    "operation_id": "push_vapid_public_key",
    "summary": "The server's VAPID public key (a browser's applicationServerKey)",
    "tags": _TAGS,
}
REGISTER_DOCS: dict[str, Any] = {
    "operation_id": "push_device_register",
    "summary": "Register a device for pushes (a Web Push subscription, an APNs or FCM token)",
    "tags": _TAGS,
    "examples": [
        OpenApiExample(
            "A browser's subscription",
            value={
                "kind": "webpush",
                "endpoint": "https://push.example.net/send/dGhpcyBpcyBhbiBleGFtcGxl",
                "keys": {
                    "p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1"
                    "XbjhazAkj7I99e8QcYP7DkM",
                    "auth": "tBHItJI5svbpez7KI4CCXg",
                },
            },
            request_only=True,
        ),
        OpenApiExample(
            "An iPhone", value={"kind": "apns", "token": "a1b2c3d4e5f6"}, request_only=True
        ),
    ],
}
DELETE_DOCS: dict[str, Any] = {
    "operation_id": "push_device_delete",
    "summary": "Remove one of my push devices",
    "tags": _TAGS,
    "parameters": [
        OpenApiParameter("device_id", int, OpenApiParameter.PATH, description="The device's id.")
    ],
}


def vapid_responses(output: type) -> dict[int, OpenApiResponse]:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="The key (null: this server sends no Web Push).",
            examples=[
                OpenApiExample(
                    "Key",
                    value={
                        "public_key": "BDd3_hVL9fZi9Ybo2UUzA284WG5FZR30_95YeZJsiApwXKpNcF1rRPF3foI"
                        "iBHXRdJI2Qhumhf6_LFTeZaNndIo"
                    },
                )
            ],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


def register_responses(output: type) -> dict[int, OpenApiResponse]:
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            output,
            description="Registered (a token registered before is moved to the caller).",
            examples=[
                OpenApiExample(
                    "Registered",
                    value={"id": 3, "kind": "webpush", "created_at": "2026-12-01T12:00:00Z"},
                )
            ],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A subscription without its endpoint or keys, a token missing, or an endpoint that "
            "is no outside address: not https, an IP address, or a name that does not resolve "
            'to public addresses only (docs/operations.md, "Outside addresses").',
            (
                "No keys",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "keys: This field is required.",
                    errors={"keys": ["This field is required."]},
                ),
            ),
            (
                "An endpoint inside",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "endpoint: push.corp.example does not resolve to public addresses only, as a "
                    "push service's name does.",
                    errors={
                        "endpoint": [
                            "push.corp.example does not resolve to public addresses only, as a "
                            "push service's name does."
                        ]
                    },
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


DELETE_RESPONSES = {
    HTTPStatus.NO_CONTENT: OpenApiResponse(description="The device gets no pushes any more."),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.NOT_FOUND: problem(
        "Not one of the caller's devices.",
        (
            "No such device",
            problem_example(
                404, "push_device_not_found", "No such device", "You have no push device 99."
            ),
        ),
    ),
}
