"""The OpenAPI declarations of ``scoring.api.ratings``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from chickenfoot.openapi import NOT_AUTHENTICATED
from scoring.api.common import BAD_FILTER, PLAYER_NOT_FOUND, PROFILE_HIDDEN

RATINGS_EXAMPLE = {
    "next": "http://localhost:8000/api/players/3/ratings?variant=chickenfoot&cursor=cD0xMjA",
    "previous": None,
    "results": [
        {
            "match_id": 41,
            "rated_at": "2026-11-30T14:20:11.480000Z",
            "before": 1012,
            "after": 1031,
            "delta": 19,
            "mu": 27.412,
            "sigma": 6.34,
            "ordinal": 8.392,
        }
    ],
}

PLAYER_RATINGS_HEADING = {"summary": "A player's rating changes", "tags": ["history"]}

PLAYER_RATINGS_DESCRIPTION = (
    "What each rated match of one game did to the player's rating, newest first: `before`, "
    "`after` and `delta` on the leaderboards' scale (`display` = round(1000 + 40 * ordinal)), "
    "and openskill's values after it. Paged by an opaque cursor (follow `next`): a page stays "
    "the same while later matches are rated. The same figures as `rating.svg` draws."
)


def player_ratings_responses(rating_change_serializer: Any) -> Any:
    """The answers of ``PlayerRatingsApi``, given the view's own serializer."""
    return {
        200: rating_change_serializer(many=True),
        400: BAD_FILTER,
        401: NOT_AUTHENTICATED,
        403: PROFILE_HIDDEN,
        404: PLAYER_NOT_FOUND,
    }


PLAYER_RATINGS_EXAMPLES = [
    OpenApiExample("A rated match", value=RATINGS_EXAMPLE["results"][0], response_only=True)
]
