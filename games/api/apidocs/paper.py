"""The OpenAPI declarations of a table match's score sheet (games/api/paper.py)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.renderers import PDF_EXAMPLE
from games.api.common import MATCH_ID, NOT_AUTHENTICATED, problem, problem_example

SCORE_SHEET_DOCS: dict[str, Any] = {
    "operation_id": "match_score_sheet_pdf",
    "summary": "A table match's score sheet (PDF)",
    "tags": ["tables"],
    "parameters": [MATCH_ID],
}
SCORE_SHEET_RESPONSES: dict[Any, Any] = {
    (HTTPStatus.OK, "application/pdf"): OpenApiResponse(
        OpenApiTypes.BINARY,
        description="A PDF: the rounds as entered, totals, places, corrections marked.",
        examples=[OpenApiExample("A score sheet", value=PDF_EXAMPLE)],
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: problem(
        "Neither a reader of the match's scores nor a scorer link of it.",
        (
            "Not a reader",
            problem_example(
                403,
                "not_score_reader",
                "Not a reader of the score log",
                "Only the players of match 7, its creator and its organiser read its scores' log.",
            ),
        ),
        (
            "Another match's link",
            problem_example(
                403,
                "not_scorer",
                "Not a scorer",
                "This scorer link opens another match than match 7.",
            ),
        ),
    ),
    HTTPStatus.NOT_FOUND: problem(
        "No such table match.",
        (
            "No table match",
            problem_example(404, "match_not_found", "No such match", "There is no table match 7."),
        ),
    ),
}
