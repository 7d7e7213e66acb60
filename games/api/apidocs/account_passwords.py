"""The OpenAPI declarations of ``games.api.account_passwords``'s views."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.api.apidocs.players import DEVICE_CREDENTIAL_EXAMPLE
from games.api.common import LOGIN_REFUSED, NOT_AUTHENTICATED, problem, problem_example

_THROTTLED = (
    "Too many requests",
    problem_example(
        429,
        "throttled",
        "Too many requests",
        "Request was throttled. Expected available in 1200 seconds.",
    ),
)
_BUSY = (
    "Busy",
    problem_example(
        429, "busy", "Busy", "The server is checking as many passwords as it can: try again."
    ),
)
_WEAK = (
    "Weak password",
    problem_example(
        400,
        "invalid",
        "Invalid input",
        "new_password: This password is too short. It must contain at least 8 characters.",
        errors={
            "new_password": ["This password is too short. It must contain at least 8 characters."]
        },
    ),
)

PASSWORD_RESET_EXAMPLES = [
    OpenApiExample("By address", value={"email": "ada@example.com"}, request_only=True),
    OpenApiExample("By username", value={"username": "ada"}, request_only=True),
]
PASSWORD_RESET_CONFIRM_EXAMPLES = [
    OpenApiExample(
        "New password",
        value={"uid": "Mw", "token": "cz1k2p-4f0c2b7e9a1d3c5b", "new_password": "a new passphrase"},
        request_only=True,
    )
]
PASSWORD_CHANGE_EXAMPLES = [
    OpenApiExample(
        "Change",
        value={"current_password": "correct horse battery", "new_password": "a new passphrase"},
        request_only=True,
    )
]


def password_reset_responses(output: Any) -> Any:
    return {
        HTTPStatus.ACCEPTED: OpenApiResponse(
            output,
            description="The same answer whether or not an account matches.",
            examples=[
                OpenApiExample(
                    "Asked",
                    value={
                        "detail": "If an account matches and its e-mail address is verified, a "
                        "link to reset its password is on its way there."
                    },
                )
            ],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "Neither or both of `email` and `username`, or an address that is not one.",
            (
                "Neither",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "non_field_errors: Send either `email` or `username`.",
                    errors={"non_field_errors": ["Send either `email` or `username`."]},
                ),
            ),
        ),
        HTTPStatus.TOO_MANY_REQUESTS: problem(
            "Too many reset requests from this address or for this account "
            "(docs/reliability.md); `Retry-After` says how many seconds to wait.",
            _THROTTLED,
        ),
    }


def password_reset_confirm_responses(output: Any) -> Any:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="The new password is set; every token of the account was revoked.",
            examples=[OpenApiExample("Set", value={"revoked": 2})],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A link that does not work (altered, expired or used), or a weak password.",
            (
                "Used or expired",
                problem_example(
                    400,
                    "invalid_link",
                    "Invalid or expired link",
                    "This password-reset link does not work (it has expired, or was used "
                    "already): ask for a new one.",
                ),
            ),
            _WEAK,
        ),
        HTTPStatus.TOO_MANY_REQUESTS: problem(
            "Too many attempts from this address, or the server is hashing as many passwords as "
            "it allows (`busy`); `Retry-After` says how many seconds to wait.",
            _THROTTLED,
            _BUSY,
        ),
    }


def password_change_responses(output: Any) -> Any:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="The new password is set; the caller's other tokens were revoked, this "
            "request's keeps working; every known device was forgotten, and this client was "
            "given a new device credential.",
            examples=[
                OpenApiExample(
                    "Changed",
                    value={"revoked": 1, "device_credential": DEVICE_CREDENTIAL_EXAMPLE},
                )
            ],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "The current password is wrong (counted as a failed log-in), or the new one is weak.",
            (
                "Wrong password",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "current_password: Wrong password.",
                    errors={"current_password": ["Wrong password."]},
                ),
            ),
            _WEAK,
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.TOO_MANY_REQUESTS: LOGIN_REFUSED,
    }
