"""Leaving a match: resign your seat (a bot plays on), abandon a match (creator, organiser)."""

from __future__ import annotations

from typing import Protocol

from rest_framework.request import Request
from rest_framework.response import Response

from games.api.apidocs import leaving as apidocs
from games.api.common import (
    GameApi,
    etag,
)
from games.models import Match, Player
from games.selectors import match_for_viewer, match_view
from games.services import match_abandon, seat_resign


class LeavingService(Protocol):
    """A service that takes the caller out of a match (``seat_resign``, ``match_abandon``)."""

    def __call__(self, *, match_id: int, player: Player) -> Match: ...


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

    @apidocs.SEAT_RESIGN_SCHEMA
    def post(self, request: Request, match_id: int) -> Response:
        return leave(request, self, match_id, seat_resign)


class MatchAbandonApi(GameApi):
    """Abandon a match that has not finished (its creator or an organiser)."""

    @apidocs.MATCH_ABANDON_SCHEMA
    def post(self, request: Request, match_id: int) -> Response:
        return leave(request, self, match_id, match_abandon)
