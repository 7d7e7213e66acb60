"""The OpenAPI declarations of ``scoring.api.standings``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.common import BAD_FILTER
from scoring.api.competition_base import (
    COMPETITION_ID,
    DIVISION,
    NOT_FOUND,
    NOT_FOUND_OR_DIVISION,
    NOT_ORGANISER,
)
from scoring.competitions.standings import COLUMNS

STAGE_EXAMPLE = {
    "number": 1,
    "status": "playing",
    "started_at": "2025-03-08T09:00:00Z",
    "finished_at": None,
    "version": 0,
    "seating_reopened_at": None,
    "pairing_stale": None,
    "final_table": False,
    "tables": [
        {
            "table": 1,
            "match_id": 41,
            "match_status": "playing",
            "results_in": False,
            "locked": False,
            "seats": [
                {"position": 0, "player_id": 5, "name": "Alan", "bot": False},
                {"position": 1, "player_id": 2, "name": "Grace", "bot": False},
                {"position": 2, "player_id": 77, "name": "Greedy bot (level 2)", "bot": True},
                {"position": 3, "player_id": 9, "name": "Edsger", "bot": False},
            ],
        }
    ],
    "byes": [],
}

CSV_EXAMPLE = (
    ",".join([*COLUMNS, "stage_1", "stage_2", "stage_3"])
    + "\r\n1,false,true,5,Alan,3,2,13.0,61,12,5.083,5,2,0,1093,0,5.0,3.0,5.0\r\n"
    + "2,true,true,2,Grace,2,1,11.0,40,8,5.0,3,2,0,1060,1,5.0,3.0,3.0\r\n"
    + "2,true,true,9,Edsger,2,1,11.0,44,8,5.5,2,3,0,1041,0,5.0,6.0,\r\n"
)


def stage_list_get_responses(competition_stage_list_serializer: Any) -> Any:
    """The answers of ``StageListApi.get``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            competition_stage_list_serializer,
            description="Every stage started so far.",
            examples=[OpenApiExample("Stage 1", value={"stages": [STAGE_EXAMPLE]})],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }


STAGE_LIST_POST_HEADING = {"summary": "Start the next stage (organiser)", "tags": ["competitions"]}


def stage_list_post_responses(competition_stage_serializer: Any) -> Any:
    """The answers of ``StageListApi.post``, given the view's own serializer."""
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            competition_stage_serializer,
            description="The stage, its tables seated and their matches started.",
            examples=[OpenApiExample("Started", value=STAGE_EXAMPLE)],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "No stage number.",
            (
                "No number",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "number: This field is required.",
                    errors={"number": ["This field is required."]},
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "Not the next stage, the previous one still playing, registration still open, "
            "too few players, or a league.",
            (
                "Still playing",
                problem_example(
                    409,
                    "wrong_stage",
                    "Wrong stage",
                    "Stage 1 of tournament 3 is still playing.",
                    next_stage=2,
                ),
            ),
            (
                "Registration open",
                problem_example(
                    409,
                    "competition_status",
                    "Not now",
                    "Tournament 3 is registering: close registration first.",
                ),
            ),
        ),
    }


#: ``?format=csv`` (links made before the CSV was an operation of its own) is sent on to it.
STANDINGS_PARAMETERS = [
    COMPETITION_ID,
    DIVISION,
    OpenApiParameter(
        "format",
        str,
        OpenApiParameter.QUERY,
        enum=["json", "csv"],
        deprecated=True,
        description="Deprecated: `csv` answers 308 to `standings.csv`, the CSV's own "
        "operation (ask for that instead; `Accept: text/csv` is sent on likewise); `json` is "
        "this operation's answer, as without it.",
    ),
    OpenApiParameter(
        "Location",
        str,
        OpenApiParameter.HEADER,
        required=True,
        response=[308],
        description="`/api/competitions/{id}/standings.csv`.",
    ),
]
STANDINGS_CSV_PARAMETERS = [COMPETITION_ID, DIVISION]


STANDING_EXAMPLE = {
    "rank": 1,
    "shared": False,
    "ranked": True,
    "player_id": 5,
    "name": "Alan",
    "matches": 3,
    "wins": 2,
    "placement_points": 13.0,
    "total_points": 61,
    "rounds": 12,
    "mean_points_per_round": 5.083,
    "rounds_at_zero": 5,
    "best_round": 2,
    "head_to_head": 0,
    "buchholz": None,
    "median_buchholz": None,
    "rating": 1093,
    "byes": 0,
    "dropped": False,
    "final_place": None,
    "division": None,
    "by_stage": [
        {"stage": 1, "matches": 1, "placement_points": 5.0, "bye": False},
        {"stage": 2, "matches": 1, "placement_points": 3.0, "bye": False},
        {"stage": 3, "matches": 1, "placement_points": 5.0, "bye": False},
    ],
}


STANDINGS_EXAMPLE = {
    "competition_id": 3,
    "kind": "tournament",
    "status": "finished",
    "min_matches": 0,
    "stage_count": 3,
    "final": True,
    "final_table": None,
    "tie_breaks": ["placement_points", "wins", "mean_points_per_round", "head_to_head"],
    "divisions": [],
    "division": None,
    "standings": [
        STANDING_EXAMPLE,
        {
            **STANDING_EXAMPLE,
            "rank": 2,
            "shared": True,
            "player_id": 2,
            "name": "Grace",
            "wins": 1,
            "placement_points": 11.0,
        },
        {
            **STANDING_EXAMPLE,
            "rank": 2,
            "shared": True,
            "player_id": 9,
            "name": "Edsger",
            "wins": 1,
            "placement_points": 11.0,
        },
    ],
}


#: A tournament ranked by placement points, then Buchholz, then wins: Grace and Edsger level on
#: points, Grace's opponents scored more.
BUCHHOLZ_EXAMPLE = {
    **STANDINGS_EXAMPLE,
    "tie_breaks": ["placement_points", "buchholz", "wins"],
    "standings": [
        {
            **row,
            "head_to_head": None,
            "buchholz": buchholz,
            "median_buchholz": None,
            "rank": rank,
            "shared": False,
        }
        for row, buchholz, rank in zip(
            STANDINGS_EXAMPLE["standings"], (21.333, 24.667, 23.0), (1, 2, 3), strict=True
        )
    ],
}


#: A tournament with a final table of two: Edsger, third on points after the Swiss stages,
#: won the final; its results are not in the points (``final_place`` says what it gave).
FINAL_TABLE_EXAMPLE = {
    **STANDINGS_EXAMPLE,
    "final_table": {"size": 2},
    "standings": [
        {
            **STANDINGS_EXAMPLE["standings"][2],
            "rank": 1,
            "shared": False,
            "final_place": 1,
            "placement_points": 11.0,
        },
        {**STANDINGS_EXAMPLE["standings"][0], "rank": 2, "shared": False, "final_place": 2},
        {**STANDINGS_EXAMPLE["standings"][1], "rank": 3, "shared": False, "final_place": None},
    ],
}


#: An event of two divisions, division B asked for (``?division=B``): ranked on its own.
DIVISION_EXAMPLE = {
    **STANDINGS_EXAMPLE,
    "status": "running",
    "final": False,
    "divisions": ["A", "B"],
    "division": "B",
    "standings": [
        {**row, "division": "B"}
        for row in (STANDINGS_EXAMPLE["standings"][0], STANDINGS_EXAMPLE["standings"][1])
    ],
}


def standings_responses(competition_standings_serializer: Any) -> Any:
    """The answers of ``StandingsApi``, given the view's own serializer."""
    return {
        (HTTPStatus.OK, "application/json"): OpenApiResponse(
            competition_standings_serializer,
            description="The standings.",
            examples=[
                OpenApiExample("Final", value=STANDINGS_EXAMPLE),
                OpenApiExample("Ranked by Buchholz after the points", value=BUCHHOLZ_EXAMPLE),
                OpenApiExample("After a final table of two", value=FINAL_TABLE_EXAMPLE),
                OpenApiExample("One division of two", value=DIVISION_EXAMPLE),
            ],
        ),
        HTTPStatus.PERMANENT_REDIRECT: OpenApiResponse(
            description="`format=csv` (deprecated): the CSV is at `standings.csv`, no body."
        ),
        HTTPStatus.BAD_REQUEST: BAD_FILTER,
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND_OR_DIVISION,
    }


#: The CSV operation's answer: a string, ``text/csv``, never JSON.
STANDINGS_CSV = OpenApiResponse(
    OpenApiTypes.STR,
    description="The standings as CSV (RFC 4180), a header row first; "
    "`Content-Disposition` names the file.",
    examples=[OpenApiExample("CSV", value=CSV_EXAMPLE)],
)
STANDINGS_CSV_RESPONSES = {
    (HTTPStatus.OK, "text/csv"): STANDINGS_CSV,
    HTTPStatus.BAD_REQUEST: BAD_FILTER,
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.NOT_FOUND: NOT_FOUND_OR_DIVISION,
}
