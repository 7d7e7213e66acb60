"""The OpenAPI declarations of ``games.api.profiles``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from chickenfoot.openapi import (
    NOT_AUTHENTICATED,
    TOO_MANY_REQUESTS,
    example_avatars,
    problem,
    problem_example,
)
from scoring.api.common import PAGE_NOT_FOUND, PLAYER_NOT_FOUND

#: A search term as the server counts it: at least 3 characters once the spaces around it are
#: trimmed (a first and a last that are not spaces, something between), and no NUL.
SEARCH_PATTERN = r"^\s*[^\s\u0000][^\u0000]+[^\s\u0000]\s*$"

#: A profile's avatar: one uploaded, and (a hidden profile's) the initials.
AVATARS = {
    "avatar_url": "https://chickenfoot.example/api/avatars/" + "9f86d081" * 8 + ".webp",
    "avatar_small_url": "https://chickenfoot.example/api/avatars/" + "60303ae2" * 8 + ".webp",
}
_INITIALS = "https://chickenfoot.example/api/players/8/avatar/" + "2c26b46b" * 8 + ".svg"
HIDDEN_AVATARS = {"avatar_url": _INITIALS, "avatar_small_url": _INITIALS}

PLAYER_ID = OpenApiParameter("player_id", int, OpenApiParameter.PATH, description="A player id.")

HIDDEN_HELP = (
    "True when the player's profile is not shown to the caller: then only `id`, `name`, `kind`, "
    "the avatar's URLs and how the caller stands with them (`friend`, `friend_request`, "
    "`blocked`) are given, and `joined`, `ratings`, `statistics` and `recent_results` are null. "
    "A player always sees their own profile whole."
)
FRIEND_REQUEST_HELP = (
    "The friend request pending between the caller and the player, either way; null when there "
    'is none (docs/api.md, "Friends and blocks").'
)
BLOCKED_HELP = (
    "The caller blocked the player (`POST /api/players/{player_id}/block`). Whether the player "
    "blocked the caller is theirs: never shown."
)
RANK_HELP = (
    "The place on the variant's leaderboard (`GET /api/leaderboards/{variant}`, as it ranks: "
    "1 = best, equal ratings share a rank; a bot among the bots); null when the player is not on "
    "it."
)

RECENT_RESULT_EXAMPLE = {
    "match_id": 41,
    "variant": "chickenfoot",
    "play": "online",
    "finished_at": "2026-05-02T18:40:11Z",
    "seat": 0,
    "place": 1,
    "total": 23,
    "zero_rounds": 3,
    "lowest_round": 2,
    "rounds_played": 10,
    "decided_by": "total",
    "rating": {"before": 1184, "after": 1203, "delta": 19},
    "unrated_reason": None,
    "seats": [
        {
            "seat": 0,
            "player_id": 3,
            "name": "Ada",
            "place": 1,
            "total": 23,
            "rating": {"before": 1184, "after": 1203, "delta": 19},
            **AVATARS,
        },
        {
            "seat": 1,
            "player_id": 8,
            "name": "Grace",
            "place": 2,
            "total": 57,
            "rating": {"before": 1250, "after": 1231, "delta": -19},
            **example_avatars(8),
        },
    ],
}
PROFILE_EXAMPLE = {
    "id": 3,
    "name": "Ada",
    "kind": "human",
    **AVATARS,
    "hidden": False,
    "friend": True,
    "friend_request": None,
    "blocked": False,
    "joined": "2026-01-12T09:30:00Z",
    "ratings": [
        {"variant": "chickenfoot", "display": 1203, "ordinal": 5.075, "matches": 42, "rank": 7}
    ],
    "statistics": {"matches": 42, "wins": 13, "rounds_at_zero": 97, "best_round": 1},
    "recent_results": [RECENT_RESULT_EXAMPLE],
}
HIDDEN_PROFILE_EXAMPLE = {
    "id": 8,
    "name": "Grace",
    "kind": "human",
    **HIDDEN_AVATARS,
    "hidden": True,
    "friend": False,
    "friend_request": {"id": 12, "direction": "outgoing"},
    "blocked": False,
    "joined": None,
    "ratings": None,
    "statistics": None,
    "recent_results": None,
}


def player_profile_responses(profile_serializer: Any) -> Any:
    """The answers of ``PlayerProfileApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            profile_serializer,
            description="The player as the caller may see them.",
            examples=[
                OpenApiExample("A profile", value=PROFILE_EXAMPLE),
                OpenApiExample("A hidden profile", value=HIDDEN_PROFILE_EXAMPLE),
            ],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: PLAYER_NOT_FOUND,
    }


SEARCH_HELP = (
    "At least 3 characters (spaces around it not counted), at most 64: the start of a "
    "username or of a display name, without regard to case."
)
SEARCH_TOO_SHORT = "Ensure this field has at least 3 characters."
SEARCH_ROW_EXAMPLE = {"id": 3, "name": "Ada", "kind": "human", **AVATARS}
PLAYER_SEARCH_HEADING = {
    "summary": "Find a player to invite",
    "tags": ["accounts"],
    "description": (
        "People with an account whose username or display name starts with `search` (without "
        "regard to case), by display name, in pages: the caller, guests, bots (a seat asks for "
        "a bot by its level) and deleted accounts are never listed. The answer names no "
        "username: only the id (to invite: `POST /api/matches/{match_id}/invitations`), the "
        "display name and the avatar. Limited per player (`THROTTLE_PLAYER_SEARCH`, 60 a "
        "minute by default: 429 `throttled`)."
    ),
}


def player_search_responses(row_serializer: Any) -> Any:
    """The answers of the search, given the view's own serializer of a row."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            row_serializer(many=True),
            description="A page of the players found.",
            examples=[OpenApiExample("One found", value=SEARCH_ROW_EXAMPLE)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "`search` missing, empty, shorter than 3 characters or longer than 64, or an "
            "unknown query parameter.",
            (
                "Too short",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    f"search: {SEARCH_TOO_SHORT}",
                    errors={"search": [SEARCH_TOO_SHORT]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
        HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
    }
