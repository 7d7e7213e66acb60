"""The OpenAPI declarations of ``scoring.api.leaderboard``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter

from chickenfoot.openapi import NOT_AUTHENTICATED, example_avatars, problem, problem_example
from scoring.api.common import BAD_FILTER, PAGE_NOT_FOUND
from scoring.models import VARIANT_CHOICES

LEADERBOARD_EXAMPLE = {
    "count": 120,
    "next": "http://localhost:8000/api/leaderboards/chickenfoot?page=2",
    "previous": None,
    "results": [
        {
            "rank": 1,
            "player_id": 3,
            "name": "Ada",
            "kind": "human",
            "display": 1920,
            "ordinal": 22.998,
            "mu": 29.31,
            "sigma": 2.104,
            "matches": 42,
            **example_avatars(3),
        }
    ],
}

LEADERBOARD_HEADING = {"summary": "The leaderboard of a variant", "tags": ["history"]}

LEADERBOARD_DESCRIPTION = (
    "Ordered by `ordinal` = mu - 3 sigma (descending), then player id; `display`"
    " = round(1000 + 40 * ordinal), so a new player shows 1000. People only; `bots=true` adds"
    " the bots (one player per level). `player=<id>` answers the page that holds that player"
    " (its `rank` is in their row; the links lead on from there). docs/scoring.md explains."
)


def leaderboard_parameters(leaderboard_query_serializer: Any) -> Any:
    """The parameters of ``LeaderboardApi``, given the view's own serializer."""
    return [
        OpenApiParameter(
            "variant", str, OpenApiParameter.PATH, enum=[v for v, _ in VARIANT_CHOICES]
        ),
        leaderboard_query_serializer,
    ]


def leaderboard_responses(leaderboard_row_serializer: Any) -> Any:
    """The answers of ``LeaderboardApi``, given the view's own serializer."""
    return {
        200: leaderboard_row_serializer(many=True),
        400: BAD_FILTER,
        401: NOT_AUTHENTICATED,
        404: LEADERBOARD_NOT_FOUND,
    }


LEADERBOARD_NOT_FOUND = problem(
    "A page that does not exist (past the last one, or not a page number), or `player` naming "
    "a player this leaderboard does not list.",
    *[(e.name, e.value) for e in PAGE_NOT_FOUND.examples],  # type: ignore[union-attr]
    ("Not on it", problem_example(404, "not_on_leaderboard", "Not on this leaderboard",
                                  "Player 99 is not on this leaderboard.")),
)  # fmt: skip


LEADERBOARD_EXAMPLES = [
    OpenApiExample("The leader", value=LEADERBOARD_EXAMPLE["results"][0], response_only=True)
]
