"""The OpenAPI declarations of ``scoring.api.crosstable``'s views: a tournament's crosstable as
JSON and CSV."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.csv_cells import csv_document
from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.competition_base import COMPETITION_ID, DIVISION, NOT_FOUND_OR_DIVISION
from scoring.competitions.crosstable import csv_header, csv_rows

TAGS = ["competitions"]


def _played(
    stage: int,
    table: int,
    match_id: int,
    result: tuple[int, float, int],
    opponents: list[tuple[int, str, int | None]],
) -> dict[str, Any]:
    """A stage played at a table of three: (place, placement points, pips), and the opponents
    as (player id, name, entrant number; ``None`` for a bot)."""
    place, points, total = result
    return {
        "stage": stage,
        "status": "played",
        "table": table,
        "match_id": match_id,
        "opponents": [
            {"player_id": pid, "name": name, "bot": number is None, "number": number}
            for pid, name, number in opponents
        ],
        "place": place,
        "table_players": 3,
        "placement_points": points,
        "total_points": total,
    }


def _unseated(stage: int, status: str, points: float | None = None) -> dict[str, Any]:
    return {
        "stage": stage,
        "status": status,
        "table": None,
        "match_id": None,
        "opponents": [],
        "place": None,
        "table_players": None,
        "placement_points": points,
        "total_points": None,
    }


#: A tournament at tables of three after two of its three stages, ranked by points, Buchholz,
#: wins: Alan won both his tables; Grace sat stage 2 out with a bye; Ada entered late (after
#: stage 1 had started) and played stage 2 beside a bot; Edsger dropped out after stage 1. Ada
#: and Edsger have a point each: Ada's opponents scored more (Alan 8 against Alan's and Grace's
#: (8 + 6) / 2 = 7).
CROSSTABLE_EXAMPLE: dict[str, Any] = {
    "competition_id": 3,
    "name": "Spring open",
    "status": "running",
    "stage_count": 3,
    "final_table": None,
    "current_stage": 2,
    "final": False,
    "tie_breaks": ["placement_points", "buchholz", "wins"],
    "divisions": [],
    "division": None,
    "stages": [
        {"number": 1, "status": "finished", "final_table": False},
        {"number": 2, "status": "finished", "final_table": False},
    ],
    "entrants": [
        {
            "number": 1,
            "rank": 1,
            "shared": False,
            "player_id": 5,
            "name": "Alan",
            "dropped": False,
            "division": None,
            "tie_breaks": {"placement_points": 8.0, "buchholz": 4.5, "wins": 2},
            "stages": [
                _played(1, 1, 41, (1, 4.0, 6), [(2, "Grace", 2), (9, "Edsger", 4)]),
                _played(
                    2, 1, 44, (1, 4.0, 12), [(77, "Greedy bot (level 2)", None), (12, "Ada", 3)]
                ),
            ],
        },
        {
            "number": 2,
            "rank": 2,
            "shared": False,
            "player_id": 2,
            "name": "Grace",
            "dropped": False,
            "division": None,
            "tie_breaks": {"placement_points": 6.0, "buchholz": 4.5, "wins": 0},
            "stages": [
                _played(1, 1, 41, (2, 2.0, 23), [(5, "Alan", 1), (9, "Edsger", 4)]),
                _unseated(2, "bye", 4.0),
            ],
        },
        {
            "number": 3,
            "rank": 3,
            "shared": False,
            "player_id": 12,
            "name": "Ada",
            "dropped": False,
            "division": None,
            "tie_breaks": {"placement_points": 1.0, "buchholz": 8.0, "wins": 0},
            "stages": [
                _unseated(1, "not_entered"),
                _played(
                    2, 1, 44, (3, 1.0, 31), [(5, "Alan", 1), (77, "Greedy bot (level 2)", None)]
                ),
            ],
        },
        {
            "number": 4,
            "rank": 4,
            "shared": False,
            "player_id": 9,
            "name": "Edsger",
            "dropped": True,
            "division": None,
            "tie_breaks": {"placement_points": 1.0, "buchholz": 7.0, "wins": 0},
            "stages": [
                _played(1, 1, 41, (3, 1.0, 40), [(5, "Alan", 1), (2, "Grace", 2)]),
                _unseated(2, "dropped"),
            ],
        },
    ],
}
CSV_EXAMPLE = csv_document(csv_header(CROSSTABLE_EXAMPLE), csv_rows(CROSSTABLE_EXAMPLE)).decode()

HEADING: dict[str, Any] = {
    "operation_id": "competition_crosstable",
    "summary": "A tournament's crosstable",
    "tags": TAGS,
    "parameters": [COMPETITION_ID, DIVISION],
}
CSV_HEADING: dict[str, Any] = {
    "operation_id": "competition_crosstable_csv",
    "summary": "A tournament's crosstable as CSV",
    "tags": TAGS,
    "parameters": [COMPETITION_ID, DIVISION],
}

#: A league has no stages: no crosstable.
LEAGUE_CONFLICT = problem(
    "A league: it has no stages, so no crosstable.",
    (
        "A league",
        problem_example(
            409,
            "competition_status",
            "Not now",
            "League 4 has no stages, so no crosstable: its standings and each player's history "
            "say who met whom.",
        ),
    ),
)
#: These take ``division`` alone: any other query parameter is refused, as everywhere.
NO_PARAMETERS = problem(
    "A query parameter other than division.",
    (
        "A parameter",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "stage: Unknown query parameter. Known ones: division.",
            errors={"stage": ["Unknown query parameter. Known ones: division."]},
        ),
    ),
)
_REFUSALS: dict[Any, Any] = {
    HTTPStatus.BAD_REQUEST: NO_PARAMETERS,
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.NOT_FOUND: NOT_FOUND_OR_DIVISION,
    HTTPStatus.CONFLICT: LEAGUE_CONFLICT,
}


def crosstable_responses(serializer: Any) -> dict[Any, Any]:
    """The answers of ``CrosstableApi``, given the view's own serializer."""
    return {
        (HTTPStatus.OK, "application/json"): OpenApiResponse(
            serializer,
            description="Every entrant in standings order, and each stage started so far.",
            examples=[OpenApiExample("After two stages", value=CROSSTABLE_EXAMPLE)],
        ),
        **_REFUSALS,
    }


CSV_RESPONSES: dict[Any, Any] = {
    (HTTPStatus.OK, "text/csv"): OpenApiResponse(
        OpenApiTypes.STR,
        description="The crosstable as CSV (RFC 4180), a header row first, a row per entrant; "
        "`Content-Disposition` names the file.",
        examples=[OpenApiExample("After two stages", value=CSV_EXAMPLE)],
    ),
    **_REFUSALS,
}
