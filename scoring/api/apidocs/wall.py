"""The OpenAPI declarations of ``scoring.api.wall``'s views: what their ``extend_schema`` calls
name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.competition_base import NOT_FOUND, NOT_ORGANISER, TOURNAMENT_EXAMPLE

WALL_EXAMPLE: dict[str, Any] = {
    "competition": {
        "id": 3,
        "name": "Spring open",
        "kind": "tournament",
        "variant": "chickenfoot",
        "status": "running",
        "current_stage": 1,
        "stage_count": 3,
        "tie_breaks": ["placement_points", "buchholz", "wins"],
    },
    "final": False,
    "standings": [
        {
            "rank": 1,
            "shared": False,
            "name": "Alan",
            "matches": 1,
            "placement_points": 5.0,
            "total_points": 21,
            "wins": 1,
            "mean_points_per_round": 5.25,
            "rounds_at_zero": 1,
            "best_round": 4,
            "head_to_head": None,
            "buchholz": 2.333,
            "median_buchholz": None,
            "by_stage": [{"stage": 1, "matches": 1, "placement_points": 5.0, "bye": False}],
        },
        {
            "rank": 2,
            "shared": False,
            "name": "Grace",
            "matches": 1,
            "placement_points": 3.0,
            "total_points": 40,
            "wins": 0,
            "mean_points_per_round": 10.0,
            "rounds_at_zero": 0,
            "best_round": 6,
            "head_to_head": None,
            "buchholz": 3.0,
            "median_buchholz": None,
            "by_stage": [{"stage": 1, "matches": 1, "placement_points": 3.0, "bye": False}],
        },
    ],
    "stages": [
        {
            "number": 1,
            "status": "playing",
            "final_table": False,
            "tables": [
                {
                    "table": 1,
                    "status": "finished",
                    "results_in": True,
                    "seats": ["Alan", "Grace", "Edsger", "Barbara"],
                    "rounds": None,
                },
                {
                    "table": 2,
                    "status": "playing",
                    "results_in": False,
                    "seats": ["Ada", "Grandpa Joe", "Donald"],
                    "rounds": {"entered": 3, "total": 9},
                },
            ],
            "byes": [],
            "clock": {
                "state": "running",
                "minutes": 45,
                "started_at": "2025-03-08T19:30:00+00:00",
                "ends_at": "2025-03-08T20:15:00+00:00",
            },
        }
    ],
    "now": "2025-03-08T19:52:14.503000+00:00",
}

WALL_NOT_FOUND = problem(
    "No such competition, or it is not public: a private one is not revealed.",
    (
        "Not public",
        problem_example(
            404, "competition_not_found", "No such competition", "There is no competition 3."
        ),
    ),
)


def wall_responses(public_wall_serializer: Any) -> Any:
    """The answers of ``PublicStandingsApi.get``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            public_wall_serializer,
            description="The wall: names, standings and tables; nothing private.",
            examples=[OpenApiExample("Stage 1 in play", value=WALL_EXAMPLE)],
        ),
        HTTPStatus.NOT_FOUND: WALL_NOT_FOUND,
    }


def publish_responses(competition_serializer: Any, *, public: bool) -> Any:
    """The answers of ``CompetitionPublishApi.post`` and ``CompetitionUnpublishApi.post``."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            competition_serializer,
            description="The competition as it is now.",
            examples=[OpenApiExample("Done", value={**TOURNAMENT_EXAMPLE, "public": public})],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }


PUBLISH_HEADING: dict[str, Any] = {
    "summary": "Make a competition's wall public",
    "description": "The organiser publishes the competition: its standings and tables are "
    "then readable without a token (GET /api/public/competitions/{id}/standings, the page "
    "/events/{id}/ and its socket). Publishing a public competition changes nothing.",
    "tags": ["competitions"],
}
UNPUBLISH_HEADING: dict[str, Any] = {
    "summary": "Make a competition's wall private again",
    "description": "The organiser takes the wall down: its public reads answer 404 again and "
    "its sockets are refused (4404).",
    "tags": ["competitions"],
}
WALL_HEADING: dict[str, Any] = {
    "summary": "A public competition's wall",
    "description": "Readable without a token for a competition its organiser made public; "
    "404 for any other, as for none. Names as shown, standings, and the stages' tables "
    "(for a match scored at a table, its rounds entered of its total).",
    "tags": ["competitions"],
    "auth": [],
}
