"""Matches: create, the lobby, my matches, the match as my seat sees it, join, start."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.problems import flatten_errors
from chickenfoot.query import check_query_params, page_size_check
from chickenfoot.throttles import MATCH_CREATE_THROTTLES
from games.accounts.scorer_authentication import scorer_of
from games.api.apidocs import matches as apidocs
from games.api.common import (
    ETAG_HEADER,
    IF_NONE_MATCH,
    MATCH_ID,
    GameApi,
    etag,
    matches_etag,
)
from games.api.match_types import (
    MATCH_CREATE_REQUEST,
    MatchCreateInputSerializer,
)
from games.api.paging import PAGE_PARAMETERS, MatchPagination
from games.api.scorer_access import ScorerOrPlayerApi
from games.api.strict import (
    PAGE_PARAMS,
    QuerySerializer,
    StrictIntegerField,
    StrictSerializer,
)
from games.models import Match, Player
from games.results import ratings_attach
from games.selectors import (
    match_for_viewer,
    match_get,
    match_list_for_player,
    match_list_open,
    match_list_row,
    match_summary,
    match_view,
)
from games.services import SeatSpec, match_create, match_start, seat_join
from games.services.matches import match_create_refused
from games.tables.scorer_links import match_for_scorer
from games.tables.services import table_match_create_from, table_match_create_refused


class MatchCreateApi(GameApi):
    """Create a match: the game, house options (docs/rules.md §4) and every seat in play order."""

    throttle_classes = MATCH_CREATE_THROTTLES

    @extend_schema(
        operation_id="match_create",
        **apidocs.MATCH_CREATE_HEADING,
        parameters=[ETAG_HEADER],
        request=MATCH_CREATE_REQUEST,
        examples=apidocs.MATCH_CREATE_EXAMPLES,
        responses=apidocs.MATCH_CREATE_RESPONSES,
    )
    def post(self, request: Request) -> Response:
        data = MatchCreateInputSerializer(data=request.data)
        if not data.is_valid():
            if not isinstance(request.data, Mapping):
                raise ValidationError(data.errors)
            # with the seat and option checks of the rest of it: every field at once
            errors = flatten_errors(data.errors)
            if request.data.get("play") == Match.Play.TABLE:
                raise table_match_create_refused(body=request.data, errors=errors)
            raise match_create_refused(body=request.data, errors=errors)
        player = self.player(request)
        if data.validated_data["play"] == Match.Play.TABLE:
            match = table_match_create_from(creator=player, values=data.validated_data)
        else:
            match = match_create(
                creator=player,
                variant=data.validated_data["variant"],
                options=data.validated_data["options"],
                seats=[
                    SeatSpec(kind=s["kind"], level=s.get("level"))
                    for s in data.validated_data["seats"]
                ],
                league=data.validated_data["league"],
                hints=data.validated_data["hints"],
            )
        match = match_get(match_id=match.pk)
        return Response(
            match_summary(match=match, viewer=player),
            status=HTTPStatus.CREATED,
            headers={"ETag": etag(match.version), "Location": f"/api/matches/{match.pk}"},
        )


class MatchOpenListApi(GameApi):
    """Matches waiting for players, with a free seat: the lobby. Newest first, in pages."""

    pagination_class = MatchPagination

    @extend_schema(
        operation_id="match_open_list",
        summary="Matches open to join",
        tags=["matches"],
        parameters=PAGE_PARAMETERS,
        responses=apidocs.MATCH_OPEN_LIST_RESPONSES,
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        check_query_params(request.query_params, PAGE_PARAMS, page_size_check(paginator, request))
        player = self.player(request)
        page = paginator.paginate_queryset(match_list_open(), request, view=self) or []
        return paginator.get_paginated_response(
            [match_summary(match=match, viewer=player) for match in page]
        )


class MatchMineListApi(GameApi):
    """The caller's matches (seated at, or created: a match of bots only included, with
    `your_seat` null), newest first, optionally of one status, in pages.

    Each row says the caller's seat, whose turn it is and whether it is theirs, so an app can
    show "your turn" without fetching every match.
    """

    pagination_class = MatchPagination

    class MatchMineFilterSerializer(QuerySerializer):
        also_known = PAGE_PARAMS
        pagination = MatchPagination
        status = serializers.ChoiceField(choices=Match.Status.choices, required=False)

    @extend_schema(
        operation_id="match_mine_list",
        summary="My matches",
        tags=["matches"],
        parameters=[MatchMineFilterSerializer, *PAGE_PARAMETERS],
        responses=apidocs.MATCH_MINE_LIST_RESPONSES,
    )
    def get(self, request: Request) -> Response:
        filters = self.MatchMineFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        player = self.player(request)
        matches = match_list_for_player(player=player, status=filters.validated_data.get("status"))
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(matches, request, view=self) or []
        ratings_attach(matches=page)
        return paginator.get_paginated_response(
            [match_list_row(match=match, player=player) for match in page]
        )


class MatchDetailApi(ScorerOrPlayerApi):
    """The match as the caller's seat sees it: own hand, the table, counts, turn, scores.

    Poll it with `If-None-Match: "<version>"`: an unchanged match answers 304 with no body.
    Organisers see a started match as a spectator; anyone may see a match that is still open.
    A scorer link (`Authorization: Scorer <code>`) sees its own table match, as a spectator.
    """

    @extend_schema(
        operation_id="match_detail",
        summary="The match, as my seat sees it",
        tags=["matches"],
        parameters=[MATCH_ID, IF_NONE_MATCH, ETAG_HEADER],
        responses=apidocs.MATCH_DETAIL_RESPONSES,
    )
    def get(self, request: Request, match_id: int) -> Response:
        scorer = scorer_of(request)
        player: Player | None = None
        if scorer is not None:
            match, seat = match_for_scorer(match_id=match_id, scorer=scorer), None
        else:
            player = self.player(request)
            match, seat = match_for_viewer(match_id=match_id, player=player)
        headers = {"ETag": etag(match.version), "Vary": "Authorization"}
        if matches_etag(request.headers.get("If-None-Match"), match.version):
            return Response(status=HTTPStatus.NOT_MODIFIED, headers=headers)
        return Response(match_view(match=match, seat=seat, viewer=player), headers=headers)


class SeatJoinApi(GameApi):
    """Take an open seat (the first free one, or `position`)."""

    @extend_schema_serializer(component_name="SeatJoin")
    class SeatJoinInputSerializer(StrictSerializer):
        position = StrictIntegerField(
            min_value=0, required=False, help_text="The seat to take; left out: the first free one."
        )

    @extend_schema(
        operation_id="seat_join",
        **apidocs.SEAT_JOIN_HEADING,
        parameters=[MATCH_ID, ETAG_HEADER],
        request=SeatJoinInputSerializer,
        examples=apidocs.SEAT_JOIN_EXAMPLES,
        responses=apidocs.SEAT_JOIN_RESPONSES,
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = self.SeatJoinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = self.player(request)
        seat_join(match_id=match_id, player=player, position=data.validated_data.get("position"))
        match = match_get(match_id=match_id)
        return Response(
            match_summary(match=match, viewer=player), headers={"ETag": etag(match.version)}
        )


class MatchStartApi(GameApi):
    """Deal round 1 and start play (the creator or an organiser; every seat filled)."""

    @extend_schema(
        operation_id="match_start",
        summary="Start a match",
        tags=["matches"],
        parameters=[MATCH_ID, ETAG_HEADER],
        request=None,
        responses=apidocs.MATCH_START_RESPONSES,
    )
    def post(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        match_start(match_id=match_id, player=player)
        match, seat = match_for_viewer(match_id=match_id, player=player)
        return Response(
            match_view(match=match, seat=seat, viewer=player),
            headers={"ETag": etag(match.version)},
        )


__all__ = [
    "MatchCreateApi",
    "MatchDetailApi",
    "MatchMineListApi",
    "MatchOpenListApi",
    "MatchStartApi",
    "SeatJoinApi",
]
