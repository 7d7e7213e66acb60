"""The OpenAPI declarations of ``games.api.account_email``'s views."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.api.common import NOT_AUTHENTICATED, TOO_MANY_REQUESTS, problem, problem_example

EMAIL_HELP = (
    "The address to verify (up to 254 characters); empty removes the account's address. A "
    "verification mail goes to it, with a link that works for `EMAIL_VERIFY_HOURS` (48)."
)
TOKEN_HELP = "The `token` of the link in the verification mail."

UNVERIFIED = {
    "email": "ada@example.com",
    "verified": False,
    "verified_at": None,
    "verification_sent": True,
}
VERIFIED = {
    "email": "ada@example.com",
    "verified": True,
    "verified_at": "2026-12-01T12:05:00Z",
    "verification_sent": False,
}
TAKEN = problem(
    "Another account has verified this address.",
    (
        "Taken",
        problem_example(
            409,
            "email_taken",
            "E-mail address taken",
            "Another account has verified the address 'ada@example.com'.",
        ),
    ),
)
BAD_EMAIL = problem(
    "Not an e-mail address.",
    (
        "Not an address",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "email: Enter a valid email address.",
            errors={"email": ["Enter a valid email address."]},
        ),
    ),
)

EMAIL_SET_EXAMPLES = [
    OpenApiExample("Set", value={"email": "ada@example.com"}, request_only=True),
]
EMAIL_VERIFY_EXAMPLES = [
    OpenApiExample(
        "Verify",
        value={"token": "eyJwIjozLCJlIjoiYWRhQGV4YW1wbGUuY29tIn0:1vQ2xY:9oV1fK0b8nH2yXz"},
        request_only=True,
    ),
]


def email_read_responses(output: Any) -> Any:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="The caller's address.",
            examples=[OpenApiExample("Verified", value=VERIFIED)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


def email_set_responses(output: Any) -> Any:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="The address, unverified; a verification mail is on its way to it.",
            examples=[OpenApiExample("Mail sent", value=UNVERIFIED)],
        ),
        HTTPStatus.BAD_REQUEST: BAD_EMAIL,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.CONFLICT: TAKEN,
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
    }


def email_verify_responses(output: Any) -> Any:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="The address, verified.",
            examples=[OpenApiExample("Verified", value=VERIFIED)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A token that is not for the caller's current address, altered, or expired.",
            (
                "Expired",
                problem_example(
                    400,
                    "invalid_link",
                    "Invalid or expired link",
                    "This verification link has expired: set the address again for a new one.",
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.CONFLICT: TAKEN,
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
    }
