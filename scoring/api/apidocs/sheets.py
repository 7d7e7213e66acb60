"""The OpenAPI declarations of ``scoring.api.sheets``'s views: the printed standings and the
printed crosstable (PDF)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from chickenfoot.renderers import PDF_EXAMPLE
from scoring.api.apidocs.crosstable import LEAGUE_CONFLICT, NO_PARAMETERS
from scoring.api.competition_base import COMPETITION_ID, DIVISION, DIVISION_NOT_FOUND_EXAMPLE

TAGS = ["competitions"]
STANDINGS_HEADING: dict[str, Any] = {
    "operation_id": "competition_standings_pdf",
    "summary": "The standings for the notice board (PDF; the organiser, anyone when public)",
    "tags": TAGS,
    "parameters": [COMPETITION_ID, DIVISION],
}
CROSSTABLE_HEADING: dict[str, Any] = {
    "operation_id": "competition_crosstable_pdf",
    "summary": "A tournament's crosstable, A4 landscape (PDF; the organiser, anyone when public)",
    "tags": TAGS,
    "parameters": [COMPETITION_ID, DIVISION],
}


def _pdf(description: str, name: str) -> OpenApiResponse:
    return OpenApiResponse(
        OpenApiTypes.BINARY,
        description=description,
        examples=[OpenApiExample(name, value=PDF_EXAMPLE)],
    )


def _not_public(sheet: str) -> Any:
    return problem(
        "Signed in, not the organiser, and the competition is not public.",
        (
            "Not public",
            problem_example(
                403,
                "not_organiser",
                "Not an organiser",
                f"Only the organiser of competition 3 can print its {sheet} while it is not "
                "public.",
            ),
        ),
    )


NOT_FOUND = problem(
    "No such competition, or (without a token) one that is not public; or (?division=) no "
    "such division of it.",
    (
        "No such competition",
        problem_example(
            404, "competition_not_found", "No such competition", "There is no competition 3."
        ),
    ),
    DIVISION_NOT_FOUND_EXAMPLE,
)
STANDINGS_RESPONSES: dict[Any, Any] = {
    (HTTPStatus.OK, "application/pdf"): _pdf(
        "Each player's rank, name, matches and the value of every tie-break of the "
        "competition's order, in that order; names only.",
        "Standings",
    ),
    HTTPStatus.BAD_REQUEST: NO_PARAMETERS,
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: _not_public("standings"),
    HTTPStatus.NOT_FOUND: NOT_FOUND,
}
CROSSTABLE_RESPONSES: dict[Any, Any] = {
    (HTTPStatus.OK, "application/pdf"): _pdf(
        "A row per entrant, numbered in standings order, with the order's values and a cell per "
        "stage (table, place of players, placement points; the opponents' numbers, pips); "
        "A4 landscape, as many pages as the field needs.",
        "Crosstable",
    ),
    HTTPStatus.BAD_REQUEST: NO_PARAMETERS,
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: _not_public("crosstable"),
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    HTTPStatus.CONFLICT: LEAGUE_CONFLICT,
}
