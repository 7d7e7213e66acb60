"""The OpenAPI declarations of ``games.api.leaving``'s views: the schema of a leaving
operation, and each operation's."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from games.api.apidocs import examples
from games.api.apidocs.table_scores import TABLE_MATCH_EXAMPLE
from games.api.common import (
    MATCH_ID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_YOUR_MATCH,
    problem,
    problem_example,
)
from games.api.match_types import MatchViewOutputSerializer

F = TypeVar("F", bound=Callable[..., Any])

NOT_PLAYING = (
    "Not in play",
    problem_example(
        409,
        "match_not_playing",
        "Match not in play",
        "Match 7 is finished: there is nothing to resign.",
    ),
)


def leaving_schema(
    *,
    operation_id: str,
    summary: str,
    description: str,
    answer: str,
    example: tuple[str, dict[str, Any]],
    forbidden: OpenApiResponse,
    conflict: OpenApiResponse,
) -> Callable[[F], F]:
    """The schema of a leaving operation: no body; the match as the caller's seat sees it
    (``answer``, ``example``), or who may not (``forbidden``) and when not (``conflict``)."""
    name, value = example
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        tags=["matches"],
        parameters=[MATCH_ID],
        request=None,
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchViewOutputSerializer,
                description=answer,
                examples=[OpenApiExample(name, value=value)],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.FORBIDDEN: forbidden,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
            HTTPStatus.CONFLICT: conflict,
        },
    )


SEAT_RESIGN_SCHEMA = leaving_schema(
    operation_id="seat_resign",
    summary="Resign your seat",
    description=(
        "A bot (level 2) plays your seat for the rest of the match; the seat stays yours, "
        "marked `left: resigned`, and the final standings rank you after every player who "
        "stayed (docs/api.md, Resigning and abandoning). Your moves are refused from now on "
        "(409 `seat_left`)."
    ),
    answer="The match, as your seat sees it.",
    example=("Resigned", examples.RESIGNED_VIEW),
    forbidden=NOT_YOUR_MATCH,
    conflict=problem(
        "The match is not in play, a bot plays your seat already, or the match is played at a "
        "table (no bot can take a seat there).",
        NOT_PLAYING,
        TABLE_MATCH_EXAMPLE,
        (
            "Already left",
            problem_example(
                409,
                "already_left",
                "Already left",
                "A bot already plays your seat at match 7.",
            ),
        ),
    ),
)

MATCH_ABANDON_SCHEMA = leaving_schema(
    operation_id="match_abandon",
    summary="Abandon a match",
    description=(
        "Stops an open or running match for good: status `abandoned`, no more moves, no "
        "standings and no results (it counts for nobody). Only its creator or an organiser."
    ),
    answer="The match, abandoned.",
    example=("Abandoned", examples.ABANDONED_VIEW),
    forbidden=problem(
        "Only the creator or an organiser may abandon a match.",
        (
            "Not the creator",
            problem_example(
                403,
                "not_creator",
                "Not the creator",
                "Only the match's creator or an organiser can abandon it.",
            ),
        ),
    ),
    conflict=problem(
        "The match has finished or was abandoned already.",
        (
            "Over",
            problem_example(
                409,
                "match_not_playing",
                "Match not in play",
                "Match 7 is finished: it cannot be abandoned.",
            ),
        ),
    ),
)
