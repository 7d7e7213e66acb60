"""The OpenAPI declarations of ``scoring.api.stage_paper``'s views: a stage's scorer links, its
table cards and its pairings sheet."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from chickenfoot.renderers import PDF_EXAMPLE
from scoring.api.apidocs.crosstable import NO_PARAMETERS
from scoring.api.apidocs.table_events import DASHBOARD_CONFLICT, DASHBOARD_PARAMETERS
from scoring.api.competition_base import (
    DIVISION,
    DIVISION_NOT_FOUND_EXAMPLE,
    NOT_FOUND,
    NOT_FOUND_OR_DIVISION,
    NOT_ORGANISER,
)

TAGS = ["competitions"]
SCORER_LINKS_HEADING: dict[str, Any] = {
    "operation_id": "competition_stage_scorer_links",
    "summary": "A stage's scorer links, with their codes (the organiser)",
    "tags": TAGS,
    "parameters": DASHBOARD_PARAMETERS,
}
SCORER_LINKS_EXAMPLE: dict[str, Any] = {
    "stage": 1,
    "tables": [
        {
            "table": 1,
            "match_id": 41,
            "link_id": 12,
            "code": "K7QM2XPA9R",
            "url": "https://chickenfoot.example/score/#K7QM2XPA9R",
            "revoked": False,
            "needs_new_link": False,
        },
        {
            "table": 2,
            "match_id": 42,
            "link_id": 13,
            "code": None,
            "url": None,
            "revoked": True,
            "needs_new_link": True,
        },
    ],
}
_REFUSALS: dict[Any, Any] = {
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: NOT_ORGANISER,
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    HTTPStatus.CONFLICT: DASHBOARD_CONFLICT,
}


def scorer_links_responses(serializer: Any) -> dict[Any, Any]:
    listed = OpenApiResponse(
        serializer,
        description="Each table's newest scorer link, with its code when it can be printed.",
        examples=[OpenApiExample("Two tables", value=SCORER_LINKS_EXAMPLE)],
    )
    return {HTTPStatus.OK: listed, **_REFUSALS}


TABLE_CARDS_HEADING: dict[str, Any] = {
    "operation_id": "competition_stage_table_cards_pdf",
    "summary": "A stage's table cards, one page per table (PDF; the organiser)",
    "description": "At an event with divisions each card names its table's division; "
    "`?division=` prints that division's tables alone.",
    "tags": TAGS,
    "parameters": [*DASHBOARD_PARAMETERS, DIVISION],
}
PAIRINGS_HEADING: dict[str, Any] = {
    "operation_id": "competition_stage_pairings_pdf",
    "summary": "A stage's pairings sheet (PDF; the organiser, anyone at a public event)",
    "description": "At an event with divisions each division is printed in turn, on pages of "
    "its own under its heading; `?division=` prints that division alone.",
    "tags": TAGS,
    "parameters": [*DASHBOARD_PARAMETERS, DIVISION],
}


def _pdf(description: str, name: str) -> OpenApiResponse:
    return OpenApiResponse(
        OpenApiTypes.BINARY,
        description=description,
        examples=[OpenApiExample(name, value=PDF_EXAMPLE)],
    )


TABLE_CARDS_RESPONSES: dict[Any, Any] = {
    (HTTPStatus.OK, "application/pdf"): _pdf(
        "A page per table: seats, score grid, signatures, the scorer's QR code and code.",
        "Table cards",
    ),
    HTTPStatus.BAD_REQUEST: NO_PARAMETERS,
    **_REFUSALS,
    HTTPStatus.NOT_FOUND: NOT_FOUND_OR_DIVISION,
}
PAIRINGS_RESPONSES: dict[Any, Any] = {
    (HTTPStatus.OK, "application/pdf"): _pdf(
        "Each table and its players, and the byes, in large type: no scorer code.", "Pairings"
    ),
    HTTPStatus.BAD_REQUEST: NO_PARAMETERS,
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: problem(
        "Signed in, not the organiser, and the competition is not public.",
        (
            "Not public",
            problem_example(
                403,
                "not_organiser",
                "Not an organiser",
                "Only the organiser of competition 3 can print its pairings while it is not "
                "public.",
            ),
        ),
    ),
    HTTPStatus.NOT_FOUND: problem(
        "No such competition, or (without a token) one that is not public; or (?division=) "
        "no such division of it.",
        (
            "No such competition",
            problem_example(
                404, "competition_not_found", "No such competition", "There is no competition 3."
            ),
        ),
        DIVISION_NOT_FOUND_EXAMPLE,
    ),
    HTTPStatus.CONFLICT: DASHBOARD_CONFLICT,
}
