"""Leaving a match: resign your seat (a bot plays on), abandon a match (creator, organiser)."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any, Protocol, TypeVar

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import examples
from games.api.common import (
    MATCH_ID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_YOUR_MATCH,
    GameApi,
    etag,
    problem,
    problem_example,
)
from games.api.matches import MatchViewOutputSerializer
from games.models import Match, Player
from games.selectors import match_for_viewer, match_view
from games.services import match_abandon, seat_resign
from games.tables.apidocs import TABLE_MATCH_EXAMPLE

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


class LeavingService(Protocol):
    """A service that takes the caller out of a match (``seat_resign``, ``match_abandon``)."""

    def __call__(self, *, match_id: int, player: Player) -> Match: ...


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


def leave(request: Request, api: GameApi, match_id: int, service: LeavingService) -> Response:
    """Run ``service`` for the caller, then answer the match as their seat now sees it."""
    player = api.player(request)
    service(match_id=match_id, player=player)
    match, seat = match_for_viewer(match_id=match_id, player=player)
    return Response(
        match_view(match=match, seat=seat, viewer=player), headers={"ETag": etag(match.version)}
    )


class SeatResignApi(GameApi):
    """Resign: a level-2 bot plays your seat to the end; you are ranked after those who stay."""

    @leaving_schema(
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
    def post(self, request: Request, match_id: int) -> Response:
        return leave(request, self, match_id, seat_resign)


class MatchAbandonApi(GameApi):
    """Abandon a match that has not finished (its creator or an organiser)."""

    @leaving_schema(
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
    def post(self, request: Request, match_id: int) -> Response:
        return leave(request, self, match_id, match_abandon)
