"""The OpenAPI declarations of ``games.api.players``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
)

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


TOKEN_EXAMPLE = {
    "player": PLAYER_EXAMPLE,
    "token": "4f1c3e0a9b7d52e8c6a1f0d3b2e9c8a7d6f5e4c3b2a1908f7e6d5c4b3a291807",
    "token_id": 12,
    "expiry": "2027-01-01T12:00:00Z",
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
    )
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
        HTTPStatus.TOO_MANY_REQUESTS: LOGIN_REFUSED,
    }


PLAYER_ME_EXAMPLE = {**PLAYER_EXAMPLE, "language": "lo"}

PLAYER_ME_UPDATE_EXAMPLES = [
    OpenApiExample("Choose Lao", value={"language": "lo"}, request_only=True),
    OpenApiExample("No choice", value={"language": ""}, request_only=True),
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
            "A language that is not one of the service's.",
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
