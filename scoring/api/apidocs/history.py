"""The OpenAPI declarations of ``scoring.api.history``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from chickenfoot.openapi import NOT_AUTHENTICATED, example_avatars
from scoring.api.common import BAD_FILTER, PLAYER_NOT_FOUND, PROFILE_HIDDEN

HISTORY_EXAMPLE = {
    "next": "http://localhost:8000/api/players/3/history?cursor=cD0yMDI2LTExLTMw",
    "previous": None,
    "results": [
        {
            "match_id": 41,
            "variant": "chickenfoot",
            "play": "online",
            "finished_at": "2026-11-30T14:20:11.120000Z",
            "seat": 0,
            "place": 1,
            "total": 37,
            "zero_rounds": 3,
            "lowest_round": 4,
            "rounds_played": 10,
            "decided_by": "total",
            "rating": {"before": 1012, "after": 1031, "delta": 19},
            "unrated_reason": None,
            "seats": [
                {"seat": 0, "player_id": 3, "name": "Ada", "place": 1, "total": 37,
                 "rating": {"before": 1012, "after": 1031, "delta": 19}, **example_avatars(3)},
                {"seat": 1, "player_id": 8, "name": "Grace", "place": 2, "total": 52,
                 "rating": {"before": 1250, "after": 1246, "delta": -4}, **example_avatars(8)},
                {"seat": 2, "player_id": 11, "name": "Shark bot (level 3)", "place": 3,
                 "total": 95, "rating": {"before": 1102, "after": 1090, "delta": -12},
                 **example_avatars(11)},
            ],
        }
    ],
}  # fmt: skip

PLAYER_HISTORY_HEADING = {"summary": "A player's match history", "tags": ["history"]}

PLAYER_HISTORY_DESCRIPTION = (
    "Filters combine. Paged by an opaque cursor (follow `next`): a page stays "
    "the same while new matches finish. A bad filter value or an unknown parameter is a 400."
)


def player_history_responses(history_row_serializer: Any) -> Any:
    """The answers of ``PlayerHistoryApi``, given the view's own serializer."""
    return {
        200: history_row_serializer(many=True),
        400: BAD_FILTER,
        401: NOT_AUTHENTICATED,
        403: PROFILE_HIDDEN,
        404: PLAYER_NOT_FOUND,
    }


PLAYER_HISTORY_EXAMPLES = [
    OpenApiExample("A match", value=HISTORY_EXAMPLE["results"][0], response_only=True)
]
