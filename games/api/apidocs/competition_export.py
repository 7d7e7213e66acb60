"""The OpenAPI declarations of a competition's export (games/api/competition_export.py)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games.api.common import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.apidocs.stage_edits import CHANGE_EXAMPLE

COMPETITION_ID = OpenApiParameter(
    "competition_id", int, OpenApiParameter.PATH, description="The tournament's or league's id."
)
_SEATS = [
    {"seat": 0, "points": 0, "went_out": True, "tiles": None},
    {"seat": 1, "points": 12, "went_out": False, "tiles": None},
]
_FIXED = [_SEATS[0], {"seat": 1, "points": 14, "went_out": False, "tiles": [[5, 6], [0, 3]]}]
EXPORT = {
    "competition": {
        "id": 3,
        "name": "Club night",
        "kind": "tournament",
        "play": "table",
        "variant": "chickenfoot",
        "status": "finished",
        "stage_count": 1,
        "final_table": None,
    },
    "exported_at": "2026-12-01T22:00:00Z",
    "seating_changes": [CHANGE_EXAMPLE],
    "matches": [
        {
            "match_id": 41,
            "stage": 1,
            "final_table": False,
            "table": 1,
            "status": "finished",
            "play": "table",
            "variant": "chickenfoot",
            "seats": [
                {
                    "position": 0,
                    "player_id": 3,
                    "kind": "human",
                    "name": "Nora",
                    "place": 1,
                    "total": 0,
                },
                {
                    "position": 1,
                    "player_id": None,
                    "kind": "guest",
                    "name": "Grandpa Joe",
                    "place": 2,
                    "total": 14,
                },
            ],
            "rounds": [{"number": 1, "start_double": [9, 9], "scores": _FIXED}],
            "trail": [
                {
                    "round": 1,
                    "kind": "entered",
                    "at": "2026-12-01T20:10:00Z",
                    "by": {"player_id": None, "name": None, "scorer_link_id": 7},
                    "seat": None,
                    "before": None,
                    "after": _SEATS,
                    "reason": None,
                },
                {
                    "round": 1,
                    "kind": "amended",
                    "at": "2026-12-01T20:30:00Z",
                    "by": {"player_id": 3, "name": "Nora", "scorer_link_id": None},
                    "seat": None,
                    "before": _SEATS,
                    "after": _FIXED,
                    "reason": "Joe counted his tiles again",
                },
                {
                    "round": None,
                    "kind": "reopened",
                    "at": "2026-12-02T09:00:00Z",
                    "by": {"player_id": 1, "name": "Olga", "scorer_link_id": None},
                    "seat": None,
                    "before": None,
                    "after": [],
                    "reason": "Seat 1 went out and not seat 0",
                },
            ],
        }
    ],
}
CSV_EXAMPLE = (
    "competition_id,stage,table,match_id,match_status,play,event,event_at,by_player_id,"
    "by_name,by_scorer_link_id,reason,round,start_double,current,seat,player_id,kind,name,"
    "points,went_out,tiles,points_before,place,total\r\n"
    "3,1,1,41,finished,table,seat,,,,,,,,,0,3,human,Nora,,,,,1,0\r\n"
    "3,1,1,41,finished,table,entered,2026-12-01T20:10:00Z,,,7,,1,9|9,false,1,,guest,"
    "Grandpa Joe,12,false,,,2,14\r\n"
    "3,1,1,41,finished,table,amended,2026-12-01T20:30:00Z,3,Nora,,Joe counted his tiles "
    "again,1,9|9,true,1,,guest,Grandpa Joe,14,false,5|6 0|3,12,2,14\r\n"
    "3,1,1,41,finished,table,reopened,2026-12-02T09:00:00Z,1,Olga,,Seat 1 went out and not "
    "seat 0,,,,,,,,,,,,,\r\n"
)
_REFUSALS = {
    HTTPStatus.BAD_REQUEST: problem(
        "A query parameter: the export takes none.",
        (
            "A parameter",
            problem_example(
                400,
                "invalid",
                "Invalid input",
                "page: Unknown query parameter. Known ones: none.",
                errors={"page": ["Unknown query parameter. Known ones: none."]},
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: problem(
        "Only the competition's organiser exports its results.",
        (
            "Not the organiser",
            problem_example(
                403,
                "not_organiser",
                "Not an organiser",
                "Only the organiser of competition 3 exports its results.",
            ),
        ),
    ),
    HTTPStatus.NOT_FOUND: problem(
        "No such competition.",
        (
            "No such competition",
            problem_example(
                404, "competition_not_found", "No such competition", "There is no competition 99."
            ),
        ),
    ),
}
EXPORT_JSON_DOCS: dict[str, Any] = {
    "operation_id": "competition_export",
    "summary": "A competition's full results: matches, rounds, seats, score sheets (organiser)",
    "tags": ["competitions"],
    "parameters": [COMPETITION_ID],
}
EXPORT_CSV_DOCS: dict[str, Any] = {
    "operation_id": "competition_export_csv",
    "summary": "A competition's full results as CSV, one row per seat per event (organiser)",
    "tags": ["competitions"],
    "parameters": [COMPETITION_ID],
}


def export_json_responses(output: type) -> dict[Any, Any]:
    """The answers of the JSON export, given its serializer."""
    return {
        (HTTPStatus.OK, "application/json"): OpenApiResponse(
            output,
            description="The whole competition; no hand of an online match.",
            examples=[OpenApiExample("A table tournament, one correction", value=EXPORT)],
        ),
        **_REFUSALS,
    }


EXPORT_CSV_RESPONSES = {
    (HTTPStatus.OK, "text/csv"): OpenApiResponse(
        OpenApiTypes.STR,
        description="RFC 4180 CSV, a header row first (docs/tables.md, Export); "
        "`Content-Disposition` names the file.",
        examples=[OpenApiExample("CSV", value=CSV_EXAMPLE)],
    ),
    **_REFUSALS,
}
