"""The OpenAPI declarations of ``games.api.players``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
)

from chickenfoot.openapi import TOKEN_OBTAIN_REFUSED
from games.accounts.devices import COOKIE, COOKIE_ACCOUNTS, COOKIE_PATH
from games.api.common import (
    LOGIN_REFUSED,
    NOT_AUTHENTICATED,
    REGISTER_REFUSED,
    problem,
    problem_example,
)

PLAYER_EXAMPLE = {"id": 3, "name": "Ada", "kind": "human", "is_organiser": False}

PLAYER_REGISTER_EXAMPLES = [
    OpenApiExample(
        "Register",
        value={
            "username": "ada",
            "password": "correct horse battery",
            "display_name": "Ada",
        },
        request_only=True,
    )
]


#: A device credential, as the server gives them (signed; opaque to the client).
DEVICE_CREDENTIAL_EXAMPLE = "WzQxLDNd:1xa15P:TDJvKIWcyv54LAh_fA1oWSmgwceDdrEyKdu2KntDXwM"

DEVICE_CREDENTIAL_HELP = (
    "This client's device credential for the account (docs/reliability.md#known-devices): "
    "store it, and send it back as `device_credential` with the next log-in to "
    "this account, which then counts as a known device's: it is not refused by the account's "
    "lockout, and during a flood of log-ins it is checked from a reserved share of the "
    "server's password hashing. A new one comes with each log-in (keep the newest). It is "
    "opaque, signed, and lasts `LOGIN_KNOWN_DEVICE_DAYS` (90 days by default); a password "
    "change or reset, or deleting the account, revokes it. The web's log-in also gets it as "
    f"the HttpOnly cookie `{COOKIE}`. Null when the server gives none "
    "(`LOGIN_KNOWN_DEVICE_DAYS=0`)."
)
DEVICE_CREDENTIAL_INPUT_HELP = (
    "The device credential the last log-in (or registration) to this account gave this client, "
    "if it kept one (an app sends it here; a browser's cookie is read when this is absent). A "
    "credential that is not valid for the account named (expired, revoked, another account's, "
    "altered) is no error: the log-in goes on as an unknown client's."
)
DEVICE_COOKIE_PARAMETER = OpenApiParameter(
    COOKIE,
    str,
    OpenApiParameter.COOKIE,
    required=False,
    description=(
        f"The web's device credentials (HttpOnly, `Path={COOKIE_PATH}`, `SameSite=Strict`), set "
        "by the answers of registering and logging in: those of the last "
        f"{COOKIE_ACCOUNTS} accounts that logged in from the browser, newest first, separated "
        "by `.`. Read only when the body has no `device_credential`."
    ),
)
#: The ``Set-Cookie`` of the answers that give a device credential (the schema's hook adds it).
SET_DEVICE_COOKIE_HEADER = {
    "Set-Cookie": {
        "schema": {"type": "string"},
        "description": (
            f"`{COOKIE}=<credentials>; HttpOnly; Path={COOKIE_PATH}; SameSite=Strict; "
            "Max-Age=<LOGIN_KNOWN_DEVICE_DAYS in seconds>` (and `Secure` in production): the "
            "web's copy of `device_credential`, before those the browser holds of other accounts."
        ),
    }
}

TOKEN_EXAMPLE = {
    "player": PLAYER_EXAMPLE,
    "token": "4f1c3e0a9b7d52e8c6a1f0d3b2e9c8a7d6f5e4c3b2a1908f7e6d5c4b3a291807",
    "token_id": 12,
    "expiry": "2027-01-01T12:00:00Z",
    "device_credential": DEVICE_CREDENTIAL_EXAMPLE,
}


def player_register_responses(player_token_output_serializer: Any) -> Any:
    """The answers of ``PlayerRegisterApi``, given the view's own serializer."""
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            player_token_output_serializer,
            description="The player and their token.",
            examples=[OpenApiExample("Registered", value=TOKEN_EXAMPLE)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "Bad input: a username or display name too long or not allowed, a display name "
            "that passes for a bot's, or a weak password (each under its field).",
            (
                "Looks like a bot",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "display_name: 'Shark bot (level 3)' looks like a bot's name (bots are "
                    "'Rookie bot (level 1)', 'Greedy bot (level 2)', 'Shark bot (level 3)', "
                    "'Strong bot (level 4)'): choose another display name.",
                    errors={
                        "display_name": [
                            "'Shark bot (level 3)' looks like a bot's name (bots are "
                            "'Rookie bot (level 1)', 'Greedy bot (level 2)', 'Shark bot "
                            "(level 3)', 'Strong bot (level 4)'): choose another display name."
                        ]
                    },
                ),
            ),
            (
                "Username too long",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "username: Ensure this field has no more than 64 characters.",
                    errors={"username": ["Ensure this field has no more than 64 characters."]},
                ),
            ),
            (
                "Weak password",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "This password is too short. It must contain at least 8 characters.",
                    errors={
                        "password": [
                            "This password is too short. It must contain at least 8 characters."
                        ]
                    },
                ),
            ),
        ),
        HTTPStatus.CONFLICT: problem(
            "The username is taken.",
            (
                "Taken",
                problem_example(
                    409, "username_taken", "Username taken", "The username 'ada' is taken."
                ),
            ),
        ),
        HTTPStatus.TOO_MANY_REQUESTS: REGISTER_REFUSED,
    }


TOKEN_OBTAIN_EXAMPLES = [
    OpenApiExample(
        "Log in",
        value={
            "username": "ada",
            "password": "correct horse battery",
            "device": "Ada's phone",
        },
        request_only=True,
    ),
    OpenApiExample(
        "Log in from a known device",
        description="With the device credential the last log-in gave this app.",
        value={
            "username": "ada",
            "password": "correct horse battery",
            "device": "Ada's phone",
            "device_credential": DEVICE_CREDENTIAL_EXAMPLE,
        },
        request_only=True,
    ),
]


def token_obtain_responses(player_token_output_serializer: Any) -> Any:
    """The answers of ``TokenObtainApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            player_token_output_serializer,
            description="The player and their token.",
            examples=[OpenApiExample("Logged in", value=TOKEN_EXAMPLE)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A field missing or of the wrong type.",
            (
                "No password",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "password: This field is required.",
                    errors={"password": ["This field is required."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: problem(
            "Wrong username or password.",
            (
                "Wrong password",
                problem_example(
                    401,
                    "invalid_credentials",
                    "Invalid credentials",
                    "Wrong username or password.",
                ),
            ),
        ),
        HTTPStatus.TOO_MANY_REQUESTS: TOKEN_OBTAIN_REFUSED,
    }


PLAYER_ME_EXAMPLE = {
    **PLAYER_EXAMPLE,
    "language": "lo",
    "profile_visibility": "everyone",
    "time_zone": "Asia/Vientiane",
    "quiet_hours": {"start": "22:00", "end": "07:00"},
}

PLAYER_ME_UPDATE_EXAMPLES = [
    OpenApiExample("Choose Lao", value={"language": "lo"}, request_only=True),
    OpenApiExample("No choice", value={"language": ""}, request_only=True),
    OpenApiExample("Hide my profile", value={"profile_visibility": "nobody"}, request_only=True),
    OpenApiExample(
        "Quiet at night in Vientiane",
        value={"time_zone": "Asia/Vientiane", "quiet_hours": {"start": "22:00", "end": "07:00"}},
        request_only=True,
    ),
    OpenApiExample("No quiet hours", value={"quiet_hours": None}, request_only=True),
]

LANGUAGE_REFUSED = (
    "Not a language of this service: send one of en, lo, th, hy, ceb, or an empty string."
)


def player_me_responses(player_output_serializer: Any) -> Any:
    """The answers of ``PlayerMeApi``'s GET, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            player_output_serializer,
            description="The caller's player.",
            examples=[OpenApiExample("Me", value=PLAYER_ME_EXAMPLE)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


def player_me_update_responses(player_output_serializer: Any) -> Any:
    """The answers of ``PlayerMeApi``'s PATCH: the player as changed, or the refusal."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            player_output_serializer,
            description="The caller's player, changed; the answer is in the language chosen.",
            examples=[OpenApiExample("Me in Lao", value=PLAYER_ME_EXAMPLE)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A language that is not one of the service's; a time zone the server does not know; "
            "a quiet hour that is not `HH:MM`.",
            (
                "Unknown language",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    f"language: {LANGUAGE_REFUSED}",
                    errors={"language": [LANGUAGE_REFUSED]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }


REGISTER_EMAIL_HELP = (
    "An e-mail address (optional): a verification mail goes to it; once verified it can "
    "receive password-reset links. 409 `email_taken` if another account verified it."
)

PLAYER_DELETE_EXAMPLES = [
    OpenApiExample("Delete", value={"password": "correct horse battery"}, request_only=True)
]

PLAYER_DELETE_RESPONSES = {
    HTTPStatus.NO_CONTENT: OpenApiResponse(
        description="The account is gone: it cannot log in, its tokens no longer work, its "
        "username is free; its results stay under the name 'Deleted player <id>'."
    ),
    HTTPStatus.BAD_REQUEST: problem(
        "The password is wrong (counted as a failed log-in) or missing.",
        (
            "Wrong password",
            problem_example(
                400,
                "invalid",
                "Invalid input",
                "password: Wrong password.",
                errors={"password": ["Wrong password."]},
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.CONFLICT: problem(
        "The caller organises a competition that has not finished.",
        (
            "Organising",
            problem_example(
                409,
                "still_organising",
                "Still organising",
                "You organise competitions that have not finished (ids 5): finish them before "
                "deleting your account.",
                competitions=[5],
            ),
        ),
    ),
    HTTPStatus.TOO_MANY_REQUESTS: LOGIN_REFUSED,
}

#: Log-in's operation: its name, summary, device cookie and examples.
TOKEN_OBTAIN: dict[str, Any] = {
    "operation_id": "token_obtain",
    "summary": "Log in (get a token for this device)",
    "tags": ["accounts"],
    "parameters": [DEVICE_COOKIE_PARAMETER],
    "examples": TOKEN_OBTAIN_EXAMPLES,
}
