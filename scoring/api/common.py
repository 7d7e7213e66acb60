"""What the scoring views share: strict query parameters, the history cursor, documented
problems."""

from __future__ import annotations

from collections.abc import Iterable

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param

from chickenfoot.openapi import problem, problem_example
from chickenfoot.query import QueryCheck, StrictCursor, StrictPageSize, check_query_params
from scoring import ratings


def check_known_params(request: Request, known: Iterable[str], *checks: QueryCheck) -> None:
    """Refuse (400) a query parameter no filter knows, or one given empty or twice: a typo or
    ``?variant=`` must not return everything (``chickenfoot.query``); with what ``checks`` find
    in the values, every parameter at once."""
    check_query_params(request.query_params, known, *checks)


class HistoryCursor(StrictCursor):
    """Keyset paging, newest first on ``finished_at`` (ties by id, stepped by DRF's offset among
    equal times): a page does not shift when new matches finish (they come before the first
    page), however deep the cursor."""

    ordering = ("-finished_at", "-id")
    page_size = 20
    max_page_size = 100


class LeaderboardPages(StrictPageSize, PageNumberPagination):
    """Page numbers, with ``count``. ``at_position`` (a row's 0-based place in the list) picks
    the page that holds it instead of ``page``; the links then lead on from that page."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    at_position: int | None = None

    def get_page_number(self, request: Request, paginator: object) -> int | str:
        if self.at_position is not None:
            return self.at_position // (self.get_page_size(request) or 1) + 1
        return super().get_page_number(request, paginator)  # type: ignore[arg-type]

    def get_next_link(self) -> str | None:
        return _without_player(super().get_next_link())

    def get_previous_link(self) -> str | None:
        return _without_player(super().get_previous_link())


def _without_player(link: str | None) -> str | None:
    return None if link is None else remove_query_param(link, "player")


PLAYER_NOT_FOUND = problem(
    "No such player.",
    ("No such player", problem_example(404, "player_not_found", "No such player",
                                       "There is no player 99.")),
)  # fmt: skip
PROFILE_HIDDEN = problem(
    "The player does not show their record to the caller (their `profile_visibility`: "
    "`friends` or `nobody`; a deleted account's is hidden from everyone).",
    ("Profile hidden", problem_example(403, "profile_hidden", "Profile hidden",
                                       "Player 8 does not show their record to you.")),
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


@extend_schema_serializer(component_name="RatingChangeFigures")
class RatingChangeFiguresSerializer(serializers.Serializer):
    """What one rated match did to one player's rating, on the leaderboards' scale."""

    before = serializers.IntegerField(help_text="`display` before the match.")
    after = serializers.IntegerField(help_text="`display` after it.")
    delta = serializers.IntegerField(help_text="`after - before`.")


def unrated_reason_field() -> serializers.ChoiceField:
    """Why a finished match was not rated (``scoring.ratings.unrated_reason``), as every
    answer that shows a match's results says it; null when it was rated, and while its
    results are pending."""
    return serializers.ChoiceField(
        choices=ratings.UNRATED_REASONS,
        allow_null=True,
        help_text="Why the match was not rated, null when it was (and while its results are "
        "pending): `single_rated_player`, one player held every seat (a table of one bot "
        "level), and a rating compares two. Its results, places and history are written all "
        "the same; no rating changes.",
    )


class RatingChangeCursor(StrictCursor):
    """Keyset paging of a player's rating changes, newest first (by id: the order they were
    written): a page does not shift when later matches are rated."""

    ordering = ("-id",)
    page_size = 20
    max_page_size = 100
