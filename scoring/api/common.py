"""What the scoring views share: strict query parameters, the history cursor, documented
problems."""

from __future__ import annotations

from collections.abc import Iterable

from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination, PageNumberPagination
from rest_framework.request import Request

from chickenfoot.openapi import problem, problem_example
from chickenfoot.query import QueryCheck, StrictPageSize, check_query_params


def check_known_params(request: Request, known: Iterable[str], *checks: QueryCheck) -> None:
    """Refuse (400) a query parameter no filter knows, or one given empty or twice: a typo or
    ``?variant=`` must not return everything (``chickenfoot.query``); with what ``checks`` find
    in the values, every parameter at once."""
    check_query_params(request.query_params, known, *checks)


class HistoryCursor(StrictPageSize, CursorPagination):
    """Keyset paging, newest first on ``finished_at`` (ties by id, stepped by DRF's offset among
    equal times): a page does not shift when new matches finish (they come before the first
    page), however deep the cursor."""

    ordering = ("-finished_at", "-id")
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def decode_cursor(self, request: Request):  # type: ignore[no-untyped-def]
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise ValidationError({self.cursor_query_param: ["Invalid cursor."]}) from None


class LeaderboardPages(StrictPageSize, PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


PLAYER_NOT_FOUND = problem(
    "No such player.",
    ("No such player", problem_example(404, "player_not_found", "No such player",
                                       "There is no player 99.")),
)  # fmt: skip
PAGE_NOT_FOUND = problem(
    "A page that does not exist: past the last one, or not a page number.",
    ("No such page", problem_example(404, "not_found", "Not found", "Invalid page.")),
)
BAD_FILTER = problem(
    "A filter value (or parameter) is not valid.",
    (
        "Bad filter value",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "place: Enter a whole number.",
            errors={"place": ["Enter a whole number."]},
        ),
    ),
    (
        "Unknown parameter",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "varaint: Unknown query parameter. Known ones: cursor, page_size, variant.",
            errors={
                "varaint": ["Unknown query parameter. Known ones: cursor, page_size, variant."]
            },
        ),
    ),
)
